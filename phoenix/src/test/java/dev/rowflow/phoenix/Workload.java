package dev.rowflow.phoenix;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.embedded.load.OrderGenerator;
import dev.rowflow.embedded.load.OrderProducer;
import dev.rowflow.embedded.load.ShopHistory;
import dev.rowflow.embedded.load.TopicProducer;
import dev.rowflow.events.LogEvent;
import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the views are proven on: one configuration with every kind of table the demos and the CDC
 * tests make -- the log pipeline (salted time-led data, host-led index, summary,
 * host names substituted by UIDs), the orders pipeline as the demo runs it (record types and CUSTOMER++: rows of four kinds in the order table), the
 * Filebeat recipe (salted key with a hashed part, a wildcard's columns, a sparse index with a
 * reverse time, a summary) and a shop database's Debezium change events (long keys, deletes, a
 * join; the same database again through a {@code topic.pattern}) -- and the records for it, ugly ones included (missing fields, deletes, tombstones).
 */
final class Workload {
    /** Yesterday's first hour: within the Filebeat recipe's 30-day TTL, as live data is. */
    static final long T0 = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.DAYS)
            .minus(java.time.Duration.ofDays(1)).toEpochMilli();
    /** The time of one more Filebeat record, of host {@code web-1}: 60 days ago, past the tables' TTL. */
    static final long EXPIRED = T0 - java.time.Duration.ofDays(60).toMillis();
    static final int LOG_EVENTS = 300;
    static final int FILEBEAT_RECORDS = 240;
    /** The first Filebeat record written after the views were made: rowflow writes on under Phoenix's coprocessors. */
    static final int FILEBEAT_LATER = 210;
    static final int ORDERS = 30;
    static final int CUSTOMERS = 8;
    static final String[] HOSTS = {"web-1", "web-2", "db-1"};

    private Workload() {
    }

    /** The configuration: the stack's addresses, every pipeline and input, tables named phx_*. */
    static Map<String, String> config(EmbeddedStack stack) throws java.io.IOException {
        Map<String, String> props = new LinkedHashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "phoenix-views");
        props.put("kafka.commit.interval.ms", "500");
        props.put(RowflowConfig.PIPELINES_CONFIG, "logs,orders");
        props.put(RowflowConfig.LOGS_TOPIC_CONFIG, "phx_logs");
        props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, "phx_log_data");
        props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, "phx_log_index");
        props.put(RowflowConfig.LOG_SUMMARY_ENABLED_CONFIG, "true");
        // Host names substituted by ids (seed 002, 1.11.1.4), as QueryCommandIT keys them.
        props.put(RowflowConfig.LOG_DATA_LAYOUT_CONFIG, "bucket(16) | timestamp:ts, hostname:uid, eventType:text");
        props.put(RowflowConfig.LOG_INDEX_LAYOUT_CONFIG, "hostname:uid, eventType:text, timestamp:rts");
        props.put(RowflowConfig.LOG_SUMMARY_TABLE_CONFIG, "phx_log_summary");
        props.put(RowflowConfig.CUSTOMERS_TOPIC_CONFIG, "phx_customers");
        props.put(RowflowConfig.ORDERS_TOPIC_CONFIG, "phx_orders");
        // The demo's order tables: record types with CUSTOMER++ (customers' rows in the order table).
        props.put(RowflowConfig.CUSTOMER_PLUS_PLUS_CONFIG, "true");
        props.put(RowflowConfig.ORDER_TABLE_CONFIG, "phx_order");
        props.put(RowflowConfig.ORDER_INDEX_TABLE_CONFIG, "phx_order_index");
        props.put(RowflowConfig.UID_TABLE_CONFIG, "phx_uid");

        Map<String, String> filebeat = ConfigSources.load(Path.of("..", "deploy", "recipes", "filebeat.properties"),
                Map.of());
        filebeat.forEach((key, value) -> {
            if (key.startsWith("input.")) {
                props.put(key, value);
            }
        });
        props.put("input.filebeat.topic", "phx_filebeat");
        props.put("input.filebeat.table", "phx_filebeat");
        props.put("input.filebeat.index.host.table", "phx_filebeat_host");
        props.put("input.filebeat.summary.table", "phx_filebeat_summary");
        // The shop's inputs, renamed beside the orders pipeline's own customers and orders.
        ShopHistory.mapping("phx_shop").forEach((key, value) -> props.put(
                key.replace("input.customers.", "input.shop_customers.").replace("input.orders.", "input.shop_orders."),
                key.equals("input.orders.join.input") ? "shop_customers" : value));
        // The same database through one declaration for all its tables (topic.pattern), as the CDC tests run it.
        props.put("input.cdc.topic.pattern", "phx_cdc\\.public\\.(?<table>[a-z_]+)");
        props.put("input.cdc.table", "phx_cdc_${table}");
        props.put("input.cdc.key", "$key.*");
        props.put("input.cdc.format", "json");
        props.put("input.cdc.envelope", "debezium");
        props.put("input.cdc.time", "$source.ts_ms");
        props.put("input.cdc.time.format", "epoch-ms");
        props.put("inputs", "filebeat,shop_customers,shop_orders,cdc");
        return props;
    }

    /** The topics the pipeline reads. */
    static List<String> topics() {
        return List.of("phx_logs", "phx_customers", "phx_orders", "phx_filebeat", "phx_shop.public.customers",
                "phx_shop.public.orders", "phx_cdc.public.customers", "phx_cdc.public.orders");
    }

    /** Creates the topics and writes every record; returns the shop history written. */
    static ShopHistory produce(RowflowConfig config) throws Exception {
        Map<String, Object> kafka = config.kafkaProperties();
        try (Admin admin = Admin.create(kafka)) {
            List<NewTopic> topics = new ArrayList<>();
            for (String topic : topics()) {
                NewTopic created = new NewTopic(topic, 2, (short) 1);
                topics.add(topic.equals("phx_customers") ? created.configs(Map.of("cleanup.policy", "compact")) : created);
            }
            admin.createTopics(topics).all().get();
        }
        try (LogEventProducer logs = LogEventProducer.open(kafka, "phx_logs")) {
            for (LogEvent event : logEvents()) {
                logs.send(event);
            }
            logs.flush();
        }
        OrderGenerator generator = new OrderGenerator(11, CUSTOMERS, T0);
        try (OrderProducer orders = OrderProducer.open(kafka, "phx_customers", "phx_orders")) {
            for (int c = 1; c <= CUSTOMERS; c++) {
                orders.send(OrderGenerator.customer(c), T0 + c);
            }
            orders.flush();
            for (int i = 0; i < ORDERS; i++) {
                orders.send(generator.nextOrder());
            }
            orders.flush();
        }
        produceFilebeat(kafka, 0, FILEBEAT_LATER);
        ShopHistory history = new ShopHistory(300, T0, 7);
        for (String database : List.of("phx_shop", "phx_cdc")) {
            try (TopicProducer customers = TopicProducer.open(kafka, database + ".public.customers");
                 TopicProducer orders = TopicProducer.open(kafka, database + ".public.orders")) {
                for (ShopHistory.Event event : history.events()) {
                    (event.customer() ? customers : orders).send(event.key(), null,
                            event.value() == null ? null : event.value().getBytes(StandardCharsets.UTF_8));
                }
                customers.flush();
                orders.flush();
            }
        }
        return history;
    }

    /** Writes Filebeat records {@code [from, to)}, and after the last one the record of {@link #EXPIRED}. */
    static void produceFilebeat(Map<String, Object> kafka, int from, int to) throws InterruptedException {
        try (TopicProducer filebeat = TopicProducer.open(kafka, "phx_filebeat")) {
            for (int i = from; i < to; i++) {
                filebeat.send(null, T0, filebeatRecord(i).getBytes(StandardCharsets.UTF_8));
            }
            if (to == FILEBEAT_RECORDS) {
                filebeat.send(null, T0, filebeatRecord(FILEBEAT_RECORDS).replace(
                        Instant.ofEpochMilli(filebeatTime(FILEBEAT_RECORDS)).toString(),
                        Instant.ofEpochMilli(EXPIRED).toString()).getBytes(StandardCharsets.UTF_8));
            }
            filebeat.flush();
        }
    }

    /** The log events: three hosts, two event types, one a millisecond. */
    static List<LogEvent> logEvents() {
        List<LogEvent> events = new ArrayList<>();
        for (int i = 0; i < LOG_EVENTS; i++) {
            events.add(LogEvent.newBuilder().setHostname(HOSTS[i % 3]).setEventType(i % 2 == 0 ? "auth" : "gc")
                    .setTimestamp(Instant.ofEpochMilli(T0 + i * 977L)).setMessage("event " + i).build());
        }
        return events;
    }

    /** The host of Filebeat record {@code i}. */
    static String filebeatHost(int i) {
        return HOSTS[i % 3];
    }

    /** The time of Filebeat record {@code i}, ms. */
    static long filebeatTime(int i) {
        return T0 + i * 30_011L;
    }

    /**
     * A record as Filebeat 8 writes it (ECS): every fourth without {@code event.dataset} (the index
     * and summary say {@code generic}), every fifth without {@code log.level}, labels on some.
     */
    static String filebeatRecord(int i) {
        String dataset = i % 4 == 0 ? "" : "\"event\":{\"dataset\":\"" + (i % 2 == 0 ? "nginx.access" : "system.syslog")
                + "\",\"module\":\"nginx\"},";
        String level = i % 5 == 0 ? "" : ",\"level\":\"" + (i % 3 == 0 ? "error" : "info") + "\"";
        String labels = i % 6 == 0 ? "\"labels\":{\"team\":\"checkout\",\"env\":\"prod\"}," : "";
        return "{\"@timestamp\":\"" + Instant.ofEpochMilli(filebeatTime(i)) + "\",\"message\":\"GET /item/" + i
                + " 200\",\"host\":{\"name\":\"" + filebeatHost(i) + "\",\"os\":{\"family\":\"debian\"}}," + dataset
                + labels + "\"log\":{\"file\":{\"path\":\"/var/log/" + (i % 2 == 0 ? "nginx/access.log" : "syslog")
                + "\"},\"offset\":" + (i * 131) + level + "},\"agent\":{\"type\":\"filebeat\",\"version\":\"8.15.0\"},"
                + "\"ecs\":{\"version\":\"8.0.0\"}}";
    }
}
