package dev.rowflow.pipeline.config;

import dev.rowflow.pipeline.ingest.PipelinePlan;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One declaration for every topic a regex matches: its tables, what it leaves to other inputs, each mistake by its key. */
class TopicPatternTest {
    /** Input shop over every table topic of a Debezium connector, beside an input of its orders table. */
    private static Map<String, String> shop(String... overrides) {
        Map<String, String> props = new HashMap<>(Map.of(
                "kafka.bootstrap.servers", "b:9092",
                "pipelines", "",
                "inputs", "orders,shop",
                "input.orders.topic", "db.shop.orders",
                "input.orders.envelope", "debezium",
                "input.orders.time", "$source.ts_ms",
                "input.orders.time.format", "epoch-ms",
                "input.orders.key", "id:long"));
        props.putAll(Map.of(
                "input.shop.topic.pattern", "db\\.(?<schema>[a-z]+)\\.(?<table>[a-z_]+)",
                "input.shop.table", "${schema}_${table}",
                "input.shop.envelope", "debezium",
                "input.shop.time", "$source.ts_ms",
                "input.shop.time.format", "epoch-ms",
                "input.shop.key", "bucket(4) | $key.*"));
        for (int i = 0; i < overrides.length; i += 2) {
            if (overrides[i + 1] == null) {
                props.remove(overrides[i]);
            } else {
                props.put(overrides[i], overrides[i + 1]);
            }
        }
        return props;
    }

    private static PipelinePlan plan(Map<String, String> props) {
        return PipelinePlan.build(new RowflowConfig(props), null);
    }

    private static void refused(Map<String, String> props, String key, String message) {
        assertThatThrownBy(() -> plan(props)).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Invalid value ").hasMessageContaining(" for configuration " + key + ": ")
                .hasMessageEndingWith(message);
    }

    @Test
    void shouldNameEachTopicsTableByTheTemplateAndLeaveOtherInputsTopicsToThem() {
        PipelinePlan plan = plan(shop());
        InputConfig shop = plan.config().inputs().get(1);
        TopicPattern topics = shop.topicPattern().orElseThrow();

        assertThat(topics.table("db.shop.order_lines")).isEqualTo("shop_order_lines");
        assertThat(shop.deadLetterTopic()).isEqualTo("shop.dead-letter");
        assertThat(plan.deadLetterPatterns()).hasSize(1).containsValue("shop.dead-letter");
        Pattern subscribed = plan.deadLetterPatterns().keySet().iterator().next();
        assertThat(subscribed.matcher("db.shop.order_lines").matches()).isTrue();
        assertThat(subscribed.matcher("db.billing.invoices").matches()).isTrue();
        // Read by input orders; a dead-letter topic; Kafka Streams' own; not matched whole.
        for (String other : new String[] {"db.shop.orders", "db.shop.orders.dead-letter", "rowflow-db.shop.x-changelog",
                "xdb.shop.orders", "db.shop.orders2x"}) {
            assertThat(subscribed.matcher(other).matches()).as(other).isFalse();
        }
        // Each topic an input of its own: its roles and table, the record key's fields in the layout.
        // A topic created later is seen within half a minute, unless the user says otherwise.
        assertThat(dev.rowflow.pipeline.runtime.StreamsProperties.of(plan).get("metadata.max.age.ms")).isEqualTo(30_000);
        assertThat(dev.rowflow.pipeline.runtime.StreamsProperties.of(plan(shop("kafka.metadata.max.age.ms", "2000")))
                .get("metadata.max.age.ms")).isEqualTo("2000");
        InputConfig lines = topics.forTopic("db.shop.order_lines", "bucket(4) | order_id:long, line:long");
        assertThat(lines.name()).isEqualTo("shop@db.shop.order_lines");
        assertThat(lines.tableName(InputConfig.TABLE)).isEqualTo("shop_order_lines");
        assertThat(lines.deadLetterTopic()).isEqualTo("shop.dead-letter");
    }

    @Test
    void shouldKnowTheTablesItMakesByTheirNames() {
        Pattern grouped = plan(shop()).config().inputs().get(1).topicPattern().orElseThrow().tables();
        assertThat(grouped.matcher("shop_order_lines").matches()).isTrue();
        assertThat(grouped.matcher("shop").matches()).isFalse();
        assertThat(grouped.matcher("_orders").matches()).isFalse();
        // ${topic}: names of topics the pattern matches, and no other table.
        Pattern whole = plan(shop("input.shop.table", "cdc_${topic}")).config().inputs().get(1).topicPattern()
                .orElseThrow().tables();
        assertThat(whole.matcher("cdc_db.shop.orders").matches()).isTrue();
        assertThat(whole.matcher("cdc_db.Shop.orders").matches()).isFalse();
        assertThat(whole.matcher("orders").matches()).isFalse();
    }

    @Test
    void shouldLeaveTheTopicsOfAnEarlierPatternToIt() {
        Map<String, String> props = shop("inputs", "orders,shop,rest",
                "input.rest.topic.pattern", "db\\.(?<schema>.+)\\.(?<table>.+)");
        shop().forEach((key, value) -> {
            if (key.startsWith("input.shop.") && !key.endsWith(".topic.pattern")) {
                props.put(key.replace("input.shop.", "input.rest."), value);
            }
        });
        props.put("input.rest.table", "rest_${table}");
        PipelinePlan plan = plan(props);

        var patterns = plan.deadLetterPatterns().keySet().stream().toList();
        assertThat(patterns).hasSize(2);
        assertThat(patterns.get(1).matcher("db.shop.lines").matches()).isFalse();
        assertThat(patterns.get(1).matcher("db.shop.x.lines").matches()).isTrue();
        assertThat(patterns.get(0).matcher("db.shop.lines").matches()).isTrue();
    }

    @Test
    void shouldStopStartUpNamingTheKeyOfEachMistake() {
        refused(shop("input.shop.topic.pattern", null), "input.shop.topic",
                "is needed: the topic the input reads (or input.shop.topic.pattern, a regex over topics)");
        refused(shop("input.shop.topic", "db.shop.x"), "input.shop.topic.pattern",
                "give the topics once: input.shop.topic=db.shop.x or a pattern, not both");
        refused(shop("input.shop.topic.pattern", "db\\.(?<table>[a-z"), "input.shop.topic.pattern",
                "is no Java regex: Unclosed character class at index 16");
        refused(shop("input.shop.table", "${database}_${table}"), "input.shop.table",
                "${database} is no named group of input.shop.topic.pattern (it has: topic, schema, table)");
        refused(shop("input.shop.table", "${table}/x"), "input.shop.table",
                "makes no HBase table name: Illegal character code:47, </> at 1. User-space table qualifiers may only "
                        + "contain 'alphanumeric characters' and digits: t/x");
        refused(shop("input.shop.indexes", "by_customer", "input.shop.index.by_customer.key", "customer_id:long"),
                "input.shop.indexes", "an input of input.shop.topic.pattern makes the data rows of each topic's table: "
                        + "declare an input of the table's own topic for indexes");
        refused(shop("input.shop.join.input", "orders"), "input.shop.join.input", "an input of "
                + "input.shop.topic.pattern makes the data rows of each topic's table: declare an input of the table's "
                + "own topic for join.input");
        refused(shop("input.shop.envelope", "none"), "input.shop.key", "$key.* is the primary key Debezium's record key "
                + "holds: set input.shop.envelope=debezium, or name the key's parts");
        refused(shop("input.orders.key", "$key.*"), "input.orders.key", "$key.* keys each table of "
                + "input.orders.topic.pattern by its record key's fields; name this topic's key parts ($key.id:long, or "
                + "the row's id:long)");
        // The rest of the declaration is compiled at start, naming the input's own key.
        refused(shop("input.shop.columns", "total:decimal="), "input.shop.columns",
                "column 'total:decimal=': empty qualifier after '='");
        refused(shop("input.orders.join.input", "shop", "input.orders.join.on", "customer_id",
                "input.orders.join.field", "id"), "input.orders.join.input",
                "reads a topic.pattern: a join is declared between inputs of one table each");
    }
}
