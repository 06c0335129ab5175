package dev.rowflow.pipeline.topology;

import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.DebeziumRecords;
import dev.rowflow.pipeline.runtime.OrderChangeHistory;
import dev.rowflow.pipeline.runtime.ShipperShapes;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mapping check} says of every sample record what the pipeline does with it: the shippers'
 * topics (every shape and bad record of {@link ShipperShapes}) through their recipes in
 * {@code deploy/recipes}, an orders table's change events through the Debezium recipe (both
 * connectors' shapes, deletes, tombstones, re-inserts, a replay), and the ugly records of
 * {@link MixedTopic} through two inputs sharing a topic. Generated records: {@link DecisionProperties}.
 */
class DecisionDifferentialTest {

    @Test
    void shouldSayOfEveryShipperRecordWhatTheRecipesPipelineDoes() throws Exception {
        for (ShipperShapes.Shipper shipper : List.of(ShipperShapes.filebeat(), ShipperShapes.logstash(),
                ShipperShapes.fluentBit(), ShipperShapes.vector())) {
            Map<String, String> props = new HashMap<>(ConfigSources.load(
                    Path.of("..", "deploy", "recipes", shipper.recipe() + ".properties"), Map.of()));
            String input = props.get("inputs").split(",")[0].strip();
            String topic = props.get("input." + input + ".topic");
            int rows = 0;
            int deadLetters = 0;
            try (DecisionDifferential both = new DecisionDifferential(new RowflowConfig(props), topic,
                    topic + ".dead-letter")) {
                List<String> records = new ArrayList<>();
                for (int i = 0; i < ShipperShapes.EVENTS; i++) {
                    records.add(shipper.json().apply(i));
                }
                records.addAll(shipper.bad().keySet());
                for (int i = 0; i < records.size(); i++) {
                    DecisionDifferential.Outcome[] outcomes = both.send(null,
                            records.get(i).getBytes(StandardCharsets.UTF_8), shipper.time().apply(i % 600));
                    assertThat(outcomes[1]).as("%s record %d: %s", shipper.recipe(), i, records.get(i))
                            .isEqualTo(outcomes[0]);
                    rows += outcomes[0].effects().isEmpty() ? 0 : 1;
                    deadLetters += outcomes[0].deadLetter() == null ? 0 : 1;
                }
            }
            // The recipes write every good record and set aside exactly the bad ones.
            assertThat(rows).as(shipper.recipe() + " records written").isEqualTo(ShipperShapes.EVENTS);
            assertThat(deadLetters).as(shipper.recipe() + " dead letters").isEqualTo(shipper.bad().size());
        }
    }

    @Test
    void shouldSayOfEveryChangeEventWhatTheDebeziumRecipesPipelineDoes() throws Exception {
        // An orders table's history as Debezium's PostgreSQL and MySQL connectors write it: a snapshot, creates,
        // updates, deletes with their tombstones, re-inserts; replayed in part; and a change no decimal reads.
        for (String beforeImage : List.of("partial", "full")) {
            Map<String, String> props = new HashMap<>(ConfigSources.load(
                    Path.of("..", "deploy", "recipes", "debezium.properties"), Map.of()));
            props.put("input.orders.before.image", beforeImage);
            String topic = props.get("input.orders.topic");
            OrderChangeHistory history = new OrderChangeHistory(7, ShipperShapes.BASE);
            List<OrderChangeHistory.Event> events = new ArrayList<>(history.events);
            events.addAll(history.replay(150));
            int changes = 0;
            int tombstones = 0;
            try (DecisionDifferential both = new DecisionDifferential(new RowflowConfig(props), topic,
                    topic + ".dead-letter")) {
                for (int n = 0; n < events.size(); n++) {
                    OrderChangeHistory.Event event = events.get(n);
                    byte[] value = event.op() == null ? null : DebeziumRecords.orderChange(event, n)
                            .getBytes(StandardCharsets.UTF_8);
                    DecisionDifferential.Outcome[] outcomes = both.send(DebeziumRecords.orderKey(event.id())
                            .getBytes(StandardCharsets.UTF_8), value, ShipperShapes.BASE);
                    assertThat(outcomes[1]).as("change %d (%s), before images %s", n, event, beforeImage)
                            .isEqualTo(outcomes[0]);
                    assertThat(outcomes[0].deadLetter()).as("change %d", n).isNull();
                    changes += value == null ? 0 : 1;
                    tombstones += value == null ? 1 : 0;
                }
                String broken = DebeziumRecords.orderChange(new OrderChangeHistory.Event(999, "c", null,
                        new OrderChangeHistory.Row(1, 100, "new", null, ShipperShapes.BASE)), 0)
                        .replaceAll("\"total\":\"[^\"]*\"", "\"total\":\"%%%\"");
                DecisionDifferential.Outcome[] outcomes = both.send(DebeziumRecords.orderKey(999)
                        .getBytes(StandardCharsets.UTF_8), broken.getBytes(StandardCharsets.UTF_8), ShipperShapes.BASE);
                assertThat(outcomes[1]).isEqualTo(outcomes[0]);
                assertThat(outcomes[0].refusal()).isEqualTo("WRONG_KIND");
                assertThat(both.report().good()).isEqualTo(changes + tombstones);
            }
            assertThat(changes).isGreaterThan(500);
            assertThat(tombstones).isGreaterThan(50);
        }
    }

    @Test
    void shouldSayOfEveryChangeOfATopicOfAPatternWhatItsPipelineDoes() throws Exception {
        // One input of every table of the database; the orders table's topic is one of them.
        Map<String, String> props = new HashMap<>(Map.of("kafka.bootstrap.servers", "unused:9092", "pipelines", "",
                "inputs", "shop", "input.shop.topic.pattern", "shop\\.public\\.(?<table>.+)",
                "input.shop.table", "${table}", "input.shop.envelope", "debezium", "input.shop.time", "$source.ts_ms",
                "input.shop.time.format", "epoch-ms", "input.shop.key", "bucket(4) | $key.*"));
        OrderChangeHistory history = new OrderChangeHistory(5, ShipperShapes.BASE);
        List<OrderChangeHistory.Event> events = new ArrayList<>(history.events);
        events.addAll(history.replay(60));
        int writes = 0;
        try (DecisionDifferential both = new DecisionDifferential(new RowflowConfig(props), "shop.public.orders",
                "shop.dead-letter")) {
            for (int n = 0; n < events.size(); n++) {
                OrderChangeHistory.Event event = events.get(n);
                byte[] value = event.op() == null ? null : DebeziumRecords.orderChange(event, n)
                        .getBytes(StandardCharsets.UTF_8);
                DecisionDifferential.Outcome[] outcomes = both.send(DebeziumRecords.orderKey(event.id())
                        .getBytes(StandardCharsets.UTF_8), value, ShipperShapes.BASE);
                assertThat(outcomes[1]).as("change %d (%s)", n, event).isEqualTo(outcomes[0]);
                writes += outcomes[0].effects().stream().anyMatch(effect -> effect.contains("shop@shop.public.orders"))
                        ? 1 : 0;
            }
            // Without the schema the decimal is the connector's base64 (no types declared): a cell, not a refusal.
            assertThat(both.report().good()).isEqualTo(events.size());
        }
        assertThat(writes).isGreaterThan(events.size() / 2);
    }

    @Test
    void shouldSayOfEveryUglyRecordWhatThePipelineDoes() {
        try (DecisionDifferential both = MixedTopic.open()) {
            int i = 0;
            for (MixedTopic.Sample sample : MixedTopic.samples()) {
                DecisionDifferential.Outcome[] outcomes = both.send(sample.key(), sample.value(), MixedTopic.T);
                assertThat(outcomes[1]).as("sample %d: %s", i++, sample).isEqualTo(outcomes[0]);
                assertThat(outcomes[0].refusal()).as("refusal of %s, pipeline did %s", sample, outcomes[0])
                        .isEqualTo(sample.refusal() == null ? null : sample.refusal().name());
            }
        }
    }
}
