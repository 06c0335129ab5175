package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.Row;
import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.DebeziumRecords;
import dev.rowflow.pipeline.runtime.OrderChangeHistory;
import dev.rowflow.pipeline.runtime.ShipperShapes;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One declaration for a whole database ({@code topic.pattern}, {@code table=${table}},
 * {@code key=$key.*}) on the production topology: each topic it matches makes the rows an input
 * declared for that topic alone makes, byte for byte, in a table of its own; topics another input
 * reads are left to it; a record whose key makes no layout is set aside with the reason.
 */
class PatternInputTopologyTest {
    private static final String COLUMNS = "customer_id=c, total=t, status=s, note=n, *=x.*";

    @Test
    void shouldWriteEachTopicAsAnInputOfThatTopicAloneWould() throws Exception {
        OrderChangeHistory history = new OrderChangeHistory(7, ShipperShapes.BASE);
        List<OrderChangeHistory.Event> events = new ArrayList<>(history.events);
        events.addAll(history.replay(30));

        // The recipe's orders input, for its topic alone (without its index: a pattern input makes data rows).
        Map<String, String> declared = recipe();
        declared.remove("input.orders.indexes");
        declared.remove("input.orders.index.customer.key");
        InMemoryRowSink alone = new InMemoryRowSink();
        try (TopologyTestDriver driver = ProductionTopology.driver(new RowflowConfig(declared), alone, Map.of())) {
            pipe(driver, "shop.public.orders", events);
            alone.flush();
        }

        // One input of every topic of the database, its key the record key's fields.
        Map<String, String> pattern = patternInput();
        InMemoryRowSink all = new InMemoryRowSink();
        try (TopologyTestDriver driver = ProductionTopology.driver(new RowflowConfig(pattern), all, Map.of())) {
            pipe(driver, "shop.public.orders", events);
            pipe(driver, "shop.public.archived_orders", events.subList(0, 20));
            all.flush();
        }

        Map<String, List<String>> byTable = lines(all.flushed());
        assertThat(byTable).containsOnlyKeys("shop@shop.public.orders.data", "shop@shop.public.archived_orders.data");
        assertThat(byTable.get("shop@shop.public.orders.data")).isEqualTo(lines(alone.flushed()).get("orders.data"))
                .hasSizeGreaterThan(40);
        assertThat(byTable.get("shop@shop.public.archived_orders.data")).isNotEmpty();
    }

    @Test
    void shouldLeaveTheTopicsOfOtherInputsToThemAndSetAsideARecordWithoutAKey() throws Exception {
        Map<String, String> props = patternInput();
        // The orders table declared on its own (with its index): the pattern leaves its topic to it.
        props.putAll(recipe());
        props.put("inputs", "orders,shop");
        OrderChangeHistory history = new OrderChangeHistory(3, ShipperShapes.BASE);
        InMemoryRowSink sink = new InMemoryRowSink();
        try (TopologyTestDriver driver = ProductionTopology.driver(new RowflowConfig(props), sink, Map.of())) {
            pipe(driver, "shop.public.orders", history.events.subList(0, 5));
            pipe(driver, "shop.public.payments", history.events.subList(0, 5));
            TestInputTopic<byte[], byte[]> keyless = driver.createInputTopic("shop.public.audit",
                    new ByteArraySerializer(), new ByteArraySerializer());
            keyless.pipeInput(null, DebeziumRecords.postgresChange(history.events.get(0), 0, true)
                    .getBytes(StandardCharsets.UTF_8), ShipperShapes.BASE);
            TestOutputTopic<byte[], byte[]> deadLetters = driver.createOutputTopic("shop.dead-letter",
                    new ByteArrayDeserializer(), new ByteArrayDeserializer());
            List<TestRecord<byte[], byte[]>> set = deadLetters.readRecordsToList();
            assertThat(set).hasSize(1);
            assertThat(new String(set.get(0).headers().lastHeader("rowflow.refusal").value(), StandardCharsets.UTF_8))
                    .isEqualTo("MISSING");
            assertThat(new String(set.get(0).headers().lastHeader("__streams.errors.message").value(),
                    StandardCharsets.UTF_8)).contains("$key").contains("no primary key");
            sink.flush();
        }
        Map<String, List<String>> byTable = lines(sink.flushed());
        assertThat(byTable).containsOnlyKeys("orders.data", "orders.index.customer", "shop@shop.public.payments.data");
    }

    private static Map<String, String> recipe() throws java.io.IOException {
        Map<String, String> props = new HashMap<>(ConfigSources.load(
                Path.of("..", "deploy", "recipes", "debezium.properties"), Map.of()));
        props.put("input.orders.types", "total:decimal(10,2), created_at:timestamp-micros");
        return props;
    }

    private static Map<String, String> patternInput() {
        Map<String, String> props = new HashMap<>(Map.of("kafka.bootstrap.servers", "unused:9092", "pipelines", "",
                "inputs", "shop"));
        props.put("input.shop.topic.pattern", "shop\\.public\\.(?<table>.+)");
        props.put("input.shop.table", "${table}");
        props.put("input.shop.envelope", "debezium");
        props.put("input.shop.time", "$source.ts_ms");
        props.put("input.shop.time.format", "epoch-ms");
        props.put("input.shop.key", "$key.*");
        props.put("input.shop.columns", COLUMNS);
        props.put("input.shop.types", "total:decimal(10,2), created_at:timestamp-micros");
        return props;
    }

    private static void pipe(TopologyTestDriver driver, String topic, List<OrderChangeHistory.Event> events) {
        TestInputTopic<byte[], byte[]> input = driver.createInputTopic(topic, new ByteArraySerializer(),
                new ByteArraySerializer());
        for (int n = 0; n < events.size(); n++) {
            OrderChangeHistory.Event event = events.get(n);
            byte[] value = event.op() == null ? null
                    : DebeziumRecords.postgresChange(event, n, true).getBytes(StandardCharsets.UTF_8);
            input.pipeInput(DebeziumRecords.orderKey(event.id()).getBytes(StandardCharsets.UTF_8), value,
                    ShipperShapes.BASE);
        }
    }

    /** The rows flushed, each as one line of its bytes, by the role of their table. */
    private static Map<String, List<String>> lines(List<Row> rows) {
        Map<String, List<String>> byTable = new TreeMap<>();
        for (Row row : rows) {
            StringBuilder line = new StringBuilder(KeyBytes.toStringBinary(row.key()) + "@" + row.timestamp());
            row.cells().forEach(cell -> line.append(' ').append(new String(cell.qualifier(), StandardCharsets.UTF_8))
                    .append('=').append(KeyBytes.toStringBinary(cell.value())));
            byTable.computeIfAbsent(row.table().name(), table -> new ArrayList<>()).add(line.toString());
        }
        return byTable;
    }
}
