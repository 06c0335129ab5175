package dev.rowflow.pipeline.topology;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.keying.log.LogMapping;
import dev.rowflow.keying.log.LogSummary;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.pipeline.runtime.StreamsProperties;
import dev.rowflow.pipeline.serde.EventSerdes;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The log pipeline's production topology (the LogMapping preset as an input), with the production Streams properties, on TopologyTestDriver. */
class LogEventTopologyTest {
    private final InMemoryRowSink sink = new InMemoryRowSink();
    private final LogEventRows rows = new LogEventRows(
            RowKeyLayout.parse("bucket(4) | timestamp:ts, hostname:text, eventType:text", null),
            RowKeyLayout.parse(LogEventRows.DEFAULT_INDEX_LAYOUT, null));
    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> logs;
    private TestOutputTopic<byte[], byte[]> deadLetters;

    @BeforeEach
    void build() {
        RowflowConfig config = new RowflowConfig(Map.of("kafka.bootstrap.servers", "unused:9092",
                RowflowConfig.LOG_DATA_LAYOUT_CONFIG, "bucket(4) | timestamp:ts, hostname:text, eventType:text",
                RowflowConfig.TIMESTAMP_MAX_FUTURE_MS_CONFIG, Long.toString(Long.MAX_VALUE)));
        driver = ProductionTopology.driver(config, sink, Map.of());
        logs = driver.createInputTopic("logs", new ByteArraySerializer(), new ByteArraySerializer());
        deadLetters = driver.createOutputTopic("logs.dead-letter", new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void shouldWriteADataRowAndAnIndexRowPerEvent() {
        LogEventGenerator generator = new LogEventGenerator(5, 10, 1_700_000_000_000L);
        List<LogEvent> events = List.of(generator.next(), generator.next(), generator.next());

        events.forEach(e -> logs.pipeInput(EventSerdes.logEvents().serializer().serialize("logs", e)));

        List<Row> written = written();
        assertThat(written).hasSize(6);
        assertThat(written).filteredOn(r -> r.table() == TableRole.LOG_DATA).hasSize(3);
        assertThat(written).containsExactlyElementsOf(events.stream().flatMap(e -> rows.rowsOf(e).stream()).toList());
        assertThat(deadLetters.isEmpty()).isTrue();
        // Each event counted once in its summary row, with its offset for idempotence.
        assertThat(sink.counted()).containsExactly(
                new LogSummary().counterOf(events.get(0)) + " logs-0@0",
                new LogSummary().counterOf(events.get(1)) + " logs-0@1",
                new LogSummary().counterOf(events.get(2)) + " logs-0@2");
    }

    @Test
    void shouldSendRecordsThatCannotBeReadOrKeyedToTheDeadLetterTopicUnchanged() {
        LogEventGenerator generator = new LogEventGenerator(5, 10, 1_700_000_000_000L);
        LogEvent noHost = LogEvent.newBuilder(generator.next()).setHostname("").build();
        byte[] noHostBytes = EventSerdes.logEvents().serializer().serialize("logs", noHost);
        byte[] garbage = "garbage".getBytes(StandardCharsets.UTF_8);

        logs.pipeInput(garbage);
        logs.pipeInput(noHostBytes);
        logs.pipeInput((byte[]) null);
        logs.pipeInput(EventSerdes.logEvents().serializer().serialize("logs", generator.next()));

        List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
        assertThat(dead).hasSize(3);
        assertThat(dead.get(0).value()).isEqualTo(garbage);
        assertThat(header(dead.get(0), "__streams.errors.exception")).isEqualTo(SerializationException.class.getName());
        assertThat(dead.get(1).value()).isEqualTo(noHostBytes);
        assertThat(header(dead.get(1), "__streams.errors.exception")).isEqualTo(InvalidEventException.class.getName());
        assertThat(header(dead.get(1), "__streams.errors.message")).isEqualTo("invalid hostname '': must not be empty");
        assertThat(header(dead.get(1), "__streams.errors.offset")).isEqualTo("1");
        assertThat(dead.get(2).value()).isNull();
        assertThat(header(dead.get(2), "__streams.errors.message")).contains("no tombstones");
        assertThat(written()).hasSize(2);
    }

    @Test
    void shouldRejectOrClampEventTimesFarAheadOfTheirRecordAsConfigured() {
        LogEventGenerator generator = new LogEventGenerator(5, 10, 1_700_000_000_000L);
        LogEvent farAhead = LogEvent.newBuilder(generator.next())
                .setTimestamp(java.time.Instant.ofEpochMilli(1_700_000_000_000L + 2 * 86_400_000L)).build();
        byte[] bytes = EventSerdes.logEvents().serializer().serialize("logs", farAhead);
        for (String policy : List.of("reject", "clamp")) {
            driver.close();
            sink.buffered().clear();
            RowflowConfig config = new RowflowConfig(Map.of("kafka.bootstrap.servers", "unused:9092",
                    RowflowConfig.TIMESTAMP_POLICY_CONFIG, policy, RowflowConfig.LOG_SUMMARY_ENABLED_CONFIG, "false",
                    RowflowConfig.LOG_DATA_LAYOUT_CONFIG, "bucket(4) | timestamp:ts, hostname:text, eventType:text"));
            driver = ProductionTopology.driver(config, sink, Map.of());
            logs = driver.createInputTopic("logs", new ByteArraySerializer(), new ByteArraySerializer());
            deadLetters = driver.createOutputTopic("logs.dead-letter", new ByteArrayDeserializer(),
                    new ByteArrayDeserializer());

            logs.pipeInput(null, bytes, 1_700_000_000_000L);

            if (policy.equals("reject")) {
                assertThat(written()).isEmpty();
                assertThat(header(deadLetters.readRecord(), "__streams.errors.message"))
                        .contains("is 172800000 ms ahead of the record's timestamp 1700000000000");
            } else {
                LogEvent clamped = LogEvent.newBuilder(farAhead)
                        .setTimestamp(java.time.Instant.ofEpochMilli(1_700_000_000_000L)).build();
                assertThat(written()).containsExactlyElementsOf(rows.rowsOf(clamped));
                assertThat(deadLetters.isEmpty()).isTrue();
            }
        }
    }

    private List<Row> written() {
        List<Row> all = new java.util.ArrayList<>(sink.flushed());
        all.addAll(sink.buffered());
        return all;
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
