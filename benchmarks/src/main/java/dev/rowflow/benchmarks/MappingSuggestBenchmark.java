package dev.rowflow.benchmarks;

import dev.rowflow.keying.mapping.MappingSuggestion;
import dev.rowflow.keying.mapping.RecordTree;
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
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * {@code rowflow mapping suggest}'s inference over a sample, once per invocation: parse each
 * sampled record, gather its fields, and infer the declaration (time formats, fallbacks, the
 * key's fields, indexes). The records are Filebeat's four shapes in turn (module events, plain
 * lines, ndjson merged flat and nested): the most fields and partial fields of the shippers'
 * topics, so the most fallback pairs to test. Reading the sample from Kafka is not included (the
 * command prints both times).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(1)
public class MappingSuggestBenchmark {
    @Param({"10000"})
    public int records;

    private byte[][] sample;

    @Setup
    public void setUp() {
        long base = Instant.parse("2026-11-22T07:30:00Z").toEpochMilli();
        sample = new byte[records][];
        for (int i = 0; i < records; i++) {
            String host = String.format("web-%02d", i % 7);
            String beat = "\"@timestamp\":\"" + Instant.ofEpochMilli(base + i * 37L) + "\",\"agent\":{\"type\":"
                    + "\"filebeat\",\"version\":\"8.15.0\",\"name\":\"" + host + "\"},\"ecs\":{\"version\":\"8.0.0\"},"
                    + "\"host\":{\"name\":\"" + host + "\",\"os\":{\"family\":\"debian\"}},";
            String file = "\"file\":{\"path\":\"/var/log/app-" + (i % 2) + ".log\",\"inode\":\"1234\",\"device_id\":"
                    + "\"2049\"},\"offset\":" + i * 100L;
            String json = switch (i % 4) {
                case 0 -> "{" + beat + "\"event\":{\"dataset\":\"nginx.access\",\"module\":\"nginx\"},\"fileset\":{"
                        + "\"name\":\"access\"},\"input\":{\"type\":\"log\"},\"log\":{" + file + "},\"message\":\"line "
                        + i + "\",\"tags\":[\"beats\",\"prod\"]}";
                case 1 -> "{" + beat + "\"input\":{\"type\":\"filestream\"},\"log\":{" + file + "},\"message\":\"line "
                        + i + "\"}";
                case 2 -> "{" + beat + "\"input\":{\"type\":\"filestream\"},\"log\":{" + file + "},\"log.level\":"
                        + "\"warn\",\"service.name\":\"shop\",\"trace.id\":\"t" + i + "\",\"message\":\"line " + i + "\"}";
                default -> "{" + beat + "\"input\":{\"type\":\"filestream\"},\"log\":{\"level\":\"error\"," + file
                        + "},\"service\":{\"name\":\"shop\"},\"trace\":{\"id\":\"t" + i + "\"},\"message\":\"line " + i
                        + "\"}";
            };
            sample[i] = json.getBytes(StandardCharsets.UTF_8);
        }
    }

    @Benchmark
    public dev.rowflow.keying.mapping.Suggestion suggest() {
        MappingSuggestion suggestion = new MappingSuggestion();
        for (int i = 0; i < sample.length; i++) {
            suggestion.add(RecordTree.parseJson(sample[i]), "0@" + i);
        }
        return suggestion.suggest("filebeat", "filebeat", 8);
    }
}
