package dev.rowflow.benchmarks;

import com.google.protobuf.CodedOutputStream;
import com.sun.net.httpserver.HttpServer;
import dev.rowflow.events.LogEvent;
import dev.rowflow.events.Severity;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.pipeline.registry.RegistryAvroFormat;
import dev.rowflow.pipeline.registry.RegistryProtobufFormat;
import dev.rowflow.pipeline.registry.SchemaRegistryClient;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Records per second on one thread through the registry formats' {@code read} -- the wire format's
 * header, the cached schema of its id, the decoder, the record tree -- for the same log events
 * (the bench's {@code LogEvent}s: host, time, type, message, severity, two attributes) as
 * registry Avro ({@code avro}) and as registry Protobuf of the same fields ({@code protobuf}).
 * The schemas come once from a registry stub on loopback; every measured read hits the cache.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class RegistryDecodeBenchmark {
    static final String LOG_EVENT_PROTO = """
            syntax = "proto3";
            package dev.rowflow.events;
            message LogEvent {
              enum Severity { SEVERITY_UNSET = 0; TRACE = 1; DEBUG = 2; INFO = 3; WARN = 4; ERROR = 5; FATAL = 6; }
              string hostname = 1;
              int64 timestamp = 2;
              string eventType = 3;
              string message = 4;
              optional Severity severity = 5;
              map<string, string> attributes = 6;
            }
            """;

    private HttpServer registry;
    private RegistryAvroFormat avro;
    private RegistryProtobufFormat protobuf;
    private byte[][] avroRecords;
    private byte[][] protobufRecords;
    private int next;

    @Setup
    public void setUp() throws IOException {
        registry = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        String avroBody = "{\"schema\":" + quote(LogEvent.getClassSchema().toString()) + "}";
        String protobufBody = "{\"schemaType\":\"PROTOBUF\",\"schema\":" + quote(LOG_EVENT_PROTO) + "}";
        registry.createContext("/", exchange -> {
            try (exchange) {
                byte[] body = (exchange.getRequestURI().getPath().endsWith("/1") ? avroBody : protobufBody)
                        .getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            }
        });
        registry.start();
        List<URI> url = List.of(URI.create("http://127.0.0.1:" + registry.getAddress().getPort()));
        avro = new RegistryAvroFormat(new SchemaRegistryClient(url, Optional.empty(), null, null,
                Duration.ofSeconds(5), Duration.ofSeconds(1)), null, 10);
        protobuf = new RegistryProtobufFormat(new SchemaRegistryClient(url, Optional.empty(), null, null,
                Duration.ofSeconds(5), Duration.ofSeconds(1)), 10);
        SplittableRandom random = new SplittableRandom(42);
        avroRecords = new byte[1024][];
        protobufRecords = new byte[1024][];
        for (int i = 0; i < avroRecords.length; i++) {
            LogEvent event = LogEvent.newBuilder()
                    .setHostname(String.format("web-%03d.eu-west.example.com", random.nextInt(200)))
                    .setTimestamp(Instant.ofEpochMilli(1_795_000_000_000L + i))
                    .setEventType(List.of("http.request", "auth.failure", "db.slow").get(random.nextInt(3)))
                    .setMessage("GET /api/orders/" + random.nextInt(100_000) + " 200 " + random.nextInt(900) + " ms")
                    .setSeverity(i % 10 == 0 ? Severity.WARN : Severity.INFO)
                    .setAttributes(Map.of("pid", Integer.toString(random.nextInt(30_000)), "region", "eu-west-1"))
                    .build();
            avroRecords[i] = avro(1, event);
            protobufRecords[i] = protobuf(2, event);
        }
        // Fetch both schemas now: the measurement is of cached ids only.
        avro.read(avroRecords[0]);
        protobuf.read(protobufRecords[0]);
    }

    @TearDown
    public void tearDown() {
        registry.stop(0);
    }

    @Benchmark
    public ReadRecord avro() {
        return avro.read(avroRecords[next++ & 1023]);
    }

    @Benchmark
    public ReadRecord protobuf() {
        return protobuf.read(protobufRecords[next++ & 1023]);
    }

    private static byte[] avro(int id, LogEvent event) throws IOException {
        ByteArrayOutputStream out = header(id);
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<>(LogEvent.class).write(event, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static byte[] protobuf(int id, LogEvent event) throws IOException {
        ByteArrayOutputStream out = header(id);
        out.write(0); // the message indexes of the first message
        CodedOutputStream message = CodedOutputStream.newInstance(out);
        message.writeString(1, event.getHostname());
        message.writeInt64(2, event.getTimestamp().toEpochMilli());
        message.writeString(3, event.getEventType());
        message.writeString(4, event.getMessage());
        message.writeEnum(5, event.getSeverity().ordinal() + 1);
        for (Map.Entry<String, String> attribute : event.getAttributes().entrySet()) {
            String key = attribute.getKey();
            String value = attribute.getValue();
            message.writeTag(6, com.google.protobuf.WireFormat.WIRETYPE_LENGTH_DELIMITED);
            message.writeUInt32NoTag(CodedOutputStream.computeStringSize(1, key)
                    + CodedOutputStream.computeStringSize(2, value));
            message.writeString(1, key);
            message.writeString(2, value);
        }
        message.flush();
        return out.toByteArray();
    }

    private static ByteArrayOutputStream header(int id) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        out.write(0);
        out.write(id >>> 24);
        out.write(id >>> 16);
        out.write(id >>> 8);
        out.write(id);
        return out;
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }
}
