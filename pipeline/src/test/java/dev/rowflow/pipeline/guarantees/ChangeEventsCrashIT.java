package dev.rowflow.pipeline.guarantees;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.embedded.load.Offsets;
import dev.rowflow.embedded.load.ShopHistory;
import dev.rowflow.embedded.load.TopicProducer;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Change events exactly once, end to end: a shop database's history ({@link ShopHistory}: 10,000
 * changes of customers and orders, in {@code -Psoak} 30,000; orders joined with their customers) applied by the production
 * jar in JVMs of its own, which are killed with SIGKILL at random points and restarted, a second
 * instance joining the group (a rebalance) before one of the kills. In the end the tables equal
 * the database the history leaves: every order with its customer's present name, every customer,
 * every index row, nothing of a deleted row, nothing doubled.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class ChangeEventsCrashIT {
    private static final String NAME = "crashshop";
    private static final String GROUP = "it-cdc-crash";
    /** Changes of the history: the default suite's, or the soak's ({@code -Psoak} sets it). */
    private static final int CHANGES = Integer.getInteger("rowflow.crash.changes", 10_000);
    private static final int KILLS = 3;
    private static final List<String> JVM_OPTIONS = List.of("-Xmx512m");
    private static EmbeddedStack stack;

    @BeforeAll
    static void shareStack(EmbeddedStack shared) {
        stack = shared;
    }

    @Test
    void shouldEndWithTheDatabasesRowsAfterKillsAndARebalance(@TempDir Path dir) throws Exception {
        Map<String, String> mapping = ShopHistory.mapping(NAME);
        Map<String, String> props = new LinkedHashMap<>(stack.rowflowProperties());
        props.putAll(mapping);
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, GROUP);
        // Commits every 2 s, so a kill always leaves written-but-uncommitted changes to be replayed.
        props.put("kafka.commit.interval.ms", "2000");
        // A killed instance leaves the group when its session times out: the broker's least, 6 s,
        // not 45 s, before the restarted one gets its tasks.
        props.put("kafka.session.timeout.ms", "6000");
        props.put("kafka.heartbeat.interval.ms", "1000");
        Path configFile = dir.resolve("rowflow.properties");
        Files.writeString(configFile, props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")));
        List<String> topics = List.of(mapping.get("input.customers.topic"), mapping.get("input.orders.topic"));
        Map<String, Object> kafka = Map.of("bootstrap.servers", stack.kafka().bootstrapServers());
        ShopHistory history = new ShopHistory(CHANGES, 1_795_000_000_000L, 30);
        List<ShopHistory.Event> events = history.events();
        long seed = Long.getLong("rowflow.crash.seed", System.nanoTime());
        System.out.println("ChangeEventsCrashIT seed " + seed);
        java.util.Random random = new java.util.Random(seed);
        long[] killPoints = random.longs(KILLS, events.size() / 20, events.size() * 8L / 10).sorted().toArray();
        try (Admin admin = Admin.create(kafka)) {
            for (String topic : topics) {
                KafkaTopics.createIfAbsent(admin, topic, Optional.of(4), Duration.ofSeconds(30));
            }
        }
        try (Admin admin = Admin.create(kafka);
             TopicProducer customers = TopicProducer.open(kafka, topics.get(0));
             TopicProducer orders = TopicProducer.open(kafka, topics.get(1))) {
            int produced = 0;
            for (int kill = 0; kill < KILLS; kill++) {
                // The topics hold well past the kill point but never all changes, so the kill comes mid-run.
                int upTo = (int) Math.min(events.size() - 500L, killPoints[kill] + events.size() / 5);
                produced = send(events, produced, upTo, customers, orders);
                List<RowflowProcess> live = new ArrayList<>();
                live.add(RowflowProcess.start(configFile, dir.resolve("rowflow-a.log"), JVM_OPTIONS,
                        Map.of("ROWFLOW_CONFIG_KAFKA_STATE_DIR", dir.resolve("state-a").toString())));
                if (kill == 1) {
                    // A second instance joins: the tasks are shared out again, then one instance is killed.
                    awaitCommitted(admin, topics, (killPoints[kill] + killPoints[kill - 1]) / 2, live);
                    live.add(RowflowProcess.start(configFile, dir.resolve("rowflow-b.log"), JVM_OPTIONS,
                            Map.of("ROWFLOW_CONFIG_KAFKA_STATE_DIR", dir.resolve("state-b").toString())));
                }
                long committed = awaitCommitted(admin, topics, killPoints[kill], live);
                for (RowflowProcess process : live) {
                    process.kill();
                }
                assertThat(committed).as("killed mid-run (seed %d)", seed).isBetween(killPoints[kill], (long) produced);
            }
            send(events, produced, events.size(), customers, orders);
            RowflowProcess rowflow = RowflowProcess.start(configFile, dir.resolve("rowflow-a.log"), JVM_OPTIONS,
                    Map.of("ROWFLOW_CONFIG_KAFKA_STATE_DIR", dir.resolve("state-a").toString()));
            try {
                assertThat(Offsets.awaitCommittedThroughInternalTopics(admin, GROUP, topics, 3,
                        Duration.ofMinutes(4), committed -> assertThat(rowflow.isAlive())
                                .as("rowflow alive; its log:%n%s", rowflow.logTail()).isTrue()))
                        .as("every change committed (seed %d)", seed).isTrue();
            } finally {
                rowflow.stop();
            }
        }
        try (Connection connection = ConnectionFactory.createConnection(stack.hbase().testingUtility().getConfiguration())) {
            assertThat(history.differenceList(connection, NAME))
                    .as("rows not as the database has them (seed %d)", seed).isEmpty();
        }
    }

    /** Sends events {@code from} (inclusive) to {@code to} (exclusive), each to its table's topic; returns {@code to}. */
    private static int send(List<ShopHistory.Event> events, int from, int to, TopicProducer customers,
                            TopicProducer orders) {
        for (ShopHistory.Event event : events.subList(from, to)) {
            (event.customer() ? customers : orders).send(event.key(), null,
                    event.value() == null ? null : event.value().getBytes(StandardCharsets.UTF_8));
        }
        customers.flush();
        orders.flush();
        return to;
    }

    /** Waits until the group has committed {@code target} records of the two topics together; returns how many. */
    private static long awaitCommitted(Admin admin, List<String> topics, long target, List<RowflowProcess> live)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
        long committed = 0;
        while (System.nanoTime() < deadline) {
            for (RowflowProcess process : live) {
                assertThat(process.isAlive()).as("rowflow alive; its log:%n%s", process.logTail()).isTrue();
            }
            committed = 0;
            for (String topic : topics) {
                committed += Offsets.committed(admin, GROUP, topic);
            }
            if (committed >= target) {
                return committed;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("only " + committed + " of " + target + " committed; log:\n" + live.get(0).logTail());
    }
}
