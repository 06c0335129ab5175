package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.Row;
import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.DebeziumRecords;
import dev.rowflow.pipeline.runtime.OrderChangeHistory;
import dev.rowflow.pipeline.runtime.ShipperShapes;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same changes through both shapes of Kafka Connect's JsonConverter -- with the schema, and the
 * payload alone with the columns' types declared ({@code input.<name>.types}) -- make byte-identical
 * rows: every table, key, qualifier, value and timestamp.
 */
class ConverterShapesTest {

    @Test
    void shouldWriteTheSameBytesFromEventsWithAndWithoutTheirSchema() throws Exception {
        OrderChangeHistory history = new OrderChangeHistory(11, ShipperShapes.BASE);
        List<OrderChangeHistory.Event> events = new ArrayList<>(history.events);
        events.addAll(history.replay(40));

        List<String> withSchemas = rows(events, true);
        List<String> withoutSchemas = rows(events, false);

        assertThat(withoutSchemas).isEqualTo(withSchemas);
        assertThat(withSchemas).hasSizeGreaterThan(50);
        // The decimal at its scale, the time with all six digits of its unit although its fraction is zero.
        assertThat(withSchemas).anyMatch(row -> row.matches(".* t=\\d+\\.\\d\\d .*"))
                .allMatch(row -> !row.contains(" x.created_at=") || row.contains(".000000Z"));
    }

    /** The rows the recipe's pipeline holds after the changes, each as one line of its bytes. */
    private static List<String> rows(List<OrderChangeHistory.Event> events, boolean schemas) throws Exception {
        Map<String, String> props = new HashMap<>(ConfigSources.load(
                Path.of("..", "deploy", "recipes", "debezium.properties"), Map.of()));
        props.put("input.orders.types", "total:decimal(10,2), created_at:timestamp-micros");
        String topic = props.get("input.orders.topic");
        InMemoryRowSink sink = new InMemoryRowSink();
        try (TopologyTestDriver driver = ProductionTopology.driver(new RowflowConfig(props), sink, Map.of())) {
            TestInputTopic<byte[], byte[]> input = driver.createInputTopic(topic, new ByteArraySerializer(),
                    new ByteArraySerializer());
            for (int n = 0; n < events.size(); n++) {
                OrderChangeHistory.Event event = events.get(n);
                byte[] value = event.op() == null ? null
                        : DebeziumRecords.postgresChange(event, n, schemas).getBytes(StandardCharsets.UTF_8);
                input.pipeInput(DebeziumRecords.orderKey(event.id()).getBytes(StandardCharsets.UTF_8), value,
                        ShipperShapes.BASE);
            }
            sink.flush();
            List<String> rows = new ArrayList<>();
            for (Row row : sink.flushed()) {
                StringBuilder line = new StringBuilder(row.table() + " " + KeyBytes.toStringBinary(row.key()) + "@"
                        + row.timestamp());
                row.cells().forEach(cell -> line.append(' ').append(new String(cell.qualifier(), StandardCharsets.UTF_8))
                        .append('=').append(KeyBytes.toStringBinary(cell.value())));
                rows.add(line.append(' ').toString());
            }
            return rows;
        }
    }
}
