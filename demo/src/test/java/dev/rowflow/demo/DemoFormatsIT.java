package dev.rowflow.demo;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `rowflow demo` on the other formats and the second store, in-process: records of two schema
 * versions through a Schema Registry the demo starts (Avro, Protobuf), and the Bigtable emulator.
 * A class of its own so that it runs beside {@link DemoIT}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DemoFormatsIT {

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"avro-registry", "protobuf-registry"})
    void shouldIngestRecordsOfTwoSchemaVersionsWithTheRegistryItStarts(String format) throws Exception {
        DemoRun run = DemoRun.of("--format", format, "--events", "6000");
        JsonNode summary = run.summary();
        assertThat(summary.get("events").asLong()).isEqualTo(6_000);
        assertThat(summary.get("dataRows").asLong()).isEqualTo(6_000);
        assertThat(summary.get("indexRows").asLong()).isEqualTo(6_000);
        assertThat(summary.get("deadLetters").asLong()).isZero();
        assertThat(summary.get("summaryCount").asLong()).isEqualTo(6_000);
        assertThat(summary.get("mapping").get("input.web.format").asText()).isEqualTo(format);
        boolean avro = format.equals("avro-registry");
        assertThat(run.err()).containsPattern((avro ? "Avro" : "Protobuf") + " web requests .*schema ids \\d+ "
                + "and \\d+ of " + RegistryDemo.SUBJECT);
        // Avro reads through the latest version: version 1 records take version 2's default region. Protobuf
        // reads each record with its own version, and has no defaults: version 1 records have no region.
        assertThat(run.err().contains("  input.web.registry.reader.subject=" + RegistryDemo.SUBJECT)).isEqualTo(avro);
        List<String> regions = new java.util.ArrayList<>();
        for (JsonNode sampled : summary.get("sample")) {
            JsonNode row = sampled.get("columns");
            assertThat(row.get("q").asText()).matches("[0-9a-f-]{36}");
            assertThat(row.get("s").asText()).isIn("200", "503");
            regions.add(row.has("r") ? row.get("r").asText() : "(none)");
        }
        assertThat(regions).isNotEmpty().allSatisfy(r -> assertThat(r).isIn(avro
                ? List.of("eu-west-1", "us-east-1", "ap-south-1") : List.of("(none)", "us-east-1", "ap-south-1")));
    }

    @Test
    void shouldWriteEveryEventToTheBigtableEmulatorWithStoreBigtable() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.rowflow.embedded.EmbeddedBigtable.findEmulator().isPresent(),
                dev.rowflow.embedded.EmbeddedBigtable.HOW_TO_GET_IT);
        DemoRun run = DemoRun.of("--store", "bigtable", "--events", "5000", "--orders", "200");
        JsonNode summary = run.summary();
        assertThat(run.err()).contains("rows go to the Bigtable emulator at 127.0.0.1:");
        assertThat(summary.get("events").asLong()).isEqualTo(5_000);
        assertThat(summary.get("dataRows").asLong()).isEqualTo(5_000);
        assertThat(summary.get("indexRows").asLong()).isEqualTo(5_000);
        assertThat(summary.get("deadLetters").asLong()).isZero();
        assertThat(summary.get("orders").asLong()).isEqualTo(200);
        assertThat(summary.get("orderIndexRows").asLong()).isEqualTo(200);
        // Counted once per event there too, with a count per source instead of HBase's Increment.
        assertThat(summary.get("summaryRows").asLong()).isPositive();
        assertThat(summary.get("summaryCount").asLong()).isEqualTo(5_000);
    }
}
