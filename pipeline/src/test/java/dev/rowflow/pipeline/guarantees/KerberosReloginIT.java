package dev.rowflow.pipeline.guarantees;

import dev.rowflow.embedded.SecureEmbeddedStack;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.embedded.load.Offsets;
import dev.rowflow.embedded.load.TableRows;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import org.apache.hadoop.hbase.security.access.AccessControlClient;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * rowflow stays logged in: tickets that live 30 s, a broker that makes every client
 * authenticate again every 10 s, HBase connections closed when idle for 5 s so that new ones
 * must authenticate, and records arriving in bursts over more than two ticket lifetimes. The
 * production jar renews its logins from its keytab (Hadoop's for HBase, Kafka's own for Kafka)
 * and writes every record exactly once.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class KerberosReloginIT {
    private static final Duration TICKET_LIFETIME = Duration.ofSeconds(30);
    private static final Duration REAUTHENTICATION = Duration.ofSeconds(10);
    /**
     * 5 bursts 15 s apart: more than two ticket lifetimes, so rowflow renews its login twice at
     * least ({@code -Psoak}: 8, more than three).
     */
    private static final int BURSTS = Integer.getInteger("rowflow.relogin.bursts", 5);
    private static final int PER_BURST = 200;
    private static final Duration BETWEEN_BURSTS = Duration.ofSeconds(15);
    /**
     * Longer than a ticket lives and the broker's re-authentication interval on top: the last of
     * the bursts during it comes after both.
     */
    private static final Duration OUTAGE = Duration.ofSeconds(48);
    private static final int OUTAGE_BURSTS = 4;
    private static SecureEmbeddedStack stack;

    @BeforeAll
    static void start() throws Throwable {
        stack = SecureEmbeddedStack.start(TICKET_LIFETIME, REAUTHENTICATION);
        AccessControlClient.grant(stack.hbase().connection(), "default", "rowflow", Permission.Action.CREATE,
                Permission.Action.READ, Permission.Action.WRITE);
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void shouldWriteEveryRecordOnceOverTwoTicketLifetimes(@TempDir Path dir) throws Exception {
        assertThat(stack.kdc().ticketLifetime("rowflow", stack.keytab("rowflow")))
                .as("the KDC's tickets are short").isBetween(Duration.ofSeconds(25), Duration.ofSeconds(35));
        String topic = "relogin-logs";
        Map<String, Object> client = testClient();
        Path config = writeConfig(dir, topic, "it-kerberos-relogin", "relogin");

        long started = System.nanoTime();
        try (Admin admin = Admin.create(client)) {
            KafkaTopics.createIfAbsent(admin, topic, Optional.of(2), Duration.ofSeconds(30));
            RowflowProcess rowflow = RowflowProcess.start(config, dir, stack.jvmOptions());
            try {
                LogEventGenerator events = new LogEventGenerator(36, 20, 1_700_000_000_000L);
                for (int burst = 1; burst <= BURSTS; burst++) {
                    // A producer of its own per burst: the test's client logs in afresh each time.
                    try (LogEventProducer producer = LogEventProducer.open(client, topic)) {
                        producer.sendAll(events, PER_BURST, () -> false);
                    }
                    long target = (long) burst * PER_BURST;
                    awaitCommitted(admin, rowflow, "it-kerberos-relogin", topic, target, Duration.ofSeconds(60));
                    assertThat(TableRows.count(stack.hbase().connection(), "relogin_data"))
                            .as("rows after burst %d", burst).isEqualTo(target);
                    Thread.sleep(BETWEEN_BURSTS.toMillis());
                }
                assertThat(Duration.ofNanos(System.nanoTime() - started))
                        .as("the run spans two ticket lifetimes").isGreaterThan(TICKET_LIFETIME.multipliedBy(2));
                assertThat(rowflow.terminate()).as("exit status after SIGTERM; log:%n%s", rowflow.logTail()).isZero();
                String log = Files.readString(dir.resolve("rowflow.log"));
                assertThat(log.split("Kerberos: renewed the login of rowflow@" + stack.kdc().realm(), -1).length - 1)
                        .as("renewals of rowflow's HBase login; log:%n%s", rowflow.logTail()).isGreaterThanOrEqualTo(2);
            } finally {
                rowflow.kill();
            }
        }
        assertThat(TableRows.count(stack.hbase().connection(), "relogin_data")).isEqualTo(BURSTS * PER_BURST);
        assertThat(TableRows.count(stack.hbase().connection(), "relogin_index")).isEqualTo(BURSTS * PER_BURST);
    }

    /**
     * The KDC down for longer than a ticket lives, while records keep arriving: every ticket
     * rowflow holds expires, its relogins fail, the broker's re-authentications and new HBase
     * connections find no ticket. rowflow stays up, holds its offsets, and once the KDC answers
     * again logs in and writes every record exactly once.
     */
    @Test
    void shouldWaitOutAKdcOutageAndWriteEveryRecordOnce(@TempDir Path dir) throws Exception {
        String topic = "outage-logs";
        Map<String, Object> client = testClient();
        // While the KDC is down no client can log in: the test produces and reads offsets through
        // the broker's own plaintext listener, as clients unaffected by the realm's outage would.
        Map<String, Object> plaintext = Map.of("bootstrap.servers", stack.kafka().internalBootstrapServers().orElseThrow());
        Path config = writeConfig(dir, topic, "it-kerberos-outage", "outage");
        try (Admin admin = Admin.create(plaintext)) {
            KafkaTopics.createIfAbsent(admin, topic, Optional.of(2), Duration.ofSeconds(30));
            RowflowProcess rowflow = RowflowProcess.start(config, dir, stack.jvmOptions());
            try {
                LogEventGenerator events = new LogEventGenerator(36, 20, 1_700_000_000_000L);
                try (LogEventProducer producer = LogEventProducer.open(client, topic)) {
                    producer.sendAll(events, PER_BURST, () -> false);
                }
                awaitCommitted(admin, rowflow, "it-kerberos-outage", topic, PER_BURST, Duration.ofSeconds(60));

                long down = System.nanoTime();
                stack.kdc().setReachable(false);
                try (LogEventProducer producer = LogEventProducer.open(plaintext, topic)) {
                    for (int burst = 1; burst <= OUTAGE_BURSTS; burst++) {
                        producer.sendAll(events, PER_BURST, () -> false);
                        Thread.sleep(OUTAGE.dividedBy(OUTAGE_BURSTS).toMillis());
                        assertThat(rowflow.isAlive()).as("rowflow alive with the KDC down; its log:%n%s",
                                rowflow.logTail()).isTrue();
                    }
                    // The last burst came when every ticket rowflow got before the outage had expired:
                    // it could neither authenticate a new HBase connection nor stay on the broker.
                    long total = (long) (1 + OUTAGE_BURSTS) * PER_BURST;
                    assertThat(Offsets.committed(admin, "it-kerberos-outage", topic))
                            .as("committed while no ticket was valid").isLessThan(total);
                } finally {
                    stack.kdc().setReachable(true);
                }
                assertThat(Duration.ofNanos(System.nanoTime() - down)).as("the KDC was down longer than a ticket lives and a re-authentication interval")
                        .isGreaterThan(TICKET_LIFETIME.plus(REAUTHENTICATION));
                long total = (long) (1 + OUTAGE_BURSTS) * PER_BURST;
                awaitCommitted(admin, rowflow, "it-kerberos-outage", topic, total, Duration.ofSeconds(180));
                assertThat(TableRows.count(stack.hbase().connection(), "outage_data")).isEqualTo(total);
                assertThat(TableRows.count(stack.hbase().connection(), "outage_index")).isEqualTo(total);
                assertThat(rowflow.terminate()).as("exit status after SIGTERM; log:%n%s", rowflow.logTail()).isZero();
                assertThat(Files.readString(dir.resolve("rowflow.log")))
                        .as("rowflow felt the outage").contains("Kerberos relogin from the keytab failed");
            } finally {
                stack.kdc().setReachable(true);
                rowflow.kill();
            }
        }
    }

    /** The test's own Kafka clients: a principal of their own, renewing as rowflow does. */
    private static Map<String, Object> testClient() {
        Map<String, Object> client = new LinkedHashMap<>(stack.kafkaClientProperties("producer"));
        // Kafka's login thread renews no sooner than this after a login (60 s by default, longer than a
        // ticket here: its refresh thread would exit at once).
        client.put("sasl.kerberos.min.time.before.relogin", "5000");
        return client;
    }

    /** rowflow's configuration for {@code user} rowflow, with renewals as often as Kerberos lets them. */
    private static Path writeConfig(Path dir, String topic, String applicationId, String tablePrefix)
            throws Exception {
        Map<String, String> props = new LinkedHashMap<>(stack.rowflowProperties("rowflow"));
        props.put("kafka.state.dir", dir.resolve("state").toString());
        props.put("application.id", applicationId);
        props.put("topic.logs", topic);
        props.put("table.log.data", tablePrefix + "_data");
        props.put("table.log.index", tablePrefix + "_index");
        props.put("table.log.summary", tablePrefix + "_summary");
        props.put("kafka.commit.interval.ms", "1000");
        props.put("kafka.sasl.kerberos.min.time.before.relogin", "5000");
        // Hadoop's relogin waits at least this long after the last one (60 s by default).
        props.put("hadoop.kerberos.min.seconds.before.relogin", "5");
        // Idle HBase connections close after 5 s: each burst opens new ones, which authenticate.
        props.put("hbase.ipc.client.connection.minIdleTimeBeforeClose", "5000");
        Path config = dir.resolve("rowflow.properties");
        Files.writeString(config, props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")));
        return config;
    }

    private static void awaitCommitted(Admin admin, RowflowProcess rowflow, String group, String topic,
                                       long expected, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (Offsets.committed(admin, group, topic) < expected && System.nanoTime() < deadline) {
            assertThat(rowflow.isAlive()).as("rowflow alive; its log:%n%s", rowflow.logTail()).isTrue();
            Thread.sleep(200);
        }
        assertThat(Offsets.committed(admin, group, topic))
                .as("committed; rowflow's log:%n%s", rowflow.logTail()).isEqualTo(expected);
    }
}
