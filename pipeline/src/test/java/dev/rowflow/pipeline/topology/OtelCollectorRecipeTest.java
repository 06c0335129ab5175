package dev.rowflow.pipeline.topology;

import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.otlp.CollectorLogs;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenTelemetry Collector recipe on the production topology, over an export request as the
 * Collector's Kafka exporter writes it in each encoding: a row per log record (and its index rows
 * where it has a service or a trace), the record without any time set aside alone with its
 * position and reason, the others written; {@code mapping check} says the same of every record.
 */
class OtelCollectorRecipeTest {

    private static Map<String, String> recipe(String format) throws Exception {
        Map<String, String> props = new HashMap<>(ConfigSources.load(
                Path.of("..", "deploy", "recipes", "otel-collector.properties"), Map.of()));
        props.put("input.otel.format", format);
        return props;
    }

    @Test
    void shouldWriteEachLogRecordAndSetAsideTheOneWithoutATime() throws Exception {
        List<String> protoRows = null;
        for (String format : List.of("otlp-proto", "otlp-json")) {
            try (DecisionDifferential both = new DecisionDifferential(new RowflowConfig(recipe(format)), "otlp_logs",
                    "otlp_logs.dead-letter")) {
                byte[] value = format.equals("otlp-proto") ? CollectorLogs.proto() : CollectorLogs.json();
                DecisionDifferential.Outcome[] outcomes = both.send(null, value, CollectorLogs.T / 1_000_000);

                assertThat(outcomes[1]).as(format).isEqualTo(outcomes[0]);
                DecisionDifferential.Outcome pipeline = outcomes[0];
                assertThat(pipeline.deadLetters()).as(format).containsExactly("record " + CollectorLogs.WITHOUT_TIME
                        + " of the Kafka record's: invalid time_unix_nano | observed_time_unix_nano null: is missing: it "
                        + "is the event time (the input may use the Kafka record's timestamp instead)");
                assertThat(pipeline.refusals()).containsExactly("MISSING");
                // 5 data rows; the service index for the 3 records of the checkout service, the trace index for 2.
                List<String> written = pipeline.effects();
                assertThat(written).hasSize(5 + 3 + 2);
                assertThat(written.stream().filter(row -> row.contains("otel.data"))).hasSize(5);
                assertThat(written.stream().filter(row -> row.contains("otel.index.service"))).hasSize(3);
                assertThat(written.stream().filter(row -> row.contains("otel.index.trace"))).hasSize(2);
                assertThat(written).anyMatch(row -> row.contains("d:m=order\\x20placed, d:l=INFO, d:n=9, "
                        + "d:svc=checkout, d:t=" + CollectorLogs.TRACE + ", d:s=" + CollectorLogs.SPAN + ", d:p=0, d:o=0, "
                        + "d:r=1, d:x.resource.host.name=web-1") && row.contains("d:x.attributes.retries=2"));
                // A structured body is its JSON; a record without its own time is written at its observed time.
                assertThat(written).anyMatch(row -> row.contains("d:m=\\x7B\\x22error.type\\x22"))
                        .anyMatch(row -> row.contains("@" + (CollectorLogs.T + 2_000_000) / 1_000_000 + "][d:m=slow"));
                if (protoRows == null) {
                    protoRows = written;
                } else {
                    assertThat(written).as("the JSON encoding's rows as the protobuf one's").isEqualTo(protoRows);
                }
            }
        }
    }

    @Test
    void shouldRefuseAtStartWhatOnlyAFormatOfManyRecordsTakesOrWhatItCannotDo() throws Exception {
        Map<String, String> json = recipe("json");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DecisionDifferential(new RowflowConfig(json),
                        "otlp_logs", "otlp_logs.dead-letter"))
                .isInstanceOf(org.apache.kafka.common.config.ConfigException.class)
                .hasMessageStartingWith("Invalid value " + json.get("input.otel.key") + " for configuration "
                        + "input.otel.key: $ordinal is the number of a row made per array element, or of a record "
                        + "among those its Kafka record holds (formats otlp-proto, otlp-json); a Kafka record of "
                        + "format json holds one");
        Map<String, String> summary = recipe("otlp-proto");
        summary.put("input.otel.summary.key", "resource.service.name:text, time_unix_nano | observed_time_unix_nano:ts");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DecisionDifferential(new RowflowConfig(summary),
                        "otlp_logs", "otlp_logs.dead-letter"))
                .isInstanceOf(org.apache.kafka.common.config.ConfigException.class)
                .hasMessageEndingWith("input.otel.summary.key: a summary counts each Kafka record once, by its "
                        + "offset, and a record of format otlp-proto holds many: count them elsewhere");
    }
}
