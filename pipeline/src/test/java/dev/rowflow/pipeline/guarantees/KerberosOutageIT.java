package dev.rowflow.pipeline.guarantees;

import dev.rowflow.embedded.SecureEmbeddedStack;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.embedded.load.Offsets;
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
 * A KDC unreachable while rowflow runs, for longer than its tickets live (30 s tickets, the broker
 * making clients authenticate again every 10 s): rowflow stays up, commits nothing past what it
 * wrote, and logs in again by itself when the KDC answers, every record written once.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@ExtendWith(ShortTickets.class)
class KerberosOutageIT {
    private static final int PER_BURST = 200;
    /**
     * Longer than a ticket lives and the broker's re-authentication interval on top: the last of
     * the bursts during it comes after both.
     */
    private static final Duration OUTAGE = Duration.ofSeconds(48);
    private static final int OUTAGE_BURSTS = 4;
    private static SecureEmbeddedStack stack;

    @BeforeAll
    static void stack(SecureEmbeddedStack shortTickets) {
        stack = shortTickets;
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
        Map<String, Object> client = ShortTickets.testClient(stack);
        // While the KDC is down no client can log in: the test produces and reads offsets through
        // the broker's own plaintext listener, as clients unaffected by the realm's outage would.
        Map<String, Object> plaintext = Map.of("bootstrap.servers", stack.kafka().internalBootstrapServers().orElseThrow());
        Path config = ShortTickets.writeConfig(stack, dir, topic, "it-kerberos-outage", "outage");
        try (Admin admin = Admin.create(plaintext)) {
            KafkaTopics.createIfAbsent(admin, topic, Optional.of(2), Duration.ofSeconds(30));
            RowflowProcess rowflow = RowflowProcess.start(config, dir, stack.jvmOptions());
            try {
                LogEventGenerator events = new LogEventGenerator(36, 20, 1_700_000_000_000L);
                try (LogEventProducer producer = LogEventProducer.open(client, topic)) {
                    producer.sendAll(events, PER_BURST, () -> false);
                }
                ShortTickets.awaitCommitted(admin, rowflow, "it-kerberos-outage", topic, PER_BURST, Duration.ofSeconds(60));

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
                        .isGreaterThan(ShortTickets.TICKET_LIFETIME.plus(ShortTickets.REAUTHENTICATION));
                long total = (long) (1 + OUTAGE_BURSTS) * PER_BURST;
                ShortTickets.awaitCommitted(admin, rowflow, "it-kerberos-outage", topic, total, Duration.ofSeconds(180));
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
}
