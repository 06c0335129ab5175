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
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `rowflow bench --json`, small, in-process: every figure docs/performance.md quotes
 * is reported, and the ones that are facts rather than speeds hold (the hotspot shares, the
 * memory run finishing with a resident set).
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class BenchIT {

    @Test
    void shouldReportEveryFigureInOneJsonObject() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Rowflow.commandLine(new BenchCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));

        int exitCode = cli.execute("bench", "--events", "20000", "--naive-rows", "1000", "--queries", "20",
                "--format", "avro,json,avro-registry,protobuf-registry", "--json");

        assertThat(exitCode).as("exit code; stderr:%n%s", err).isZero();
        List<String> lines = out.toString().lines().toList();
        JsonNode result = new ObjectMapper().readTree(lines.get(lines.size() - 1));
        assertThat(result.get("rows").asLong()).isEqualTo(40_000);
        for (String figure : List.of("rawRowsPerSecond", "rowflowRowsPerSecond", "naiveRowsPerSecond", "ratio",
                "ratioToNaive")) {
            assertThat(result.get(figure).asDouble()).as(figure).isPositive();
        }
        assertThat(result.get("naiveRows").asInt()).isEqualTo(1_000);
        assertThat(result.get("raw").get("cpuMicrosPerRow").asDouble()).isPositive();
        assertThat(result.get("rowflow").get("machineBusy").asDouble()).isBetween(0.0, 1.0);
        // The same events as JSON (b') and in the registry wire format (b''), Avro and Protobuf, each beside
        // single-object Avro.
        assertThat(result.get("formats").properties()).extracting(java.util.Map.Entry::getKey)
                .containsExactly("json", "avro-registry", "protobuf-registry");
        for (String format : List.of("json", "avro-registry", "protobuf-registry")) {
            assertThat(result.get("formats").get(format).get("rowsPerSecond").asDouble()).as(format).isPositive();
            assertThat(result.get("formats").get(format).get("cpuMicrosPerRow").asDouble()).as(format).isPositive();
            assertThat(result.get("formatToAvro").get(format).asDouble()).as(format).isPositive();
        }

        List<String> kinds = new ArrayList<>();
        for (JsonNode query : result.get("queries")) {
            kinds.add(query.get("kind").asText());
            assertThat(query.get("queries").asInt()).isEqualTo(20);
            assertThat(query.get("p99Ms").asDouble()).isGreaterThanOrEqualTo(query.get("p50Ms").asDouble()).isPositive();
            assertThat(query.get("rowsPerQuery").asDouble()).as(query.get("kind").asText()).isPositive();
        }
        assertThat(kinds).containsExactly("host", "host (all types)", "range", "index", "customer", "order");

        JsonNode hotspot = result.get("hotspot");
        assertThat(hotspot).hasSize(3);
        // 10,000 sequential events after yesterday's split points: all in the last region.
        assertThat(hotspot.get(0).get("name").asText()).isEqualTo("unsalted");
        assertThat(hotspot.get(0).get("largestOverFair").asDouble()).isEqualTo(8.0);
        assertThat(hotspot.get(1).get("name").asText()).isEqualTo("salted");
        assertThat(hotspot.get(1).get("largestOverFair").asDouble()).isBetween(1.0, 1.2);
        assertThat(hotspot.get(1).get("shares")).hasSize(8);

        JsonNode memory = result.get("memory");
        assertThat(memory.get("events").asLong()).isEqualTo(20_000);
        assertThat(memory.get("peakRssMb").asLong()).isPositive();
        assertThat(memory.get("jvmOptions").toString()).contains("-XX:MaxRAMPercentage=50");
        // The pipeline's memory on the same events in the other formats, for the ratio to single-object Avro's.
        for (String format : List.of("json", "avro-registry", "protobuf-registry")) {
            JsonNode formatMemory = result.get("formatMemory").get(format);
            assertThat(formatMemory.get("events").asLong()).as(format).isEqualTo(20_000);
            assertThat(formatMemory.get("peakRssMb").asLong()).as(format).isPositive();
        }
    }

    @Test
    void shouldReportTheSameFiguresOnTheBigtableEmulatorWithoutTheHotspotExperiment() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.rowflow.embedded.EmbeddedBigtable.findEmulator().isPresent(),
                dev.rowflow.embedded.EmbeddedBigtable.HOW_TO_GET_IT);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Rowflow.commandLine(new BenchCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));

        int exitCode = cli.execute("bench", "--store", "bigtable", "--events", "10000", "--naive-rows", "1000",
                "--queries", "20", "--skip-memory", "--json");

        assertThat(exitCode).as("exit code; stderr:%n%s", err).isZero();
        List<String> lines = out.toString().lines().toList();
        JsonNode result = new ObjectMapper().readTree(lines.get(lines.size() - 1));
        assertThat(result.get("store").asText()).isEqualTo("bigtable");
        assertThat(result.get("rows").asLong()).isEqualTo(20_000);
        for (String figure : List.of("rawRowsPerSecond", "rowflowRowsPerSecond", "naiveRowsPerSecond", "ratio",
                "ratioToNaive")) {
            assertThat(result.get(figure).asDouble()).as(figure).isPositive();
        }
        assertThat(result.get("queries")).hasSize(6);
        // Bigtable reports no per-region write counts: the experiment is left out and says so.
        assertThat(result.get("hotspot")).isEmpty();
        assertThat(err.toString()).contains("hotspot experiment: skipped, store bigtable reports no per-region write counts");
    }
}
