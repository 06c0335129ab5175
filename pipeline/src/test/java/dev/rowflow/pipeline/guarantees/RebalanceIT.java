package dev.rowflow.pipeline.guarantees;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.embedded.load.OrderGenerator;
import dev.rowflow.embedded.load.OrderProducer;
import dev.rowflow.events.Customer;
import dev.rowflow.events.Order;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.order.OrderRows;
import dev.rowflow.pipeline.cli.Rowflow;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import dev.rowflow.pipeline.runtime.OrderTableContents;
import dev.rowflow.sinks.hbase.HBaseUidStore;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several instances of one application share the work, and tasks moving between live processes
 * lose and double nothing. The production jar runs in separate JVMs of one application id over a
 * 12-partition logs topic and the orders' inputs while events arrive throughout: A and B start; C
 * joins; B is killed (SIGKILL); C leaves cleanly (SIGTERM); D joins as a static member (its
 * {@code group.instance.id} set, as the Helm chart sets it from the pod name) and is restarted
 * within its session timeout, which must cause no rebalance. Customers arrive while their orders'
 * tasks move. At every poll the rows in HBase are at least the committed events; at the end every
 * data, index and order row is exactly what the input makes (keys and cell timestamps), the
 * summary counts each event once and {@code rowflow index verify} is clean. Prints, per change,
 * the longest a logs partition waited for its next commit.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class RebalanceIT {
    private static final String GROUP = "it-rebalance";
    private static final String LOGS = "rebalance-logs";
    private static final String CUSTOMERS = "rebalance-customers";
    private static final String ORDERS = "rebalance-orders";
    private static final int LOG_PARTITIONS = 12;
    private static final int ORDER_PARTITIONS = 4;
    private static final int EVENTS_PER_SECOND = 600;
    /** Customers 1-40 are there first; 41-80 arrive as C joins, 81-120 as B is killed. */
    private static final int CUSTOMER_COUNT = 120;
    private static final long CUSTOMER_TIME = 1_650_000_000_000L;
    private static final long EVENT_TIME = 1_700_000_000_000L;
    /** Dynamic members: a killed one is noticed after this. */
    private static final int SESSION_TIMEOUT_MS = 10_000;
    /** The static member's: longer than its restart takes. */
    private static final int STATIC_SESSION_TIMEOUT_MS = 90_000;
    private static final List<String> JVM_OPTIONS = List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static EmbeddedStack stack;

    @BeforeAll
    static void shareStack(EmbeddedStack shared) {
        stack = shared;
    }

    @Test
    void shouldLoseAndDoubleNothingWhileInstancesJoinDieLeaveAndRestart(@TempDir Path dir) throws Exception {
        Map<String, String> props = new LinkedHashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, GROUP);
        props.put(RowflowConfig.PIPELINES_CONFIG, RowflowConfig.LOGS_PIPELINE + "," + RowflowConfig.ORDERS_PIPELINE);
        props.put(RowflowConfig.LOGS_TOPIC_CONFIG, LOGS);
        props.put(RowflowConfig.LOGS_DEAD_LETTER_TOPIC_CONFIG, LOGS + ".dead-letter");
        props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, "rebalance_data");
        props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, "rebalance_index");
        props.put(RowflowConfig.LOG_SUMMARY_TABLE_CONFIG, "rebalance_summary");
        props.put(RowflowConfig.CUSTOMERS_TOPIC_CONFIG, CUSTOMERS);
        props.put(RowflowConfig.ORDERS_TOPIC_CONFIG, ORDERS);
        props.put(RowflowConfig.CUSTOMERS_DEAD_LETTER_TOPIC_CONFIG, CUSTOMERS + ".dead-letter");
        props.put(RowflowConfig.ORDERS_DEAD_LETTER_TOPIC_CONFIG, ORDERS + ".dead-letter");
        props.put(RowflowConfig.CUSTOMER_TABLE_CONFIG, "rebalance_customer");
        props.put(RowflowConfig.ORDER_TABLE_CONFIG, "rebalance_order");
        props.put(RowflowConfig.SHIPPING_LOCATION_TABLE_CONFIG, "rebalance_shipping_location");
        props.put(RowflowConfig.LINE_ITEM_TABLE_CONFIG, "rebalance_line_item");
        props.put(RowflowConfig.ORDER_INDEX_TABLE_CONFIG, "rebalance_order_index");
        props.put(RowflowConfig.UID_TABLE_CONFIG, "rebalance_uid");
        props.put("kafka.commit.interval.ms", "1000");
        props.put("kafka.session.timeout.ms", Integer.toString(SESSION_TIMEOUT_MS));
        props.put("kafka.heartbeat.interval.ms", "1000");
        // A copy of the orders' stores on another instance: a moved task resumes from it.
        props.put("kafka.num.standby.replicas", "1");
        Path configFile = dir.resolve("rowflow.properties");
        Files.writeString(configFile, props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")));
        RowflowConfig config = new RowflowConfig(props);
        Map<String, Object> kafka = config.kafkaProperties();

        try (Admin admin = Admin.create(kafka);
             LogEventProducer logs = LogEventProducer.open(createTopics(admin, kafka), LOGS);
             OrderProducer orders = OrderProducer.open(kafka, CUSTOMERS, ORDERS)) {
            sendCustomers(orders, 1, 40);
            Group group = new Group(admin, dir, configFile);
            Load load = new Load(logs, orders);
            try {
                group.start("a", Map.of());
                group.start("b", Map.of());
                group.awaitCovering("a and b", "a", "b");

                group.change("c joins");
                group.start("c", Map.of());
                sendCustomers(orders, 41, 80);
                group.awaitCovering("c joined", "a", "b", "c");

                group.change("b killed (SIGKILL)");
                group.instances.remove("b").kill();
                sendCustomers(orders, 81, CUSTOMER_COUNT);
                group.awaitCovering("b's tasks moved", "a", "c");

                group.change("c leaves (SIGTERM)");
                assertThat(group.instances.remove("c").terminate()).as("c's exit code").isZero();
                group.awaitCovering("c's tasks moved", "a");

                Map<String, String> staticMember = Map.of("ROWFLOW_CONFIG_KAFKA_GROUP_INSTANCE_ID", GROUP + "-d",
                        "ROWFLOW_CONFIG_KAFKA_SESSION_TIMEOUT_MS", Integer.toString(STATIC_SESSION_TIMEOUT_MS));
                group.change("d joins (static member)");
                group.start("d", staticMember);
                group.awaitCovering("d joined", "a", "d");

                group.change("d restarted (same group.instance.id)");
                double rebalancesOfA = group.metric("a", "rowflow_streams_rebalances_total");
                assertThat(group.instances.remove("d").terminate()).as("d's exit code").isZero();
                // A static member stays in the group when it stops: its tasks wait for it.
                assertThat(group.description().members()).extracting(m -> m.groupInstanceId().orElse(""))
                        .contains(GROUP + "-d-1");
                group.start("d", staticMember);
                group.awaitCovering("d back", "a", "d");
                assertThat(group.metric("a", "rowflow_streams_rebalances_total"))
                        .as("rebalances of a while d restarted within its session timeout").isEqualTo(rebalancesOfA);
                assertThat(group.metric("d", "rowflow_streams_tasks", Map.of("kind", "active"))).isPositive();

                group.change("input ends");
                load.stop();
                group.awaitAllCommitted();
            } finally {
                load.stop();
                group.close();
            }
            System.out.printf("RebalanceIT: %,d events, %,d orders; longest wait of a logs partition for its next "
                    + "commit, per change:%n%s", load.events, load.orders.size(), group.pauses());

            verifyLogRows(config, load.events);
            verifyOrderRows(config, load.orders);
            StringWriter out = new StringWriter();
            int exit = Rowflow.commandLine().setOut(new PrintWriter(out))
                    .execute("index", "verify", "--config", configFile.toString());
            assertThat(exit).as("rowflow index verify: %s", out).isZero();
            assertThat(out.toString()).startsWith("data rows " + load.events + ", index rows " + load.events
                    + ", unindexed data rows 0, dangling index rows 0 -- clean");
        }
    }

    private static Map<String, Object> createTopics(Admin admin, Map<String, Object> kafka) throws Exception {
        admin.createTopics(List.of(new NewTopic(LOGS, LOG_PARTITIONS, (short) 1),
                new NewTopic(CUSTOMERS, ORDER_PARTITIONS, (short) 1).configs(Map.of("cleanup.policy", "compact")),
                new NewTopic(ORDERS, ORDER_PARTITIONS, (short) 1))).all().get();
        for (String topic : List.of(LOGS, CUSTOMERS, ORDERS)) {
            KafkaTopics.awaitLeaders(admin, topic, Duration.ofSeconds(30));
        }
        return kafka;
    }

    private static void sendCustomers(OrderProducer producer, int first, int last) {
        for (int c = first; c <= last; c++) {
            producer.send(OrderGenerator.customer(c), CUSTOMER_TIME + c);
        }
        producer.flush();
    }

    /** Log events, and an order, every tenth of a second until stopped, from a thread of its own. */
    private static final class Load {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final Future<?> sending;
        private final List<Order> orders = new ArrayList<>();
        private volatile long events;

        Load(LogEventProducer logs, OrderProducer orderProducer) {
            LogEventGenerator logGenerator = new LogEventGenerator(1_300, 150, EVENT_TIME);
            OrderGenerator orderGenerator = new OrderGenerator(17, CUSTOMER_COUNT, EVENT_TIME);
            var executor = Executors.newSingleThreadExecutor();
            sending = executor.submit(() -> {
                // In steps of a tenth of a second, each acknowledged before the next.
                while (!stop.get()) {
                    for (int i = 0; i < EVENTS_PER_SECOND / 10; i++) {
                        logs.send(logGenerator.next());
                    }
                    Order order = orderGenerator.nextOrder();
                    orderProducer.send(order);
                    orders.add(order);
                    logs.flush();
                    orderProducer.flush();
                    events += EVENTS_PER_SECOND / 10;
                    Thread.sleep(100);
                }
                return null;
            });
            executor.shutdown();
        }

        void stop() throws InterruptedException, ExecutionException {
            stop.set(true);
            sending.get();
        }
    }

    /** The instances, the group they form, and the polls that watch them. */
    private final class Group implements AutoCloseable {
        private final Admin admin;
        private final Path dir;
        private final Path configFile;
        private final Map<String, RowflowProcess> instances = new LinkedHashMap<>();
        private final List<String> changes = new ArrayList<>();
        private final Map<String, Long> longestWait = new LinkedHashMap<>();
        private final Map<TopicPartition, Long> lastCommitted = new HashMap<>();
        private final Map<TopicPartition, Long> lastAdvanced = new HashMap<>();
        private final Connection hbase;

        Group(Admin admin, Path dir, Path configFile) throws Exception {
            this.admin = admin;
            this.dir = dir;
            this.configFile = configFile;
            this.hbase = ConnectionFactory.createConnection(stack.hbase().testingUtility().getConfiguration());
            change("a and b start");
        }

        void start(String name, Map<String, String> environment) throws Exception {
            Map<String, String> env = new HashMap<>(environment);
            // Each instance its own state directory, as each pod has its own.
            env.put("ROWFLOW_CONFIG_KAFKA_STATE_DIR", dir.resolve("state-" + name).toString());
            instances.put(name, RowflowProcess.start(configFile, dir.resolve("rowflow-" + name + ".log"), JVM_OPTIONS,
                    env));
        }

        /** From now on, partition waits count for {@code change}. */
        void change(String change) {
            changes.add(change);
            longestWait.put(change, 0L);
        }

        String pauses() {
            return longestWait.entrySet().stream().map(e -> String.format("  %-40s %5.1f s%n", e.getKey(),
                    e.getValue() / 1e9)).collect(Collectors.joining());
        }

        /**
         * Polls until exactly the {@code live} instances are the group's members, stable, and
         * every input partition is assigned to one of them; each is ready; then until every logs
         * partition's commits have advanced again.
         */
        void awaitCovering(String what, String... live) throws Exception {
            awaitPolling(what, () -> {
                ConsumerGroupDescription group;
                try {
                    group = description();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException) {
                        return false; // no instance has joined yet
                    }
                    throw e;
                }
                if (group.groupState() != GroupState.STABLE || group.members().size() != live.length) {
                    return false;
                }
                int partitions = 0;
                for (String topic : sources()) {
                    // The internal topics appear once the first instance has created them.
                    partitions += KafkaTopics.partitions(admin, topic).orElse(0);
                }
                int assigned = group.members().stream().mapToInt(m -> m.assignment().topicPartitions().size()).sum();
                if (assigned != partitions) {
                    return false;
                }
                for (String name : live) {
                    if (metric(name, "rowflow_ready") != 1) {
                        return false;
                    }
                }
                return true;
            });
            // And every logs partition's commits advance again (or it has nothing pending): the
            // pause this change caused is over and counted for it.
            long covered = System.nanoTime();
            awaitPolling(what + ", every partition committing again",
                    () -> lastAdvanced.values().stream().allMatch(t -> t >= covered));
        }

        /** Polls until the group has committed every record of its inputs and of the internal topics. */
        void awaitAllCommitted() throws Exception {
            awaitPolling("every record committed", () -> {
                for (String topic : sources()) {
                    if (dev.rowflow.embedded.load.Offsets.uncommitted(admin, GROUP, topic) != 0) {
                        return false;
                    }
                }
                return true;
            });
        }

        private List<String> sources() {
            List<String> sources = new java.util.ArrayList<>(List.of(LOGS, CUSTOMERS, ORDERS));
            sources.addAll(dev.rowflow.pipeline.ingest.OrderIngest.internalTopics(GROUP));
            return sources;
        }

        ConsumerGroupDescription description() throws Exception {
            return admin.describeConsumerGroups(List.of(GROUP)).describedGroups().get(GROUP).get(30, TimeUnit.SECONDS);
        }

        double metric(String instance, String name) throws Exception {
            return metric(instance, name, Map.of());
        }

        double metric(String instance, String name, Map<String, String> labels) throws Exception {
            return instances.get(instance).metric(name, labels).orElse(-1);
        }

        /**
         * Polls until {@code done}, within 3 minutes: at every poll each instance is alive, the
         * data table holds at least as many rows as events committed, and each logs partition's
         * wait for its next commit is recorded.
         */
        private void awaitPolling(String what, Condition done) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (true) {
                for (Map.Entry<String, RowflowProcess> instance : instances.entrySet()) {
                    assertThat(instance.getValue().isAlive()).as("%s alive; its log:%n%s", instance.getKey(),
                            instance.getValue().logTail()).isTrue();
                }
                long committed = pollCommitted();
                long rows = dataRows();
                assertThat(rows).as("rows in HBase, read after %,d events were committed", committed)
                        .isGreaterThanOrEqualTo(committed);
                if (done.holds()) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    StringBuilder state = new StringBuilder();
                    for (Map.Entry<String, RowflowProcess> instance : instances.entrySet()) {
                        state.append(String.format("%n%s: ready %s, active tasks %s; its log ends:%n%s", instance.getKey(),
                                metric(instance.getKey(), "rowflow_ready"),
                                metric(instance.getKey(), "rowflow_streams_tasks", Map.of("kind", "active")),
                                instance.getValue().logTail()));
                    }
                    throw new AssertionError("no " + what + " within 3 minutes; group " + description() + state);
                }
                Thread.sleep(250);
            }
        }

        /** The logs topic's committed events; records how long each partition waited with records pending. */
        private long pollCommitted() throws Exception {
            Map<TopicPartition, Long> end = endOffsets();
            var offsets = admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get();
            long now = System.nanoTime();
            long sum = 0;
            String current = changes.get(changes.size() - 1);
            for (Map.Entry<TopicPartition, Long> partition : end.entrySet()) {
                var offset = offsets.get(partition.getKey());
                long committed = offset == null ? 0 : offset.offset();
                sum += committed;
                long previous = lastCommitted.getOrDefault(partition.getKey(), -1L);
                if (committed != previous || committed >= partition.getValue()) {
                    // Advanced, or nothing pending: its wait (if any) ends here.
                    Long since = lastAdvanced.get(partition.getKey());
                    if (since != null && committed != previous) {
                        longestWait.merge(current, now - since, Math::max);
                    }
                    lastAdvanced.put(partition.getKey(), now);
                    lastCommitted.put(partition.getKey(), committed);
                }
            }
            return sum;
        }

        private Map<TopicPartition, Long> endOffsets() throws Exception {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < LOG_PARTITIONS; p++) {
                latest.put(new TopicPartition(LOGS, p), OffsetSpec.latest());
            }
            return admin.listOffsets(latest).all().get().entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        }

        private long dataRows() throws Exception {
            try (org.apache.hadoop.hbase.client.Admin tables = hbase.getAdmin()) {
                if (!tables.tableExists(TableName.valueOf("rebalance_data"))) {
                    return 0; // the first instance has not created it yet
                }
            }
            try (Table table = hbase.getTable(TableName.valueOf("rebalance_data"));
                 ResultScanner scanner = table.getScanner(new Scan().setFilter(new org.apache.hadoop.hbase.filter.FilterList(
                         new FirstKeyOnlyFilter(), new KeyOnlyFilter())).setCaching(10_000))) {
                long rows = 0;
                while (scanner.next() != null) {
                    rows++;
                }
                return rows;
            }
        }

        @Override
        public void close() throws Exception {
            for (RowflowProcess instance : instances.values()) {
                instance.stop();
            }
            hbase.close();
        }
    }

    @FunctionalInterface
    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void verifyLogRows(RowflowConfig config, long events) throws Exception {
        try (Connection connection = ConnectionFactory.createConnection(stack.hbase().testingUtility().getConfiguration())) {
            LogRowsExactlyOnce.assertEveryEventOnce(connection, config, new LogEventGenerator(1_300, 150, EVENT_TIME),
                    events);
        }
    }

    /** Every order's rows exactly, each completed with its customer's fields, whenever the customer came. */
    private static void verifyOrderRows(RowflowConfig config, List<Order> orders) throws Exception {
        try (Connection connection = ConnectionFactory.createConnection(stack.hbase().testingUtility().getConfiguration())) {
            OrderRows rows = dev.rowflow.pipeline.ingest.OrderIngest.rows(config, new HBaseUidStore(connection,
                    TableName.valueOf(config.getString(RowflowConfig.UID_TABLE_CONFIG))));
            Map<Customer, Long> customers = new LinkedHashMap<>();
            for (int c = 1; c <= CUSTOMER_COUNT; c++) {
                customers.put(OrderGenerator.customer(c), CUSTOMER_TIME + c);
            }
            Map<String, Set<String>> expected = OrderTableContents.expected(rows, customers, orders,
                    order -> OrderGenerator.customer(Integer.parseInt(order.getCustomerNumber().substring(1))));
            assertThat(OrderTableContents.countOf(expected, TableRole.ORDER_INDEX)).isEqualTo(orders.size());
            assertThat(OrderTableContents.stored(connection, config, rows)).isEqualTo(expected);
        }
    }
}
