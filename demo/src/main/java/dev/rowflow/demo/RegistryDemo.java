package dev.rowflow.demo;

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
 * {@code rowflow demo --format avro-registry}: a real Schema Registry (Apicurio, a child process)
 * with two versions of a web request schema registered, records of both interleaved in the
 * registry wire format, read through the subject's latest version (version 1 records take the
 * default of the field version 2 added).
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
    private static final String[] SERVICES = {"checkout", "search", "catalog", "accounts"};
    private static final String[] REGIONS = {"us-east-1", "ap-south-1"};

    private final EmbeddedRegistry registry;
    private final int v1;
    private final int v2;
    private final Map<String, String> mapping;

    private RegistryDemo(EmbeddedRegistry registry) {
        this.registry = registry;
        this.v1 = registry.register(SUBJECT, V1);
        this.v2 = registry.register(SUBJECT, V2);
        this.mapping = mapping(registry.url());
    }

    /** Starts the registry and registers both versions. */
    static RegistryDemo start() {
        EmbeddedRegistry registry = EmbeddedRegistry.launch();
        try {
            return new RegistryDemo(registry);
        } catch (RuntimeException e) {
            registry.close();
            throw e;
        }
    }

    static Map<String, String> mapping(String registryUrl) {
        Map<String, String> mapping = new LinkedHashMap<>();
        mapping.put("pipelines", "");
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
        return "Avro web requests in the Schema Registry wire format (schema ids " + v1 + " and " + v2 + " of "
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
            GenericRecordBuilder request = new GenericRecordBuilder(second ? V2 : V1)
                    .set("requestId", new UUID(random.nextLong(), random.nextLong()).toString())
                    .set("host", String.format("web-%03d", random.nextInt(hosts)))
                    .set("service", SERVICES[random.nextInt(SERVICES.length)])
                    .set("time", start + i)
                    .set("path", "/api/v1/items/" + random.nextInt(100_000))
                    .set("status", random.nextInt(20) == 0 ? 503 : 200)
                    .set("latencyMs", 1 + random.nextInt(900));
            if (second) {
                request.set("region", REGIONS[random.nextInt(REGIONS.length)]);
            }
            return RegistryWire.encode(second ? v2 : v1, request.build());
        };
    }

    @Override
    public void close() {
        registry.close();
    }
}
