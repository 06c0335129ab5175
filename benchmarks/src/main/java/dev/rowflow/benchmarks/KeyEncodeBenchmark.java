package dev.rowflow.benchmarks;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.layout.RowKeyLayout;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Instant;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Row keys per second on one thread, for layouts of the seeds, encoding real {@link LogEvent}s the
 * way the pipeline does ({@link RowKeyLayout#encode(org.apache.avro.generic.GenericRecord)}). Run
 * with {@code -prof gc}: {@code gc.alloc.rate.norm} is the bytes allocated per key, which should be
 * the key array alone.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class KeyEncodeBenchmark {

    /** Layouts by name: JMH's -p splits values on commas, and specs have commas. */
    private static final Map<String, String> LAYOUTS = Map.of(
            "saltedHostLed", "bucket(16,hash=hostname) | hostname:text, eventType:text, timestamp:rts",
            "bucketedTimeLed", "bucket(16) | timestamp:ts, hostname:text, eventType:text",
            "hashed", "hostname:md5, eventType:md5, timestamp:ts",
            "seedHexSalt", "hex(4) | timestamp:dec");

    @Param({"saltedHostLed", "bucketedTimeLed", "hashed", "seedHexSalt"})
    public String layout;

    private RowKeyLayout keys;
    private LogEvent[] events;
    private int next;

    @Setup
    public void setUp() {
        keys = RowKeyLayout.parse(LAYOUTS.get(layout), null);
        SplittableRandom random = new SplittableRandom(42);
        String[] types = {"http.request", "http.error", "auth.login", "auth.failure", "gc.pause", "disk.usage"};
        events = new LogEvent[1024];
        for (int i = 0; i < events.length; i++) {
            events[i] = LogEvent.newBuilder()
                    .setHostname(String.format("web-%03d.eu-west-1.example.com", random.nextInt(200)))
                    .setEventType(types[random.nextInt(types.length)])
                    .setTimestamp(Instant.ofEpochMilli(1_700_000_000_000L + i))
                    .setMessage("GET /api/orders 200 12ms")
                    .build();
        }
    }

    @Benchmark
    public byte[] encode() {
        return keys.encode(events[next++ & (events.length - 1)]);
    }
}
