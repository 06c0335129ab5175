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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenTelemetry Collector recipe ({@code deploy/recipes/otel-collector.properties}, only its
 * addresses, topic and format changed) on the real broker and HBase, over export requests as the
 * Collector's Kafka exporter writes them (no key, the request's bytes as the value) in each
 * encoding: every log record a row, its index rows where it has a service or a trace, the record
 * without a time and a record that is no export request set aside; run again from the start (a
 * replay), the tables stay as they were.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class OtelCollectorIT {
    private static final int REQUESTS = 40;
    private static EmbeddedStack stack;

    @BeforeAll
    static void shareStack(EmbeddedStack shared) {
        stack = shared;
    }

    @ParameterizedTest
    @ValueSource(strings = {"otlp-proto", "otlp-json"})
    void shouldWriteEveryLogRecordOfEveryExportRequestOnceAcrossAReplay(String format) throws Exception {
        String topic = "otlp_logs_" + format.substring(5);
        String table = "otel_logs_" + format.substring(5);
        Map<String, String> props = new HashMap<>(ConfigSources.load(
                Path.of("..", "deploy", "recipes", "otel-collector.properties"), Map.of()));
        props.keySet().removeIf(key -> key.startsWith("hbase.zookeeper"));
        props.putAll(stack.rowflowProperties());
        props.put("input.otel.topic", topic);
        props.put("input.otel.format", format);
        props.put("input.otel.table", table);
        props.put("kafka.commit.interval.ms", "500");
        byte[] request = format.equals("otlp-proto") ? CollectorLogs.proto() : CollectorLogs.json();
        RowflowConfig config = new RowflowConfig(props);
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, topic, java.util.Optional.of(2), Duration.ofSeconds(30));
        }
        try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), topic)) {
            for (int i = 0; i < REQUESTS; i++) {
                producer.send(null, CollectorLogs.T / 1_000_000, request);
            }
            producer.send(null, CollectorLogs.T / 1_000_000, "{\"resourceLogs\":".getBytes(StandardCharsets.UTF_8));
            producer.flush();
        }

        run(props, "otel-" + format);
        int good = CollectorLogs.RECORDS - 1;
        Map<ByteBuffer, Result> rows = TableRows.scan(stack.connection("hbase"), table);
        assertThat(rows).hasSize(REQUESTS * good);
        assertThat(TableRows.scan(stack.connection("hbase"), table + "_service")).hasSize(REQUESTS * 3);
        assertThat(TableRows.scan(stack.connection("hbase"), table + "_trace")).hasSize(REQUESTS * 2);
        long placed = rows.values().stream().filter(row -> "order placed".equals(cell(row, "m"))).peek(row -> {
            assertThat(cell(row, "svc")).isEqualTo("checkout");
            assertThat(cell(row, "t")).isEqualTo(CollectorLogs.TRACE);
            assertThat(cell(row, "x.attributes.http.request.method")).isEqualTo("POST");
            assertThat(row.rawCells()[0].getTimestamp()).isEqualTo(CollectorLogs.T / 1_000_000);
        }).count();
        assertThat(placed).isEqualTo(REQUESTS);
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            // Each request's record without a time, and the record that is no request.
            assertThat(Offsets.written(admin, topic + ".dead-letter")).isEqualTo(REQUESTS + 1);
        }

        // A replay from the start (another application): the same keys, the same rows.
        run(props, "otel-" + format + "-replay");
        assertThat(TableRows.scan(stack.connection("hbase"), table)).hasSize(REQUESTS * good);
    }

    private static String cell(Result row, String qualifier) {
        byte[] value = row.getValue(Bytes.toBytes("d"), Bytes.toBytes(qualifier));
        return value == null ? null : Bytes.toString(value);
    }

    /** Runs the pipeline as application {@code group} until it has committed every record of its topic. */
    private static void run(Map<String, String> props, String group) throws Exception {
        Map<String, String> run = new HashMap<>(props);
        run.put(RowflowConfig.APPLICATION_ID_CONFIG, group);
        RowflowConfig config = new RowflowConfig(run);
        String topic = run.get("input.otel.topic");
        try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry());
             Admin admin = Admin.create(config.kafkaProperties())) {
            Offsets.awaitCommitted(admin, group, List.of(topic), -1, Duration.ofSeconds(120),
                    committed -> assertThat(pipeline.state()).isNotEqualTo(
                            org.apache.kafka.streams.KafkaStreams.State.ERROR));
            assertThat(Offsets.uncommitted(admin, group, topic)).isZero();
        }
    }
}
