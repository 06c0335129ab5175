package dev.rowflow.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.load.Offsets;
import dev.rowflow.embedded.load.ShopHistory;
import dev.rowflow.embedded.load.TableRows;
import dev.rowflow.embedded.load.TopicProducer;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.pipeline.cli.RowTable;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.metrics.MetricsServer;
import dev.rowflow.pipeline.runtime.HBaseConnections;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code rowflow demo --format debezium}: a shop database's history as Debezium's MySQL connector
 * writes it (JsonConverter without schemas) on two topics, customers and orders -- a snapshot,
 * then creates, updates, orders moved to another customer, deletes each with its tombstone,
 * primary-key changes (the delete of one key and the create of another), customers renamed,
 * deleted and created again, several changes to a millisecond -- and then its last tenth again,
 * as a connector restarted from an older offset sends it. The orders join their customers
 * ({@code join.*}) and are keyed {@code [customer][order]}: a customer's orders are one scan,
 * each with its customer's present name. Read back, every row is compared with the database the
 * history leaves.
 */
final class CdcDemo {
    /** The name of its topics and tables: shop.public.customers, shop_orders... */
    static final String NAME = "shop";
    static final Map<String, String> MAPPING = ShopHistory.mapping(NAME);
    private static final String CUSTOMERS_TOPIC = MAPPING.get("input.customers.topic");
    private static final String ORDERS_TOPIC = MAPPING.get("input.orders.topic");
    private static final RowKeyLayout ORDER_KEY = RowKeyLayout.parse(MAPPING.get("input.orders.key"), null);

    /**
     * What the demo did.
     *
     * @param differences rows that are not as the database has them, missing or extra: 0
     * @param shown       the customer with the most orders, and its orders read in one scan
     */
    record Summary(String source, long changes, long tombstones, long replayed, long customers, long orders,
                   long customerRows, long orderRows, long indexRows, long deadLetters, long differences,
                   double seconds, Map<String, String> mapping, String shownCustomer, List<InputDemo.SampleRow> shown) {
    }

    private CdcDemo() {
    }

    static Summary run(EmbeddedStack stack, String store, MetricsServer metrics, long changes, int partitions,
                       PrintWriter err) throws Exception {
        boolean database = PostgresShop.available();
        Map<String, Object> props = new LinkedHashMap<>(stack.rowflowProperties(store));
        props.putAll(MAPPING);
        if (database) {
            // Without schemas PostgreSQL's numeric arrives as its unscaled bytes: its type says the scale.
            props.put("input.orders.types", "total:decimal(10,2)");
        }
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "rowflow-demo-debezium");
        props.put(RowflowConfig.METRICS_PORT_CONFIG, metrics.port());
        props.put("kafka.commit.interval.ms", "1000");
        RowflowConfig config = new RowflowConfig(props);
        err.println(database ? "rowflow demo: a shop database's history, run as SQL on PostgreSQL and captured by "
                + "Debezium's PostgreSQL connector (JsonConverter without schemas), through these declared inputs:"
                : "rowflow demo: PostgreSQL is not installed (apt-get install postgresql), so the demo generates the "
                + "change records Debezium's MySQL connector would write (JsonConverter) of a shop database's history, "
                + "through these declared inputs:");
        props.entrySet().stream().filter(e -> e.getKey().startsWith("input")).forEach(e ->
                err.println("  " + e.getKey() + "=" + e.getValue()));
        err.flush();
        ShopHistory history = new ShopHistory(changes, System.currentTimeMillis() - changes, 20_261_124L);
        String group = config.getString(RowflowConfig.APPLICATION_ID_CONFIG);
        double seconds;
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            for (String topic : List.of(CUSTOMERS_TOPIC, ORDERS_TOPIC)) {
                KafkaTopics.createIfAbsent(admin, topic, Optional.of(partitions), Duration.ofSeconds(60));
            }
            String source = "records Debezium's MySQL connector would write, generated";
            long replayed = 0;
            try (RowflowPipeline pipeline = RowflowPipeline.start(config, metrics.registry())) {
                pipeline.serveOn(metrics);
                long t0 = System.nanoTime();
                if (database) {
                    PostgresShop.Run run = PostgresShop.apply(history, NAME, config.kafkaProperties(), err);
                    source = run.source();
                    replayed = run.resent();
                    err.printf("rowflow demo: %s made %,d changes and %,d tombstones%n", source, history.changes(),
                            history.tombstones());
                    err.flush();
                } else {
                    replayed = produceGenerated(config, history, err);
                }
                boolean done = Offsets.awaitCommittedThroughInternalTopics(admin, group,
                        List.of(CUSTOMERS_TOPIC, ORDERS_TOPIC), 3, Duration.ofMinutes(10), committed -> {
                            if (pipeline.state() == KafkaStreams.State.ERROR) {
                                throw new IllegalStateException("the pipeline failed; see rowflow-demo.log");
                            }
                        });
                if (!done) {
                    throw new IllegalStateException("not every change was committed within 10 minutes");
                }
                seconds = (System.nanoTime() - t0) / 1e9;
            }
            return readBack(config, admin, history, source, replayed, seconds, err);
        }
    }

    /**
     * Produces the history as Debezium's MySQL connector writes it, then its last tenth again, as a
     * connector restarted from an older offset sends it; returns the records sent again.
     */
    private static long produceGenerated(RowflowConfig config, ShopHistory history, PrintWriter err) throws Exception {
        try (TopicProducer customers = TopicProducer.open(config.kafkaProperties(), CUSTOMERS_TOPIC);
             TopicProducer orders = TopicProducer.open(config.kafkaProperties(), ORDERS_TOPIC)) {
            List<ShopHistory.Event> all = history.events();
            List<ShopHistory.Event> replay = all.subList(all.size() * 9 / 10, all.size());
            for (List<ShopHistory.Event> events : List.of(all, replay)) {
                for (ShopHistory.Event event : events) {
                    (event.customer() ? customers : orders).send(event.key(), null, event.value() == null
                            ? null : event.value().getBytes(StandardCharsets.UTF_8));
                }
            }
            customers.flush();
            orders.flush();
            err.printf("rowflow demo: produced %,d changes and %,d tombstones, then the last %,d records again%n",
                    history.changes(), history.tombstones(), replay.size());
            err.flush();
            return replay.size();
        }
    }

    private static Summary readBack(RowflowConfig config, Admin admin, ShopHistory history, String source,
                                    long replayed, double seconds, PrintWriter err) throws Exception {
        try (Connection connection = HBaseConnections.connect(config)) {
            List<String> found = history.differenceList(connection, NAME);
            long differences = found.size();
            found.stream().limit(20).forEach(difference -> err.println("rowflow demo: difference: " + difference));
            err.flush();
            Map<Long, Integer> perCustomer = new TreeMap<>();
            history.orders().values().forEach(order -> {
                if (history.customers().containsKey(order.customer())) {
                    perCustomer.merge(order.customer(), 1, Integer::sum);
                }
            });
            long shownCustomer = perCustomer.entrySet().stream().max(Map.Entry.comparingByValue())
                    .map(Map.Entry::getKey).orElse(-1L);
            List<InputDemo.SampleRow> shown = new ArrayList<>();
            try (Table table = connection.getTable(TableName.valueOf(NAME + "_orders"));
                 ResultScanner rows = table.getScanner(new Scan().setRowPrefixFilter(
                         ShopHistory.ordersOf(shownCustomer)))) {
                for (Result row : rows) {
                    Map<String, String> cells = new LinkedHashMap<>();
                    for (var cell : row.rawCells()) {
                        cells.put(Bytes.toString(CellUtil.cloneQualifier(cell)),
                                new String(CellUtil.cloneValue(cell), StandardCharsets.UTF_8));
                    }
                    shown.add(new InputDemo.SampleRow(Bytes.toStringBinary(row.getRow()),
                            RowTable.keyFields(ORDER_KEY, row.getRow()),
                            java.time.Instant.ofEpochMilli(row.rawCells()[0].getTimestamp()).toString(), cells));
                }
            }
            long deadLetters = 0;
            for (String topic : List.of(CUSTOMERS_TOPIC, ORDERS_TOPIC)) {
                deadLetters += KafkaTopics.endOffsets(admin, topic + ".dead-letter").values().stream()
                        .mapToLong(Long::longValue).sum();
            }
            return new Summary(source, history.changes(), history.tombstones(), replayed, history.customers().size(),
                    history.orders().size(), TableRows.count(connection, NAME + "_customers"),
                    TableRows.count(connection, NAME + "_orders"), TableRows.count(connection, NAME + "_orders_status"),
                    deadLetters, differences, Math.round(seconds * 100) / 100.0, MAPPING, shownCustomer < 0 ? null
                    : shownCustomer + " (" + history.customers().get(shownCustomer)[0] + ")", shown);
        }
    }

    static void print(Summary summary, boolean json, PrintWriter out) throws Exception {
        if (json) {
            out.println(new ObjectMapper().writeValueAsString(summary));
        } else {
            out.printf("%nrowflow demo summary (--format debezium)%n");
            out.printf("  source            %s%n", summary.source());
            out.printf("  changes applied   %,d (and %,d tombstones), and %,d records sent again%n",
                    summary.changes(), summary.tombstones(), summary.replayed());
            out.printf("  the database      %,d customers, %,d orders%n", summary.customers(), summary.orders());
            out.printf("  rows              %,d customers, %,d orders, %,d order index rows%n", summary.customerRows(),
                    summary.orderRows(), summary.indexRows());
            out.printf("  differences       %,d (rows missing, extra or not as the database has them)%n",
                    summary.differences());
            out.printf("  dead letters      %,d%n", summary.deadLetters());
            out.printf("  time              %.1f s (first change produced -> every record committed)%n",
                    summary.seconds());
            out.printf("  customer %s and its orders, one scan of orders:%n", summary.shownCustomer());
            RowTable table = new RowTable(ORDER_KEY);
            for (InputDemo.SampleRow row : summary.shown()) {
                table.add(Bytes.toBytesBinary(row.rowKey()), java.time.Instant.parse(row.time()).toEpochMilli(),
                        row.columns());
            }
            table.print(out, "    ");
        }
        out.flush();
    }
}
