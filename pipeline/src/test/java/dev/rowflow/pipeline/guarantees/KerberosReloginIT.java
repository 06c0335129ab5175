package dev.rowflow.pipeline.guarantees;

import dev.rowflow.embedded.SecureEmbeddedStack;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.embedded.load.TableRows;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * rowflow stays logged in: tickets that live 30 s, a broker that makes every client
 * authenticate again every 10 s, HBase connections closed when idle for 5 s so that new ones
 * must authenticate, and records arriving in bursts over more than two ticket lifetimes. The
 * production jar renews its logins from its keytab (Hadoop's for HBase, Kafka's own for Kafka)
 * and writes every record exactly once.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@ExtendWith(ShortTickets.class)
class KerberosReloginIT {
    /**
     * 5 bursts 15 s apart: more than two ticket lifetimes, so rowflow renews its login twice at
     * least ({@code -Psoak}: 8, more than three).
     */
    private static final int BURSTS = Integer.getInteger("rowflow.relogin.bursts", 5);
    private static final int PER_BURST = 200;
    private static final Duration BETWEEN_BURSTS = Duration.ofSeconds(15);
    private static SecureEmbeddedStack stack;

    @BeforeAll
    static void stack(SecureEmbeddedStack shortTickets) {
        stack = shortTickets;
    }

    @Test
    void shouldWriteEveryRecordOnceOverTwoTicketLifetimes(@TempDir Path dir) throws Exception {
        assertThat(stack.kdc().ticketLifetime("rowflow", stack.keytab("rowflow")))
                .as("the KDC's tickets are short").isBetween(Duration.ofSeconds(25), Duration.ofSeconds(35));
        String topic = "relogin-logs";
        Map<String, Object> client = ShortTickets.testClient(stack);
        Path config = ShortTickets.writeConfig(stack, dir, topic, "it-kerberos-relogin", "relogin");

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
                    ShortTickets.awaitCommitted(admin, rowflow, "it-kerberos-relogin", topic, target, Duration.ofSeconds(60));
                    assertThat(TableRows.count(stack.hbase().connection(), "relogin_data"))
                            .as("rows after burst %d", burst).isEqualTo(target);
                    Thread.sleep(BETWEEN_BURSTS.toMillis());
                }
                assertThat(Duration.ofNanos(System.nanoTime() - started))
                        .as("the run spans two ticket lifetimes").isGreaterThan(ShortTickets.TICKET_LIFETIME.multipliedBy(2));
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
}
