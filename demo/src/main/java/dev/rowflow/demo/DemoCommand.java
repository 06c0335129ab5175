package dev.rowflow.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.embedded.EmbeddedBigtable;
import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.embedded.load.Offsets;
import dev.rowflow.embedded.load.OrderGenerator;
import dev.rowflow.embedded.load.OrderProducer;
import dev.rowflow.events.Order;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.OrderIngest;
import dev.rowflow.pipeline.metrics.MetricsServer;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import dev.rowflow.sinks.hbase.Store;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
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
                + "registry-encoded Avro, --format protobuf-registry registry-encoded Protobuf, --format debezium a database's change events (customers and orders, joined).",
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
                    + "versions in the Schema Registry wire format, with a registry (Apicurio) started by the demo; "
                    + "protobuf-registry: the same as Protobuf, written as Confluent's serializer writes it; "
                    + "debezium: a shop database's change history (customers and orders, --events changes, 10,000 "
                    + "without), orders joined with their customers, every row compared with the database "
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
        if (!List.of("avro", "json", "avro-registry", "protobuf-registry", "debezium").contains(format)) {
            throw new ParameterException(spec.commandLine(), "--format: '" + format + "' is not one of avro, json, "
                    + "avro-registry, protobuf-registry, debezium");
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
            if (format.equals("debezium")) {
                CdcDemo.Summary summary = CdcDemo.run(stack, store, metrics, events == null ? 10_000 : events,
                        partitions, err);
                CdcDemo.print(summary, json, out);
                return summary.differences() == 0 ? 0 : 1;
            }
            if (format.endsWith("-registry")) {
                err.println("rowflow demo: starting a Schema Registry (Apicurio Registry) ...");
                err.flush();
                try (RegistryDemo registry = RegistryDemo.start(format.equals("protobuf-registry"))) {
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
                    pipeline.serveOn(metrics);
                    awaitRunning(pipeline);
                    run = generateAndWait(config, admin, pipeline, stop, err);
                }
                print(DemoReadBack.of(run, config, admin, customers, orderDesign), out);
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
    record Run(long events, long orders, double seconds, int busiestCustomer) {
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
                    + Offsets.uncommitted(admin, APPLICATION_ID, ORDERS_TOPIC);
            for (String internal : OrderIngest.internalTopics(APPLICATION_ID)) {
                // In the order records pass them: when each is committed in turn, none is on its way.
                ordersUncommitted += KafkaTopics.partitions(admin, internal).isPresent()
                        ? Offsets.uncommitted(admin, APPLICATION_ID, internal) : 1;
            }
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

    private void print(DemoSummary summary, PrintWriter out) throws Exception {
        if (json) {
            out.println(new ObjectMapper().writeValueAsString(summary));
        } else {
            summary.print(out);
        }
        out.flush();
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
}
