package dev.rowflow.demo;

import dev.rowflow.embedded.load.Offsets;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.embedded.EmbeddedBigtable;
import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.sinks.hbase.CounterCells;
import dev.rowflow.sinks.hbase.Store;
import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.KeyQuery;
import dev.rowflow.keying.layout.KeyRange;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.log.LogColumns;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.keying.log.LogSummary;
import dev.rowflow.keying.order.OrderColumns;
import dev.rowflow.keying.order.OrderRows;
import dev.rowflow.events.Customer;
import dev.rowflow.events.Order;
import dev.rowflow.embedded.load.OrderGenerator;
import dev.rowflow.embedded.load.OrderProducer;
import dev.rowflow.pipeline.topology.OrderTopology;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.pipeline.metrics.MetricsServer;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code rowflow demo}: the production pipeline on an embedded Kafka broker and HBase mini
 * cluster, fed by generated log events, customers and orders, with a summary read back from HBase.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Start an embedded Kafka broker (KRaft) and HBase mini cluster, generate log events, run the "
                + "pipeline until every event is in HBase and print a summary read back from the tables. "
                + "--format json ingests Filebeat-shaped JSON through a declared input instead, --format avro-registry "
                + "registry-encoded Avro.",
                "Without --events it keeps generating until Ctrl-C and serves /metrics."})
final class DemoCommand implements Callable<Integer> {
    private static final String APPLICATION_ID = "rowflow-demo";
    private static final String TOPIC = "logs";
    private static final String CUSTOMERS_TOPIC = "customers";
    private static final String ORDERS_TOPIC = "orders";
    /** Share of the customers sent only after the orders, so some orders arrive before their customer. */
    private static final double LATE_CUSTOMERS = 0.1;

    @Spec
    CommandSpec spec;

    @Option(names = "--events", paramLabel = "N",
            description = "Events to generate; the demo exits when all are in HBase. Default: until Ctrl-C.")
    Long events;

    @Option(names = "--json", description = "Print the summary as one JSON object on the last line of stdout.")
    boolean json;

    @Option(names = "--hosts", defaultValue = "200", description = "Distinct hosts (default: ${DEFAULT-VALUE}).")
    int hosts;

    @Option(names = "--data-layout", paramLabel = "SPEC",
            defaultValue = LogEventRows.DEFAULT_DATA_LAYOUT,
            description = "Row key layout of the data table (default: ${DEFAULT-VALUE}); see `rowflow keys --help`.")
    String dataLayout;

    @Option(names = "--index-layout", paramLabel = "SPEC", defaultValue = LogEventRows.DEFAULT_INDEX_LAYOUT,
            description = "Row key layout of the index table (default: ${DEFAULT-VALUE}).")
    String indexLayout;

    @Option(names = "--customers", defaultValue = "2000",
            description = "Customers to generate (default: ${DEFAULT-VALUE}); the last 10%% arrive after their orders.")
    int customers;

    @Option(names = "--orders", paramLabel = "N",
            description = "Orders to generate, interleaved with the log events. Default: one per 20 events.")
    Long orders;

    @Option(names = "--order-design", defaultValue = "record-types",
            description = "Order design: normalized, record-types, denormalized, blob (default: ${DEFAULT-VALUE}); "
                    + "CUSTOMER++ is on unless normalized.")
    String orderDesign;

    @Option(names = "--partitions", defaultValue = "4",
            description = "Partitions of the logs topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--rate", defaultValue = "2000",
            description = "Events per second when running without --events (default: ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--store", defaultValue = "hbase", paramLabel = "STORE",
            description = "Where the rows go: hbase (the mini cluster) or bigtable (Google's Bigtable emulator, "
                    + "started by the demo when cbtemulator is on this machine) (default: ${DEFAULT-VALUE}).")
    String store;

    @Option(names = "--format", defaultValue = "avro", paramLabel = "FORMAT",
            description = "avro: rowflow's own log events and customers/orders (Avro); json: Filebeat-shaped ECS JSON "
                    + "through a declared input whose mapping the demo prints; avro-registry: Avro of two schema "
                    + "versions in the Schema Registry wire format, with a registry (Apicurio) started by the demo "
                    + "(default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--metrics-port", defaultValue = "0",
            description = "Port of /metrics, /healthz, /readyz; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int metricsPort;

    @Override
    public Integer call() throws Exception {
        if (events != null && events < 1) {
            throw new ParameterException(spec.commandLine(),
                    "--events must be at least 1, got " + events);
        }
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        AtomicBoolean stop = new AtomicBoolean();
        if (events == null) {
            // Ctrl-C or SIGTERM: stop generating, let the pipeline commit what was sent, print the
            // summary, then exit. A signal handler rather than a shutdown hook: hooks run all at
            // once, and the embedded stack's own (HBase's, the temp-dir cleanup) would pull the
            // broker and the region server away while the pipeline still commits.
            for (String signal : List.of("INT", "TERM")) {
                sun.misc.Signal.handle(new sun.misc.Signal(signal), s -> stop.set(true));
            }
        }
        if (!List.of("avro", "json", "avro-registry").contains(format)) {
            throw new ParameterException(spec.commandLine(), "--format: '" + format + "' is not one of avro, json, "
                    + "avro-registry");
        }
        Store target;
        try {
            target = Store.of(store);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--store: " + e.getMessage());
        }
        if (target == Store.BIGTABLE && EmbeddedBigtable.findEmulator().isEmpty()) {
            err.println("rowflow demo: --store bigtable: " + EmbeddedBigtable.HOW_TO_GET_IT);
            return 2;
        }
        err.println("rowflow demo: starting an embedded Kafka broker (KRaft) and HBase mini cluster ...");
        err.flush();
        long stackStart = System.nanoTime();
        try (EmbeddedStack stack = EmbeddedStack.start();
             MetricsServer metrics = MetricsServer.start(metricsPort)) {
            err.printf("rowflow demo: stack up in %.1f s; Kafka %s, HBase ZooKeeper %s:%s; metrics http://localhost:%d/metrics%n",
                    seconds(stackStart), stack.kafka().bootstrapServers(),
                    stack.hbase().clientProperties().get("hbase.zookeeper.quorum"),
                    stack.hbase().clientProperties().get("hbase.zookeeper.property.clientPort"), metrics.port());
            if (target == Store.BIGTABLE) {
                err.printf("rowflow demo: rows go to the Bigtable emulator at %s (in memory)%n", stack.bigtable().endpoint());
            }
            if (format.equals("json")) {
                InputDemo.print(InputDemo.run(InputDemo.JSON, stack, store, metrics, events, hosts, rate, partitions,
                        stop, err), json, out);
                return 0;
            }
            if (format.equals("avro-registry")) {
                err.println("rowflow demo: starting a Schema Registry (Apicurio Registry) ...");
                err.flush();
                try (RegistryDemo registry = RegistryDemo.start()) {
                    InputDemo.print(InputDemo.run(registry, stack, store, metrics, events, hosts, rate, partitions,
                            stop, err), json, out);
                }
                return 0;
            }
            RowflowConfig config = config(stack);
            printChoices(config, err);
            try (Admin admin = Admin.create(config.kafkaProperties())) {
                KafkaTopics.createIfAbsent(admin, TOPIC, Optional.of(partitions), Duration.ofSeconds(60));
                admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(CUSTOMERS_TOPIC,
                        Optional.of(partitions), Optional.empty()).configs(Map.of("cleanup.policy", "compact")))).all().get();
                KafkaTopics.createIfAbsent(admin, ORDERS_TOPIC, Optional.of(partitions), Duration.ofSeconds(60));
                KafkaTopics.awaitLeaders(admin, CUSTOMERS_TOPIC, Duration.ofSeconds(60));
                Run run;
                try (RowflowPipeline pipeline = RowflowPipeline.start(config, metrics.registry())) {
                    metrics.readiness(pipeline::ready);
                    awaitRunning(pipeline);
                    run = generateAndWait(config, admin, pipeline, stop, err);
                }
                print(readBack(run, config, admin), out);
            }
        }
        return 0;
    }

    /** The store's name as people write it. */
    private String storeName() {
        return Store.of(store) == Store.BIGTABLE ? "Bigtable" : "HBase";
    }

    private RowflowConfig config(EmbeddedStack stack) {
        Map<String, Object> props = new LinkedHashMap<>(stack.rowflowProperties(store));
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        props.put(RowflowConfig.LOGS_TOPIC_CONFIG, TOPIC);
        props.put(RowflowConfig.PIPELINES_CONFIG, RowflowConfig.LOGS_PIPELINE + "," + RowflowConfig.ORDERS_PIPELINE);
        props.put(RowflowConfig.CUSTOMERS_TOPIC_CONFIG, CUSTOMERS_TOPIC);
        props.put(RowflowConfig.ORDERS_TOPIC_CONFIG, ORDERS_TOPIC);
        props.put(RowflowConfig.ORDER_DESIGN_CONFIG, orderDesign);
        props.put(RowflowConfig.CUSTOMER_PLUS_PLUS_CONFIG, String.valueOf(!orderDesign.equals("normalized")));
        props.put(RowflowConfig.LOG_DATA_LAYOUT_CONFIG, dataLayout);
        props.put(RowflowConfig.LOG_INDEX_LAYOUT_CONFIG, indexLayout);
        props.put(RowflowConfig.METRICS_PORT_CONFIG, metricsPort);
        props.put(COMMIT_INTERVAL, "1000");
        return new RowflowConfig(props);
    }

    private static final String COMMIT_INTERVAL = "kafka.commit.interval.ms";

    /** Why the demo sets what it sets; a key whose value is not rowflow's default is printed with this. */
    private static final Map<String, String> WHY = Map.ofEntries(
            Map.entry(RowflowConfig.APPLICATION_ID_CONFIG, "the demo's own consumer group and state"),
            Map.entry(RowflowConfig.PIPELINES_CONFIG, "customers and orders are shown next to the log events"),
            Map.entry(RowflowConfig.CUSTOMER_PLUS_PLUS_CONFIG, "a customer and its orders are read back in one scan "
                    + "(off for --order-design normalized, which keeps them in three tables)"),
            Map.entry(RowflowConfig.ORDER_DESIGN_CONFIG, "--order-design"),
            Map.entry(RowflowConfig.LOG_DATA_LAYOUT_CONFIG, "--data-layout"),
            Map.entry(RowflowConfig.LOG_INDEX_LAYOUT_CONFIG, "--index-layout"),
            Map.entry(RowflowConfig.METRICS_PORT_CONFIG, "--metrics-port (0: a free port, so runs do not collide)"),
            Map.entry(COMMIT_INTERVAL, "commit, and so flush to HBase, every second instead of Kafka Streams' 30 s: "
                    + "the progress line counts what is durable"));

    /** Prints the settings of {@code config} that differ from rowflow's defaults, with the reason. */
    private static void printChoices(RowflowConfig config, PrintWriter err) {
        Map<String, Object> defaults = new LinkedHashMap<>(RowflowConfig.CONFIG.defaultValues());
        defaults.put(COMMIT_INTERVAL, "30000");
        err.println("rowflow demo: settings other than rowflow's defaults:");
        WHY.keySet().stream().sorted().forEach(key -> {
            String value = String.valueOf(config.originals().get(key));
            Object fallback = defaults.get(key);
            String defaultValue = fallback instanceof List<?> list ? String.join(",", list.stream().map(String::valueOf)
                    .toList()) : String.valueOf(fallback);
            if (!value.equals(defaultValue)) {
                err.printf("  %s=%s (default %s): %s%n", key, value, defaultValue, WHY.get(key));
            }
        });
    }

    /**
     * Events and orders produced, seconds from the first produced to the last committed, and the
     * customer with the most orders.
     */
    private record Run(long events, long orders, double seconds, int busiestCustomer) {
    }

    /** Produces the events while the pipeline runs; returns when all are committed (in HBase). */
    private Run generateAndWait(RowflowConfig config, Admin admin, RowflowPipeline pipeline, AtomicBoolean stop,
                                        PrintWriter err) throws Exception {
        long target = events == null ? -1 : events;
        long start = System.currentTimeMillis() - (events == null ? 0 : events);
        LogEventGenerator generator = new LogEventGenerator(20_130_325L, hosts, start);
        AtomicLong produced = new AtomicLong();
        AtomicLong producedOrders = new AtomicLong();
        int earlyCustomers = customers - (int) (customers * LATE_CUSTOMERS);
        // One order per `eventsPerOrder` events: --orders spread over --events, else 1 in 20. Log
        // events are 1 ms apart in event time; orders keep pace (Kafka refuses record times more
        // than an hour ahead).
        long eventsPerOrder = target < 0 || orders == null ? 20 : Math.max(1, target / Math.max(1, orders));
        OrderGenerator orderGenerator = new OrderGenerator(20_130_325L, customers, start, eventsPerOrder);
        long orderTarget = orders != null ? orders : target < 0 ? -1 : target / 20;
        Map<Integer, Integer> ordersPerCustomer = new java.util.HashMap<>();
        long t0 = System.nanoTime();
        CompletableFuture<Long> producing = CompletableFuture.supplyAsync(() -> {
            try (LogEventProducer producer = LogEventProducer.open(config.kafkaProperties(), TOPIC);
                 OrderProducer orderProducer = OrderProducer.open(config.kafkaProperties(), CUSTOMERS_TOPIC,
                         ORDERS_TOPIC)) {
                for (int c = 1; c <= earlyCustomers; c++) {
                    orderProducer.send(OrderGenerator.customer(c), start);
                }
                long perTick = Math.max(1, rate / 10);
                while ((target < 0 || produced.get() < target) && !stop.get()) {
                    long batch = target < 0 ? perTick : Math.min(10_000, target - produced.get());
                    for (long i = 0; i < batch; i++) {
                        producer.send(generator.next());
                        if ((produced.get() + i) % eventsPerOrder == 0
                                && (orderTarget < 0 || producedOrders.get() < orderTarget)) {
                            Order order = orderGenerator.nextOrder();
                            orderProducer.send(order);
                            ordersPerCustomer.merge(Integer.parseInt(order.getCustomerNumber().substring(1)), 1,
                                    Integer::sum);
                            producedOrders.incrementAndGet();
                        }
                    }
                    produced.addAndGet(batch);
                    if (target < 0) {
                        Thread.sleep(100);
                    }
                }
                while (orderTarget > 0 && producedOrders.get() < orderTarget) {
                    Order order = orderGenerator.nextOrder();
                    orderProducer.send(order);
                    ordersPerCustomer.merge(Integer.parseInt(order.getCustomerNumber().substring(1)), 1, Integer::sum);
                    producedOrders.incrementAndGet();
                }
                for (int c = earlyCustomers + 1; c <= customers; c++) {
                    orderProducer.send(OrderGenerator.customer(c), start);
                }
                producer.flush();
                orderProducer.flush();
                return produced.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });

        long lastReport = 0;
        while (true) {
            long uncommitted = Offsets.uncommitted(admin, APPLICATION_ID, TOPIC);
            long ordersUncommitted = Offsets.uncommitted(admin, APPLICATION_ID, CUSTOMERS_TOPIC)
                    + Offsets.uncommitted(admin, APPLICATION_ID, ORDERS_TOPIC)
                    + (KafkaTopics.partitions(admin, OrderTopology.repartitionTopic(APPLICATION_ID)).isPresent()
                    ? Offsets.uncommitted(admin, APPLICATION_ID, OrderTopology.repartitionTopic(APPLICATION_ID)) : 1);
            boolean done = producing.isDone() && uncommitted == 0 && ordersUncommitted == 0;
            if (pipeline.state() == KafkaStreams.State.ERROR) {
                throw new IllegalStateException("the pipeline failed; see rowflow-demo.log");
            }
            long now = System.nanoTime();
            if (done || now - lastReport > TimeUnit.SECONDS.toNanos(2)) {
                long sent = produced.get();
                long written = Math.max(0, sent - uncommitted);
                err.printf("[%6.1f s] produced %,d%s  in %s (committed) %,d  %,.0f events/s%n", seconds(t0), sent,
                        target < 0 ? "" : String.format("/%,d", target), storeName(), written,
                        written / Math.max(seconds(t0), 0.001));
                err.flush();
                lastReport = now;
            }
            if (done) {
                break;
            }
            Thread.sleep(200);
        }
        int busiest = ordersPerCustomer.entrySet().stream().max(Map.Entry.comparingByValue())
                .map(Map.Entry::getKey).orElse(1);
        return new Run(producing.get(), producedOrders.get(), seconds(t0), busiest);
    }

    /** Counts and samples the rows with plain hbase-client, after the pipeline has stopped. */
    private DemoSummary readBack(Run run, RowflowConfig config, Admin admin) throws Exception {
        LogEventRows layouts = dev.rowflow.pipeline.ingest.LogIngest.rows(config, null);
        int buckets = layouts.dataLayout().salt().buckets().orElse(0);
        try (Connection connection = dev.rowflow.pipeline.runtime.HBaseConnections.connect(config)) {
            long[] perBucket = new long[buckets];
            long dataRows = 0;
            try (Table data = connection.getTable(TableName.valueOf(config.getString(RowflowConfig.LOG_DATA_TABLE_CONFIG)));
                 ResultScanner rows = data.getScanner(countingScan())) {
                for (Result row : rows) {
                    if (buckets > 0) {
                        perBucket[layouts.dataLayout().salt().bucketOf(row.getRow())]++;
                    }
                    dataRows++;
                }
            }
            long indexRows = 0;
            try (Table index = connection.getTable(TableName.valueOf(config.getString(RowflowConfig.LOG_INDEX_TABLE_CONFIG)));
                 ResultScanner rows = index.getScanner(countingScan())) {
                for (Result ignored : rows) {
                    indexRows++;
                }
            }
            long deadLetters = KafkaTopics.endOffsets(admin, config.getString(RowflowConfig.LOGS_DEAD_LETTER_TOPIC_CONFIG))
                    .values().stream().mapToLong(Long::longValue).sum();
            long largest = Arrays.stream(perBucket).max().orElse(0);
            double share = dataRows == 0 || buckets == 0 ? 0 : round(largest / ((double) dataRows / buckets));
            long summaryRows = 0;
            long summaryCount = 0;
            if (config.getBoolean(RowflowConfig.LOG_SUMMARY_ENABLED_CONFIG)) {
                try (Table summary = connection.getTable(TableName.valueOf(
                        config.getString(RowflowConfig.LOG_SUMMARY_TABLE_CONFIG)));
                     ResultScanner rows = summary.getScanner(new Scan().addFamily(LogSummary.FAMILY))) {
                    for (Result row : rows) {
                        summaryRows++;
                        summaryCount += CounterCells.total(row, LogSummary.FAMILY, LogSummary.COUNT);
                    }
                }
            }
            long orderIndexRows = 0;
            try (Table index = connection.getTable(TableName.valueOf(config.getString(RowflowConfig.ORDER_INDEX_TABLE_CONFIG)));
                 ResultScanner rows = index.getScanner(countingScan())) {
                for (Result ignored : rows) {
                    orderIndexRows++;
                }
            }
            return new DemoSummary(run.events(), dataRows, indexRows, deadLetters, round(run.seconds()),
                    round(run.events() / run.seconds()), round((dataRows + indexRows) / run.seconds()),
                    layouts.dataLayout().spec(), layouts.indexLayout().spec(),
                    Arrays.stream(perBucket).boxed().toList(), share, sample(connection, config, layouts),
                    summaryRows, summaryCount, customers, run.orders(), orderIndexRows,
                    orderDesign + (config.getBoolean(RowflowConfig.CUSTOMER_PLUS_PLUS_CONFIG) ? ", CUSTOMER++" : ""),
                    customerScan(connection, config, OrderGenerator.customer(run.busiestCustomer())));
        }
    }

    /**
     * Three rows of the data table, then for the first one's host and event type the newest rows
     * through the index, when the index layout leads with hostname and event type -- the scan the
     * host-led key was designed for.
     */
    private static List<DemoSummary.SampleRow> sample(Connection connection, RowflowConfig config,
                                                      LogEventRows layouts) throws Exception {
        List<DemoSummary.SampleRow> sample = new ArrayList<>();
        try (Table data = connection.getTable(TableName.valueOf(config.getString(RowflowConfig.LOG_DATA_TABLE_CONFIG)));
             Table index = connection.getTable(TableName.valueOf(config.getString(RowflowConfig.LOG_INDEX_TABLE_CONFIG)))) {
            try (ResultScanner rows = data.getScanner(new Scan().setLimit(3))) {
                for (Result row : rows) {
                    sample.add(sampleRow(layouts.dataLayout(), row, "scan of the data table"));
                }
            }
            List<String> indexFields = layouts.indexLayout().parts().stream().map(KeyPart::field).toList();
            if (sample.isEmpty() || indexFields.size() < 2
                    || !indexFields.subList(0, 2).equals(List.of("hostname", "eventType"))) {
                return sample;
            }
            DemoSummary.SampleRow first = sample.get(0);
            for (KeyRange range : layouts.indexLayout().scanRanges(KeyQuery.prefix(first.hostname(), first.eventType()))) {
                try (ResultScanner entries = index.getScanner(new Scan().withStartRow(range.start())
                        .withStopRow(range.stop()).setLimit(2))) {
                    for (Result entry : entries) {
                        byte[] dataRowKey = entry.getValue(LogColumns.INDEX_FAMILY, LogColumns.DATA_ROW_KEY);
                        sample.add(sampleRow(layouts.dataLayout(), data.get(new Get(dataRowKey)), "index scan of "
                                + first.hostname() + " / " + first.eventType() + ", newest first"));
                    }
                }
            }
        }
        return sample;
    }

    /**
     * Everything about one customer in one scan of the order table (CUSTOMER++, seed 002
     * 1.11.3.1): start row {@code [customer]}, stop row {@code [customer]+1}.
     */
    private static DemoSummary.CustomerScan customerScan(Connection connection, RowflowConfig config, Customer customer)
            throws Exception {
        OrderRows rows = dev.rowflow.pipeline.ingest.OrderJoin.rows(config, null);
        byte[] start = rows.customerPrefix(customer.getCustomerNumber());
        byte[] stop = RowKeyLayout.prefixEnd(start);
        List<DemoSummary.ScannedRow> scanned = new ArrayList<>();
        if (rows.customerPlusPlus()) {
            try (Table table = connection.getTable(TableName.valueOf(config.getString(RowflowConfig.ORDER_TABLE_CONFIG)));
                 ResultScanner results = table.getScanner(new Scan().withStartRow(start).withStopRow(stop))) {
                for (Result row : results) {
                    scanned.add(scannedRow(row));
                }
            }
        }
        return new DemoSummary.CustomerScan(customer.getCustomerNumber(), customer.getName(),
                KeyBytes.toStringBinary(start), KeyBytes.toStringBinary(stop), scanned);
    }

    private static DemoSummary.ScannedRow scannedRow(Result row) {
        String key = KeyBytes.toStringBinary(row.getRow());
        if (row.getValue(OrderColumns.FAMILY, OrderColumns.ORDER_NUMBER) != null) {
            return new DemoSummary.ScannedRow(key, "order", text(row, OrderColumns.ORDER_NUMBER) + " at "
                    + Instant.ofEpochMilli(Bytes.toLong(row.getValue(OrderColumns.FAMILY, OrderColumns.ORDER_TIME)))
                    + " for " + text(row, OrderColumns.CUSTOMER_NAME) + ", " + Bytes.toInt(row.getValue(
                    OrderColumns.FAMILY, OrderColumns.LINE_COUNT)) + " line items");
        }
        if (row.getValue(OrderColumns.FAMILY, OrderColumns.ITEM_NUMBER) != null) {
            String shipTo = text(row, OrderColumns.SHIP_TO_CITY);
            return new DemoSummary.ScannedRow(key, "line item", Bytes.toInt(row.getValue(OrderColumns.FAMILY,
                    OrderColumns.QUANTITY)) + " x " + text(row, OrderColumns.ITEM_NUMBER)
                    + (shipTo == null ? "" : " to " + shipTo));
        }
        if (row.getValue(OrderColumns.FAMILY, OrderColumns.LINE1) != null) {
            return new DemoSummary.ScannedRow(key, "shipping location", text(row, OrderColumns.LINE1) + ", "
                    + text(row, OrderColumns.CITY) + " " + text(row, OrderColumns.STATE));
        }
        return new DemoSummary.ScannedRow(key, "customer", text(row, OrderColumns.CUSTOMER_NAME) + ", "
                + text(row, OrderColumns.CUSTOMER_CITY) + " " + text(row, OrderColumns.CUSTOMER_STATE));
    }

    private static String text(Result row, byte[] qualifier) {
        byte[] value = row.getValue(OrderColumns.FAMILY, qualifier);
        return value == null ? null : Bytes.toString(value);
    }

    private static DemoSummary.SampleRow sampleRow(RowKeyLayout layout, Result row, String foundVia) {
        return new DemoSummary.SampleRow(KeyBytes.toStringBinary(row.getRow()), layout.decode(row.getRow()).toString(),
                Instant.ofEpochMilli(row.rawCells()[0].getTimestamp()).toString(),
                Bytes.toString(row.getValue(LogColumns.DATA_FAMILY, LogColumns.HOSTNAME)),
                Bytes.toString(row.getValue(LogColumns.DATA_FAMILY, LogColumns.EVENT_TYPE)),
                Bytes.toString(row.getValue(LogColumns.DATA_FAMILY, LogColumns.MESSAGE)), foundVia);
    }

    private void print(DemoSummary summary, PrintWriter out) throws Exception {
        if (json) {
            out.println(new ObjectMapper().writeValueAsString(summary));
        } else {
            out.printf("%nrowflow demo summary%n");
            out.printf("  events produced   %,d%n", summary.events());
            out.printf("  data rows         %,d%n", summary.dataRows());
            out.printf("  index rows        %,d%n", summary.indexRows());
            out.printf("  dead letters      %,d%n", summary.deadLetters());
            out.printf("  time              %.1f s (first event produced -> last offset committed)%n", summary.seconds());
            out.printf("  throughput        %,.0f events/s, %,.0f rows/s%n", summary.eventsPerSecond(), summary.rowsPerSecond());
            out.printf("  data key layout   %s%n", summary.dataLayout());
            out.printf("  index key layout  %s%n", summary.indexLayout());
            if (!summary.rowsPerBucket().isEmpty()) {
                out.printf("  rows per bucket   %s, largest %.2f x fair share%n", summary.rowsPerBucket(),
                        summary.largestBucketShare());
            }
            out.printf("  summary table     %,d rows (host, event type, hour), counting %,d events%n",
                    summary.summaryRows(), summary.summaryCount());
            out.printf("  customers/orders  %,d customers, %,d orders (%s), %,d order index rows%n", summary.customers(),
                    summary.orders(), summary.orderDesign(), summary.orderIndexRows());
            DemoSummary.CustomerScan scan = summary.customerScan();
            out.printf("  everything about customer %s (%s), one scan [%s, %s):%n", scan.customerNumber(), scan.name(),
                    scan.startRow(), scan.stopRow());
            int shown = 0;
            for (DemoSummary.ScannedRow row : scan.rows()) {
                if (shown++ == 12) {
                    out.printf("    ... %d more rows (all of them with --json)%n", scan.rows().size() - 12);
                    break;
                }
                out.printf("    %-18s %s%n      %s%n", row.recordType(), row.content(), row.rowKey());
            }
            out.printf("  rows read back:%n");
            for (DemoSummary.SampleRow row : summary.sample()) {
                out.printf("    %s%n      = %s  %s  %s  %s  \"%s\"  (%s)%n", row.rowKey(), row.decodedKey(), row.time(),
                        row.hostname(), row.eventType(), row.message(), row.foundVia());
            }
        }
        out.flush();
    }

    private static Scan countingScan() {
        return new Scan().setFilter(new FirstKeyOnlyFilter()).setCaching(5_000);
    }

    private static void awaitRunning(RowflowPipeline pipeline) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (pipeline.state() != KafkaStreams.State.RUNNING && System.nanoTime() < deadline) {
            if (pipeline.state() == KafkaStreams.State.ERROR) {
                throw new IllegalStateException("the pipeline failed to start; see rowflow-demo.log");
            }
            Thread.sleep(50);
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
