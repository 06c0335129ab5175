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
 * rowflow stays logged in: tickets that live a minute, a broker that makes every client
 * authenticate again every 20 s, HBase connections closed when idle for 5 s so that new ones
 * must authenticate, and records arriving in bursts over more than three ticket lifetimes. The
 * production jar renews its logins from its keytab (Hadoop's for HBase, Kafka's own for Kafka)
 * and writes every record exactly once.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class KerberosReloginIT {
    private static final Duration TICKET_LIFETIME = Duration.ofSeconds(60);
    private static final int BURSTS = 14;
    private static final int PER_BURST = 200;
    private static final Duration BETWEEN_BURSTS = Duration.ofSeconds(15);
    private static SecureEmbeddedStack stack;

    @BeforeAll
    static void start() throws Throwable {
        stack = SecureEmbeddedStack.start(TICKET_LIFETIME, Duration.ofSeconds(20));
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
    void shouldWriteEveryRecordOnceOverThreeTicketLifetimes(@TempDir Path dir) throws Exception {
        assertThat(stack.kdc().ticketLifetime("rowflow", stack.keytab("rowflow")))
                .as("the KDC's tickets are short").isBetween(Duration.ofSeconds(55), Duration.ofSeconds(65));
        String topic = "relogin-logs";
        Map<String, Object> client = new LinkedHashMap<>(stack.kafkaClientProperties("producer"));
        // Kafka's login thread renews no sooner than this after a login (60 s by default, a whole
        // ticket here: it would give up).
        client.put("sasl.kerberos.min.time.before.relogin", "5000");
        Map<String, String> props = new LinkedHashMap<>(stack.rowflowProperties("rowflow"));
        props.put("kafka.state.dir", dir.resolve("state").toString());
        props.put("application.id", "it-kerberos-relogin");
        props.put("topic.logs", topic);
        props.put("table.log.data", "relogin_data");
        props.put("table.log.index", "relogin_index");
        props.put("table.log.summary", "relogin_summary");
        props.put("kafka.commit.interval.ms", "1000");
        props.put("kafka.sasl.kerberos.min.time.before.relogin", "5000");
        // Hadoop's relogin waits at least this long after the last one (60 s by default).
        props.put("hadoop.kerberos.min.seconds.before.relogin", "5");
        // Idle HBase connections close after 5 s: each burst opens new ones, which authenticate.
        props.put("hbase.ipc.client.connection.minIdleTimeBeforeClose", "5000");
        Path config = dir.resolve("rowflow.properties");
        Files.writeString(config, props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")));

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
                    awaitCommitted(admin, rowflow, topic, target);
                    assertThat(TableRows.count(stack.hbase().connection(), "relogin_data"))
                            .as("rows after burst %d", burst).isEqualTo(target);
                    Thread.sleep(BETWEEN_BURSTS.toMillis());
                }
                assertThat(Duration.ofNanos(System.nanoTime() - started))
                        .as("the run spans three ticket lifetimes").isGreaterThan(TICKET_LIFETIME.multipliedBy(3));
                assertThat(rowflow.terminate()).as("exit status after SIGTERM; log:%n%s", rowflow.logTail()).isZero();
                String log = Files.readString(dir.resolve("rowflow.log"));
                assertThat(log.split("Kerberos: renewed the login of rowflow@" + stack.kdc().realm(), -1).length - 1)
                        .as("renewals of rowflow's HBase login; log:%n%s", rowflow.logTail()).isGreaterThanOrEqualTo(3);
            } finally {
                rowflow.kill();
            }
        }
        assertThat(TableRows.count(stack.hbase().connection(), "relogin_data")).isEqualTo(BURSTS * PER_BURST);
        assertThat(TableRows.count(stack.hbase().connection(), "relogin_index")).isEqualTo(BURSTS * PER_BURST);
    }

    private static void awaitCommitted(Admin admin, RowflowProcess rowflow, String topic, long expected)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (Offsets.committed(admin, "it-kerberos-relogin", topic) < expected && System.nanoTime() < deadline) {
            assertThat(rowflow.isAlive()).as("rowflow alive; its log:%n%s", rowflow.logTail()).isTrue();
            Thread.sleep(200);
        }
        assertThat(Offsets.committed(admin, "it-kerberos-relogin", topic))
                .as("committed; rowflow's log:%n%s", rowflow.logTail()).isEqualTo(expected);
    }
}
