package dev.rowflow.pipeline.runtime;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.embedded.load.Offsets;
import dev.rowflow.embedded.load.TableRows;
import dev.rowflow.embedded.load.TopicProducer;
import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.otlp.CollectorLogs;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenTelemetry Collector recipe ({@code deploy/recipes/otel-collector.properties}, only its
 * addresses changed; a second input of it reading {@code otlp_json}) on the real broker and HBase,
 * over export requests as the Collector's Kafka exporter writes them (no key, the request's bytes
 * as the value) in each encoding: every log record a row, its index rows where it has a service
 * or a trace, the record without a time and a record that is no export request set aside; run
 * again from the start (a replay), the tables stay as they were.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class OtelCollectorIT {
    private static final int REQUESTS = 40;
    private static final Map<String, String> TABLES = Map.of("otlp-proto", "otel_logs", "otlp-json", "otel_logs_json");
    private static EmbeddedStack stack;

    @BeforeAll
    static void shareStack(EmbeddedStack shared) {
        stack = shared;
    }

    @Test
    void shouldWriteEveryLogRecordOfEveryExportRequestOnceAcrossAReplayInEitherEncoding() throws Exception {
        Map<String, String> props = new HashMap<>(ConfigSources.load(
                Path.of("..", "deploy", "recipes", "otel-collector.properties"), Map.of()));
        props.keySet().removeIf(key -> key.startsWith("hbase.zookeeper"));
        props.putAll(stack.rowflowProperties());
        props.put("kafka.commit.interval.ms", "500");
        // The same recipe over the JSON encoding's topic.
        new HashMap<>(props).forEach((key, value) -> {
            if (key.startsWith("input.otel.")) {
                props.put(key.replace("input.otel.", "input.otel_json."), value);
            }
        });
        props.put("inputs", "otel,otel_json");
        props.put("input.otel_json.topic", "otlp_logs_json");
        props.put("input.otel_json.format", "otlp-json");
        props.put("input.otel_json.table", TABLES.get("otlp-json"));
        props.put("input.otel_json.index.service.table", "otel_logs_json_service");
        props.put("input.otel_json.index.trace.table", "otel_logs_json_trace");
        RowflowConfig config = new RowflowConfig(props);
        List<String> topics = List.of("otlp_logs", "otlp_logs_json");
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            for (String topic : topics) {
                KafkaTopics.createIfAbsent(admin, topic, Optional.of(2), Duration.ofSeconds(30));
                try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), topic)) {
                    byte[] request = topic.endsWith("json") ? CollectorLogs.json() : CollectorLogs.proto();
                    for (int i = 0; i < REQUESTS; i++) {
                        producer.send(null, CollectorLogs.T / 1_000_000, request);
                    }
                    producer.send(null, CollectorLogs.T / 1_000_000, "{\"resourceLogs\":".getBytes(StandardCharsets.UTF_8));
                    producer.flush();
                }
            }
        }

        run(props, "otel", topics);
        assertTables(config, topics, 1);
        // A replay from the start (another application): the same keys, the same rows; set aside again.
        run(props, "otel-replay", topics);
        assertTables(config, topics, 2);
    }

    /** The tables after {@code runs} runs over the topics, and the dead letters of them all. */
    private static void assertTables(RowflowConfig config, List<String> topics, int runs) throws Exception {
        int good = CollectorLogs.RECORDS - 1;
        for (String table : TABLES.values()) {
            Map<ByteBuffer, Result> rows = TableRows.scan(stack.connection("hbase"), table);
            assertThat(rows).as(table).hasSize(REQUESTS * good);
            assertThat(TableRows.scan(stack.connection("hbase"), table + "_service")).hasSize(REQUESTS * 3);
            assertThat(TableRows.scan(stack.connection("hbase"), table + "_trace")).hasSize(REQUESTS * 2);
            long placed = rows.values().stream().filter(row -> "order placed".equals(cell(row, "m"))).peek(row -> {
                assertThat(cell(row, "svc")).isEqualTo("checkout");
                assertThat(cell(row, "t")).isEqualTo(CollectorLogs.TRACE);
                assertThat(cell(row, "x.attributes.http.request.method")).isEqualTo("POST");
                assertThat(row.rawCells()[0].getTimestamp()).isEqualTo(CollectorLogs.T / 1_000_000);
            }).count();
            assertThat(placed).as(table).isEqualTo(REQUESTS);
        }
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            for (String topic : topics) {
                // Each request's record without a time, and the record that is no request: every run.
                assertThat(Offsets.written(admin, topic + ".dead-letter")).as(topic)
                        .isEqualTo((long) runs * (REQUESTS + 1));
            }
        }
    }

    private static String cell(Result row, String qualifier) {
        byte[] value = row.getValue(Bytes.toBytes("d"), Bytes.toBytes(qualifier));
        return value == null ? null : Bytes.toString(value);
    }

    /** Runs the pipeline as application {@code group} until it has committed every record of its topics. */
    private static void run(Map<String, String> props, String group, List<String> topics) throws Exception {
        Map<String, String> run = new HashMap<>(props);
        run.put(RowflowConfig.APPLICATION_ID_CONFIG, group);
        RowflowConfig config = new RowflowConfig(run);
        try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry());
             Admin admin = Admin.create(config.kafkaProperties())) {
            Offsets.awaitCommitted(admin, group, topics, -1, Duration.ofSeconds(120),
                    committed -> assertThat(pipeline.state()).isNotEqualTo(
                            org.apache.kafka.streams.KafkaStreams.State.ERROR));
            for (String topic : topics) {
                assertThat(Offsets.uncommitted(admin, group, topic)).isZero();
            }
        }
    }
}
