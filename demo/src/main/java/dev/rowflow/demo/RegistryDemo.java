package dev.rowflow.demo;

import com.google.protobuf.CodedOutputStream;
import dev.rowflow.embedded.EmbeddedRegistry;
import dev.rowflow.embedded.load.RegistryWire;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecordBuilder;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * {@code rowflow demo --format avro-registry} and {@code --format protobuf-registry}: a real Schema
 * Registry (Apicurio, a child process) with two versions of a web request schema registered,
 * records of both interleaved in the registry wire format. Avro is read through the subject's
 * latest version (version 1 records take the default of the field version 2 added); Protobuf
 * with each record's own version, its time a {@code google.protobuf.Timestamp}, written byte for
 * byte as Confluent's serializer writes it.
 */
final class RegistryDemo implements InputDemo.Source, AutoCloseable {
    static final String SUBJECT = "web-requests-value";
    private static final Schema TIMESTAMP = LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG));
    private static final Schema UUID_TEXT = LogicalTypes.uuid().addToSchema(Schema.create(Schema.Type.STRING));
    static final Schema V1 = SchemaBuilder.record("WebRequest").namespace("dev.rowflow.demo").fields()
            .name("requestId").type(UUID_TEXT).noDefault()
            .requiredString("host").requiredString("service")
            .name("time").type(TIMESTAMP).noDefault()
            .requiredString("path").requiredInt("status").requiredLong("latencyMs")
            .endRecord();
    /** Version 2 adds the region, with a default. */
    static final Schema V2 = SchemaBuilder.record("WebRequest").namespace("dev.rowflow.demo").fields()
            .name("requestId").type(UUID_TEXT).noDefault()
            .requiredString("host").requiredString("service")
            .name("time").type(TIMESTAMP).noDefault()
            .requiredString("path").requiredInt("status").requiredLong("latencyMs")
            .name("region").type().stringType().stringDefault("eu-west-1")
            .endRecord();
    /** Version 1 of the Protobuf schema; version 2 adds the region. */
    static final String PROTO_V1 = """
            syntax = "proto3";
            package dev.rowflow.demo;
            import "google/protobuf/timestamp.proto";
            message WebRequest {
              string requestId = 1;
              string host = 2;
              string service = 3;
              google.protobuf.Timestamp time = 4;
              string path = 5;
              int32 status = 6;
              int64 latencyMs = 7;
            """;
    static final String PROTO_V2 = PROTO_V1 + "  string region = 8;\n}\n";
    private static final String[] SERVICES = {"checkout", "search", "catalog", "accounts"};
    private static final String[] REGIONS = {"us-east-1", "ap-south-1"};

    private final EmbeddedRegistry registry;
    private final boolean protobuf;
    private final int v1;
    private final int v2;
    private final Map<String, String> mapping;

    private RegistryDemo(EmbeddedRegistry registry, boolean protobuf) {
        this.registry = registry;
        this.protobuf = protobuf;
        this.v1 = protobuf ? registry.register(SUBJECT, "PROTOBUF", PROTO_V1 + "}\n", java.util.List.of())
                : registry.register(SUBJECT, V1);
        this.v2 = protobuf ? registry.register(SUBJECT, "PROTOBUF", PROTO_V2, java.util.List.of())
                : registry.register(SUBJECT, V2);
        this.mapping = protobuf ? protobufMapping(registry.url()) : mapping(registry.url());
    }

    /** Starts the registry and registers both versions, of the Protobuf schema or else the Avro one. */
    static RegistryDemo start(boolean protobuf) {
        EmbeddedRegistry registry = EmbeddedRegistry.launch();
        try {
            return new RegistryDemo(registry, protobuf);
        } catch (RuntimeException e) {
            registry.close();
            throw e;
        }
    }

    /** The Avro declaration with the Protobuf format: the same field names, the time an RFC 3339 Timestamp. */
    static Map<String, String> protobufMapping(String registryUrl) {
        Map<String, String> mapping = new LinkedHashMap<>(mapping(registryUrl));
        mapping.put("input.web.format", "protobuf-registry");
        mapping.remove("input.web.registry.reader.subject");
        mapping.put("input.web.time.format", "iso8601");
        return Collections.unmodifiableMap(mapping);
    }

    static Map<String, String> mapping(String registryUrl) {
        Map<String, String> mapping = new LinkedHashMap<>();
        mapping.put("inputs", "web");
        mapping.put("input.web.topic", "web-requests");
        mapping.put("input.web.format", "avro-registry");
        mapping.put("input.web.registry.url", registryUrl);
        mapping.put("input.web.registry.reader.subject", SUBJECT);
        mapping.put("input.web.time", "time");
        mapping.put("input.web.time.format", "epoch-ms");
        mapping.put("input.web.key", "bucket(8) | time:ts, host:text, requestId:text");
        mapping.put("input.web.columns", "path=p, status=s, latencyMs=l, region=r, host=h, service=v, requestId=q");
        mapping.put("input.web.indexes", "host");
        mapping.put("input.web.index.host.key", "host:text, service:text, time:rts, requestId:text");
        mapping.put("input.web.summary.key", "host:text, service:text, time:ts");
        return Collections.unmodifiableMap(mapping);
    }

    /** The ids the registry gave versions 1 and 2. */
    int[] ids() {
        return new int[] {v1, v2};
    }

    @Override
    public String describe() {
        return (protobuf ? "Protobuf" : "Avro") + " web requests in the Schema Registry wire format (schema ids " + v1 + " and " + v2 + " of "
                + SUBJECT + " at " + registry.url() + ")";
    }

    @Override
    public String input() {
        return "web";
    }

    @Override
    public Map<String, String> mapping() {
        return mapping;
    }

    @Override
    public Supplier<byte[]> records(long start, int hosts) {
        SplittableRandom random = new SplittableRandom(20_261_123L);
        long[] next = {0};
        return () -> {
            long i = next[0]++;
            boolean second = i % 2 == 1;
            String requestId = new UUID(random.nextLong(), random.nextLong()).toString();
            String host = String.format("web-%03d", random.nextInt(hosts));
            String service = SERVICES[random.nextInt(SERVICES.length)];
            String path = "/api/v1/items/" + random.nextInt(100_000);
            int status = random.nextInt(20) == 0 ? 503 : 200;
            long latency = 1 + random.nextInt(900);
            String region = second ? REGIONS[random.nextInt(REGIONS.length)] : null;
            if (protobuf) {
                return protobufRequest(second ? v2 : v1, requestId, host, service, start + i, path, status, latency,
                        region);
            }
            GenericRecordBuilder request = new GenericRecordBuilder(second ? V2 : V1)
                    .set("requestId", requestId).set("host", host).set("service", service).set("time", start + i)
                    .set("path", path).set("status", status).set("latencyMs", latency);
            if (second) {
                request.set("region", region);
            }
            return RegistryWire.encode(second ? v2 : v1, request.build());
        };
    }

    /** A web request as Confluent's Protobuf serializer writes it ({@link RegistryWire#protobuf}). */
    private static byte[] protobufRequest(int id, String requestId, String host, String service, long time,
                                          String path, int status, long latency, String region) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(128);
        try {
            java.io.ByteArrayOutputStream timestamp = new java.io.ByteArrayOutputStream(16);
            CodedOutputStream t = CodedOutputStream.newInstance(timestamp);
            t.writeInt64(1, Math.floorDiv(time, 1000));
            t.writeInt32(2, (int) Math.floorMod(time, 1000) * 1_000_000);
            t.flush();
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            out.writeString(1, requestId);
            out.writeString(2, host);
            out.writeString(3, service);
            out.writeByteArray(4, timestamp.toByteArray());
            out.writeString(5, path);
            out.writeInt32(6, status);
            out.writeInt64(7, latency);
            if (region != null) {
                out.writeString(8, region);
            }
            out.flush();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return RegistryWire.protobuf(id, bytes.toByteArray());
    }

    @Override
    public void close() {
        registry.close();
    }
}
