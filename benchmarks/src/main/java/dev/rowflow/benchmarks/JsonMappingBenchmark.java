package dev.rowflow.benchmarks;

import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.format.JsonFormat;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.mapping.ColumnSpec;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.MappingSpec;
import dev.rowflow.keying.mapping.TimeFormat;
import dev.rowflow.keying.layout.UidResolver;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Filebeat-shaped ECS events (about 600 bytes of JSON each) per second on one thread, the way a
 * declared input handles them: {@code tokens} is Jackson's tokenizer alone over every token,
 * string and number (the floor of any reader built on it); {@code read} parses the bytes into a
 * record tree; {@code rows} parses and makes the data row and the index row of the Filebeat
 * recipe (event time, key, columns with a wildcard); {@code rowsWithFallbacks} the same through
 * the mapping written with fallbacks ({@code host.name | agent.hostname}) and two time formats
 * ({@code epoch-ms, iso8601}). Run with {@code -prof gc} for the bytes allocated per event.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class JsonMappingBenchmark {
    private final JsonFormat format = new JsonFormat();
    private EventMapping mapping;
    private EventMapping fallbackMapping;
    private byte[][] events;
    private int next;

    @Setup
    public void setUp() {
        mapping = mapping("host.name", "@timestamp", "iso8601");
        // The same mapping as a user writes it for a topic of two shapes: every host path with a
        // fallback, the time with a fallback and two formats (the records take the first path and
        // the second format: what the fallbacks cost where they are not needed).
        fallbackMapping = mapping("host.name | agent.hostname", "@timestamp | event.created", "epoch-ms, iso8601");
        SplittableRandom random = new SplittableRandom(42);
        String[] datasets = {"nginx.access", "nginx.error", "system.auth", "system.syslog", "app.log"};
        events = new byte[1024][];
        long time = 1_795_000_000_000L;
        for (int i = 0; i < events.length; i++) {
            String host = String.format("web-%03d.prod.example.com", random.nextInt(200));
            int d = random.nextInt(datasets.length);
            events[i] = ("{\"@timestamp\":\"" + Instant.ofEpochMilli(time + i) + "\",\"agent\":{\"type\":\"filebeat\","
                    + "\"version\":\"8.15.3\",\"hostname\":\"" + host + "\",\"id\":\"" + Long.toHexString(random.nextLong())
                    + "\"},\"ecs\":{\"version\":\"8.11.0\"},\"host\":{\"name\":\"" + host + "\",\"os\":{\"family\":"
                    + "\"debian\",\"kernel\":\"6.1.0-26-amd64\"},\"architecture\":\"x86_64\"},\"event\":{\"dataset\":\""
                    + datasets[d] + "\",\"module\":\"" + datasets[d].substring(0, datasets[d].indexOf('.')) + "\"},"
                    + (i % 10 == 0 ? "\"log.level\":\"warn\",\"log\":{" : "\"log\":{\"level\":\"info\",")
                    + "\"file\":{\"path\":\"/var/log/" + datasets[d] + ".log\"},\"offset\":" + random.nextInt(1 << 30)
                    + "},\"input\":{\"type\":\"filestream\"},\"tags\":[\"prod\",\"eu-west-1\"],\"http\":{\"response\":"
                    + "{\"status_code\":200}},\"message\":\"10.0." + random.nextInt(256) + "." + random.nextInt(256)
                    + " - - \\\"GET /api/orders/" + random.nextInt(100_000) + " HTTP/1.1\\\" 200 " + random.nextInt(50_000)
                    + "\"}").getBytes(StandardCharsets.UTF_8);
        }
    }

    /** The Filebeat recipe's mapping with the host path, the time path and the time format given. */
    private static EventMapping mapping(String host, String time, String timeFormat) {
        return EventMapping.compile(new MappingSpec(TableRole.of("bench.data"), "d",
                        "bucket(16) | " + time + ":ts, " + host + ":text, log.file.path:md5, log.offset:long",
                        ColumnSpec.parseList("message=m, " + host + "=h, event.dataset=e, log.level=l, log.file.path=f, "
                                + "log.offset=o, *=x.*"),
                        time, TimeFormat.parse(timeFormat, ZoneOffset.UTC), false, 0,
                        List.of(new MappingSpec.IndexSpec("host", TableRole.of("bench.index.host"),
                                host + ":text, event.dataset:text, " + time + ":rts, log.file.path:md5, log.offset:long")),
                        null, 1 << 20),
                (UidResolver) null, path -> Optional.empty());
    }

    /** The average size of the events, printed once so docs/performance.md can say what was measured. */
    public int averageBytes() {
        long total = 0;
        for (byte[] event : events) {
            total += event.length;
        }
        return (int) (total / events.length);
    }

    /**
     * The floor of any reader built on Jackson: every token of the event, every string's
     * characters and every number's value, nothing kept.
     */
    @Benchmark
    public long tokens() throws java.io.IOException {
        long sum = 0;
        try (com.fasterxml.jackson.core.JsonParser parser = JACKSON.createParser(events[next++ & 1023])) {
            for (com.fasterxml.jackson.core.JsonToken token = parser.nextToken(); token != null;
                 token = parser.nextToken()) {
                if (token == com.fasterxml.jackson.core.JsonToken.VALUE_STRING) {
                    sum += parser.getTextLength();
                } else if (token == com.fasterxml.jackson.core.JsonToken.VALUE_NUMBER_INT) {
                    sum += parser.getLongValue();
                }
            }
        }
        return sum;
    }

    private static final com.fasterxml.jackson.core.JsonFactory JACKSON = new com.fasterxml.jackson.core.JsonFactory();

    @Benchmark
    public Map<String, Object> read() {
        return format.read(events[next++ & 1023]).tree();
    }

    @Benchmark
    public List<Row> rows() {
        ReadRecord record = format.read(events[next++ & 1023]);
        long time = mapping.eventTime(record.tree(), 0);
        return mapping.rowsOf(record.tree(), record.canonical(), time);
    }

    /** {@code rows} through the mapping with fallbacks and two time formats. */
    @Benchmark
    public List<Row> rowsWithFallbacks() {
        ReadRecord record = format.read(events[next++ & 1023]);
        long time = fallbackMapping.eventTime(record.tree(), 0);
        return fallbackMapping.rowsOf(record.tree(), record.canonical(), time);
    }
}
