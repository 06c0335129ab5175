package dev.rowflow.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.pipeline.cli.Rowflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `rowflow bench --external --format json --jfr --json`, small: Kafka, HBase and each writer in
 * JVMs of their own. Its speeds are not asserted (a shared 2-core box); what is: every writer
 * wrote every event's row once, and for each format rowflow read the latency probes were read
 * back and the JFR recording was split by stage.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ExternalBenchIT {
    private static final int EVENTS = 5_000;
    private static final String COMMIT_EVERY_SECOND = "kafka.commit.interval.ms=1000";

    @Test
    void shouldMeasureEachWriterInItsOwnJvmOnTheSameRows() throws Exception {
        // Committing every second: each rowflow run and JFR pass ends at the commit after its last row.
        JsonNode result = bench("--external", "--events", Integer.toString(EVENTS), "--rounds", "1", "--format", "json",
                "--variant", "sink.periodic.flush.ms=100", "--set", COMMIT_EVERY_SECOND, "--jfr", "--json");
        assertThat(result.get("settings").get("kafka.commit.interval.ms").asText()).isEqualTo("1000");
        assertThat(names(result.get("medians")))
                .containsExactly("raw", "sink", "kafka-avro", "rowflow-avro", "kafka-json", "rowflow-json",
                        "rowflow-avro sink.periodic.flush.ms=100");
        assertThat(result.get("runs")).hasSize(7);
        for (JsonNode run : result.get("runs")) {
            String writer = run.get("writer").asText();
            assertThat(run.get("rows").asLong()).as(writer).isEqualTo(2L * EVENTS);
            // Counted in the writer's data table: every event's row, none twice.
            assertThat(run.get("dataRows").asLong()).as(writer).isEqualTo(EVENTS);
            double cpu = run.get("cpuMicrosPerRow").asDouble();
            assertThat(cpu).as(writer).isPositive();
            // Of it the JIT compiler's, the collector's and the HBase client's threads: at most all of it,
            // give or take a clock tick (10 ms, read a moment apart from the process's total) at each end.
            double ticks = 2 * 10_000.0 / run.get("rows").asLong();
            assertThat(run.get("jitMicrosPerRow").asDouble()).as(writer).isNotNegative();
            assertThat(run.get("gcMicrosPerRow").asDouble()).as(writer).isNotNegative();
            // The HBase client's threads in a 5,000-event run can take less than a clock tick: not negative.
            assertThat(run.get("hbaseClientMicrosPerRow").asDouble()).as(writer).isNotNegative();
            assertThat(run.get("jitMicrosPerRow").asDouble() + run.get("gcMicrosPerRow").asDouble()
                    + run.get("hbaseClientMicrosPerRow").asDouble()).as(writer).isLessThanOrEqualTo(cpu + ticks + 0.3);
            // The second half of a 5,000-event run can take less than a clock tick: not negative.
            assertThat(run.get("secondHalfCpuMicrosPerRow").asDouble()).as(writer).isNotNegative();
            assertThat(run.get("peakRssMb").asLong()).as(writer).isPositive();
            assertThat(run.get("allocatedBytesPerRow").asLong()).as(writer).isPositive();
            // The region server worked for every writer's rows while it ran.
            assertThat(run.get("hbaseMicrosPerRow").asDouble()).as(writer).isPositive();
            // It appended WAL entries for the writer's tables, each holding a region's batch of one or more rows.
            assertThat(run.get("rowsPerWalAppend").asDouble()).as(writer).isBetween(1.0, (double) run.get("rows").asLong());
            // Its collector's and its JIT compiler's shares are parts of it.
            assertThat(run.get("hbaseGcMicrosPerRow").asDouble() + run.get("hbaseJitMicrosPerRow").asDouble())
                    .as(writer).isBetween(0.0, run.get("hbaseMicrosPerRow").asDouble());
            // Durable (committed) no sooner than readable; rowflow's at the commit after its last row, a
            // second apart with --set (the default's 30 s would have it after 30 s).
            assertThat(run.get("durableSeconds").asDouble()).as(writer)
                    .isGreaterThanOrEqualTo(run.get("seconds").asDouble() - 0.1);
            if (writer.startsWith("rowflow-")) {
                assertThat(run.get("durableSeconds").asDouble()).as(writer).isLessThan(run.get("seconds").asDouble() + 20);
            }
            // The writers that read the topic: timed from their launch to their first record, and their whole
            // process's CPU, start-up included, at least what they spent from their first record on.
            if (writer.startsWith("rowflow-") || writer.startsWith("kafka-")) {
                assertThat(run.get("launchSeconds").asDouble()).as(writer).isBetween(0.1, 120.0);
                assertThat(run.get("processCpuSeconds").asDouble()).as(writer)
                        .isGreaterThanOrEqualTo(run.get("cpuSeconds").asDouble() - 0.02);
            } else {
                assertThat(run.get("launchSeconds").asText()).as(writer).isEqualTo("NaN");
            }
        }
        assertThat(names(result.get("ratios")))
                .containsExactly("sink", "kafka-avro", "rowflow-avro", "kafka-json", "rowflow-json",
                        "rowflow-avro sink.periodic.flush.ms=100");
        for (JsonNode ratios : result.get("ratios")) {
            assertThat(ratios.get("rows").asDouble()).isPositive();
            assertThat(ratios.get("cpu").asDouble()).isPositive();
        }

        // Each rowflow writer over the hand-written Kafka client of its format.
        assertThat(names(result.get("peerRatios")))
                .containsExactly("rowflow-avro", "rowflow-json", "rowflow-avro sink.periodic.flush.ms=100");
        for (JsonNode ratios : result.get("peerRatios")) {
            assertThat(ratios.get("rows").asDouble()).isPositive();
            assertThat(ratios.get("processCpu").asDouble()).isPositive();
            assertThat(ratios.get("launch").asDouble()).isPositive();
        }

        // Per format rowflow reads: one latency run per round, and its JFR pass.
        assertThat(names(result.get("latencies"))).containsExactly("rowflow-avro", "rowflow-json");
        for (JsonNode runs : result.get("latencies")) {
            assertThat(runs).as("one latency run per round").hasSize(1);
            JsonNode latency = runs.get(0);
            assertThat(latency.get("probes").asInt()).isPositive();
            assertThat(latency.get("p50Millis").asDouble()).isPositive();
            assertThat(latency.get("p99Millis").asDouble()).isGreaterThanOrEqualTo(latency.get("p50Millis").asDouble());
            assertThat(latency.get("maxMillis").asDouble()).isGreaterThanOrEqualTo(latency.get("p99Millis").asDouble());
            // Offered at 80 % of what rowflow took with the producer running, at most (1 % for the pacing's rounding).
            double sustained = latency.get("sustainedEventsPerSecond").asDouble();
            assertThat(sustained).isPositive();
            assertThat(latency.get("eventsPerSecond").asDouble()).isLessThanOrEqualTo(0.8 * sustained * 1.01);
        }

        assertThat(names(result.get("profiles"))).containsExactly("rowflow-avro", "rowflow-json");
        for (JsonNode profile : result.get("profiles")) {
            assertThat(profile.get("streamThreads").asInt()).isEqualTo(1);
            assertThat(names(profile.get("sharePercent"))).containsExactlyElementsOf(JfrProfile.STAGES);
            double share = 0;
            for (JsonNode stage : profile.get("sharePercent")) {
                share += stage.asDouble();
            }
            assertThat(share).as("the stages split the stream thread's time").isBetween(99.0, 101.0);
            // The pass waits for Kafka Streams' 30 s commit: most of it the stream thread waits in poll.
            assertThat(profile.get("waitingSeconds").get("poll").asDouble()).isPositive();
            assertThat(profile.get("hottestStreamThreadMethods")).isNotEmpty();
        }
    }

    /**
     * `bench --external --scale 1x1,2x1`, small: each shape's instances drained every event once
     * between them (its data table counted), and the ratio is to the first shape.
     */
    @Test
    void shouldMeasureEachShapeOfInstancesAndThreadsOnOneGroup() throws Exception {
        JsonNode result = bench("--external", "--scale", "1x1,2x1", "--events", Integer.toString(EVENTS), "--rounds", "1",
                "--set", COMMIT_EVERY_SECOND, "--json");
        assertThat(result.get("partitions").asInt()).isEqualTo(ScaleBench.PARTITIONS);
        assertThat(names(result.get("medians"))).containsExactly("1x1", "2x1");
        assertThat(result.get("runs")).hasSize(2);
        for (JsonNode run : result.get("runs")) {
            String shape = run.get("shape").asText();
            assertThat(run.get("rows").asLong()).as(shape).isEqualTo(2L * EVENTS);
            assertThat(run.get("dataRows").asLong()).as(shape).isEqualTo(EVENTS);
            assertThat(run.get("cpuMicrosPerRow").asDouble()).as(shape).isPositive();
        }
        assertThat(result.get("ratios").get("1x1").asDouble()).isEqualTo(1.0);
        assertThat(result.get("ratios").get("2x1").asDouble()).isPositive();

        StringWriter err = new StringWriter();
        CommandLine cli = Rowflow.commandLine(new BenchCommand());
        cli.setErr(new PrintWriter(err, true));
        assertThat(cli.execute("bench", "--scale", "1x1")).as("--scale without --external").isEqualTo(2);
        assertThat(cli.execute("bench", "--external", "--scale", "4x4")).as("more threads than partitions").isEqualTo(2);
        assertThat(cli.execute("bench", "--variant", "sink.periodic.flush.ms=100")).as("--variant without --external")
                .isEqualTo(2);
        assertThat(cli.execute("bench", "--external", "--variant", "sink.periodic.flush.ms")).as("no value").isEqualTo(2);
        assertThat(cli.execute("bench", "--set", COMMIT_EVERY_SECOND)).as("--set without --external").isEqualTo(2);
        assertThat(cli.execute("bench", "--external", "--set", "kafka.commit.interval.ms")).as("no value").isEqualTo(2);
        assertThat(err.toString()).contains("--scale needs --external")
                .contains("'4x4' has more stream threads than the 12 partitions")
                .contains("--variant needs --external")
                .contains("--variant: 'sink.periodic.flush.ms' is not KEY=VALUE")
                .contains("--set needs --external")
                .contains("--set: 'kafka.commit.interval.ms' is not KEY=VALUE");
    }

    /** {@code rowflow bench ARGS} in-process; its exit code must be 0; the JSON on its last line of stdout. */
    private static JsonNode bench(String... args) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Rowflow.commandLine(new BenchCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        List<String> command = new ArrayList<>(List.of("bench"));
        command.addAll(List.of(args));

        int exitCode = cli.execute(command.toArray(String[]::new));

        assertThat(exitCode).as("exit code; stderr:%n%s", err).isZero();
        List<String> lines = out.toString().lines().toList();
        return new ObjectMapper().readTree(lines.get(lines.size() - 1));
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.properties().forEach((Map.Entry<String, JsonNode> entry) -> names.add(entry.getKey()));
        return names;
    }
}
