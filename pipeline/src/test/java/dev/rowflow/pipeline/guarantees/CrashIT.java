package dev.rowflow.pipeline.guarantees;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.embedded.load.Offsets;
import dev.rowflow.keying.TableRole;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import dev.rowflow.sinks.hbase.DualWriteIndex;
import dev.rowflow.sinks.hbase.IndexReport;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nothing lost, nothing doubled, when the process is killed: the production jar in its own JVM is
 * killed with SIGKILL three times at random points of 60,000 events (in {@code -Psoak}: five times
 * in 300,000) and restarted each time; in the end every event is in HBase exactly once, each event's
 * cells carry only its event time (a replay rewrote them), the summary counts each event once, and
 * the index verifies clean.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class CrashIT {
    /** Events and kills of a run: the default suite's, or the soak's ({@code -Psoak} sets both). */
    private static final int EVENTS = Integer.getInteger("rowflow.crash.events", 60_000);
    private static final int KILLS = Integer.getInteger("rowflow.crash.kills", 3);
    private static final String TOPIC = "crash-logs";
    private static final String GROUP = "it-crash";
    private static EmbeddedStack stack;

    @BeforeAll
    static void shareStack(EmbeddedStack shared) {
        stack = shared;
    }

    @Test
    void shouldHaveEveryEventExactlyOnceAfterKillsAndRestarts(@TempDir Path dir) throws Exception {
        Map<String, String> props = new LinkedHashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, GROUP);
        props.put(RowflowConfig.LOGS_TOPIC_CONFIG, TOPIC);
        props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, "crash_data");
        props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, "crash_index");
        props.put(RowflowConfig.LOG_SUMMARY_TABLE_CONFIG, "crash_summary");
        props.put(RowflowConfig.LOG_DATA_LAYOUT_CONFIG, "bucket(8) | timestamp:ts, hostname:text, eventType:text");
        // Commits every 2 s, so a kill always leaves written-but-uncommitted rows to be replayed.
        props.put("kafka.commit.interval.ms", "2000");
        // A killed instance leaves the group when its session times out: the broker's least, 6 s,
        // not 45 s, before the restarted one gets its tasks.
        props.put("kafka.session.timeout.ms", "6000");
        props.put("kafka.heartbeat.interval.ms", "1000");
        Path configFile = dir.resolve("rowflow.properties");
        Files.writeString(configFile, props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")));
        Map<String, Object> kafka = Map.of("bootstrap.servers", stack.kafka().bootstrapServers());
        try (Admin admin = Admin.create(kafka)) {
            KafkaTopics.createIfAbsent(admin, TOPIC, Optional.of(4), Duration.ofSeconds(30));
            // Kill points drawn at random between 5% and 90% of the run (the seed is printed, so a
            // failing run can be replayed with -Drowflow.crash.seed=...).
            long seed = Long.getLong("rowflow.crash.seed", System.nanoTime());
            System.out.println("CrashIT seed " + seed);
            java.util.Random random = new java.util.Random(seed);
            long[] killPoints = random.longs(KILLS, EVENTS / 20, EVENTS * 9L / 10).sorted().toArray();
            try (LogEventProducer producer = LogEventProducer.open(kafka, TOPIC)) {
                LogEventGenerator events = new LogEventGenerator(1_300, 150, 1_700_000_000_000L);
                long produced = 0;
                for (long killAt : killPoints) {
                    // The topic holds well past the kill point but never all events, so the kill
                    // comes mid-run however fast the machine: a whole backlog could be committed
                    // between two polls, and the kill would find nothing left to do.
                    long upTo = Math.min(EVENTS - 1_000L, killAt + EVENTS / 4);
                    produced += producer.sendAll(events, Math.max(0, upTo - produced), () -> false);
                    RowflowProcess rowflow = RowflowProcess.start(configFile, dir, List.of("-Xmx512m"));
                    long committed = awaitCommitted(admin, killAt, rowflow);
                    rowflow.kill();
                    assertThat(committed).as("killed mid-run (seed %d)", seed).isBetween(killAt, produced);
                }
                producer.sendAll(events, EVENTS - produced, () -> false);
            }
            RowflowProcess rowflow = RowflowProcess.start(configFile, dir, List.of("-Xmx512m"));
            try {
                awaitCommitted(admin, EVENTS, rowflow);
            } finally {
                rowflow.stop();
            }
        }

        RowflowConfig config = new RowflowConfig(props);
        try (Connection connection = ConnectionFactory.createConnection(stack.hbase().testingUtility().getConfiguration())) {
            LogRowsExactlyOnce.assertEveryEventOnce(connection, config,
                    new LogEventGenerator(1_300, 150, 1_700_000_000_000L), EVENTS);
            var logs = dev.rowflow.pipeline.ingest.LogIngest.of(config, null);
            IndexReport report = new DualWriteIndex(connection, logs.table(TableRole.LOG_DATA).orElseThrow(),
                    logs.table(TableRole.LOG_INDEX).orElseThrow(), logs.indexMapping(), TableRole.LOG_INDEX).verify(10);
            assertThat(report.clean()).as("%s", report).isTrue();
            assertThat(report.indexRows()).isEqualTo(EVENTS);
        }
    }

    private static long awaitCommitted(Admin admin, long target, RowflowProcess rowflow) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
        long committed = 0;
        while (System.nanoTime() < deadline) {
            assertThat(rowflow.isAlive()).as("rowflow alive; its log:%n%s", rowflow.logTail()).isTrue();
            committed = Offsets.committed(admin, GROUP, TOPIC);
            if (committed >= target) {
                return committed;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("only " + committed + " of " + target + " committed; log:\n" + rowflow.logTail());
    }
}
