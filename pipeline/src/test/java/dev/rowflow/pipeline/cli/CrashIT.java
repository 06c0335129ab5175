package dev.rowflow.pipeline.cli;

import dev.rowflow.embedded.load.Offsets;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import dev.rowflow.sinks.hbase.IndexReport;
import dev.rowflow.sinks.hbase.DualWriteIndex;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nothing lost, nothing doubled, when the process is killed: the production jar in its own JVM is
 * killed with SIGKILL five times at random points of 300,000 events and restarted each time; in
 * the end every event is in HBase exactly once, each event's cells carry only its event time (a
 * replay rewrote them), the summary counts each event once, and the index verifies clean.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class CrashIT {
    private static final int EVENTS = 300_000;
    private static final int KILLS = 5;
    private static final String TOPIC = "crash-logs";
    private static final String GROUP = "it-crash";
    private static EmbeddedStack stack;

    @BeforeAll
    static void shareStack(EmbeddedStack shared) {
        stack = shared;
    }

    @Test
    void shouldHaveEveryEventExactlyOnceAfterFiveKillsAndRestarts(@TempDir Path dir) throws Exception {
        Map<String, String> props = new LinkedHashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, GROUP);
        props.put(RowflowConfig.LOGS_TOPIC_CONFIG, TOPIC);
        props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, "crash_data");
        props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, "crash_index");
        props.put(RowflowConfig.LOG_SUMMARY_TABLE_CONFIG, "crash_summary");
        props.put(RowflowConfig.LOG_DATA_LAYOUT_CONFIG, "bucket(8) | timestamp:ts, hostname:text, eventType:text");
        // Commits every 2 s, so a kill always leaves written-but-uncommitted rows to be replayed.
        props.put("kafka.commit.interval.ms", "2000");
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
        LogEventRows rows = config.logEventRows(null);
        Set<ByteBuffer> expected = new HashSet<>();
        LogEventGenerator generator = new LogEventGenerator(1_300, 150, 1_700_000_000_000L);
        Map<ByteBuffer, Long> eventTime = new HashMap<>();
        Map<String, Long> summaryCounts = new java.util.TreeMap<>();
        dev.rowflow.keying.log.LogSummary summary = new dev.rowflow.keying.log.LogSummary();
        for (int i = 0; i < EVENTS; i++) {
            LogEvent event = generator.next();
            summaryCounts.merge(org.apache.hadoop.hbase.util.Bytes.toStringBinary(summary.key(event.getHostname(),
                    event.getEventType(), event.getTimestamp().toEpochMilli())), 1L, Long::sum);
            ByteBuffer key = ByteBuffer.wrap(rows.dataLayout().encode(event));
            expected.add(key);
            eventTime.put(key, event.getTimestamp().toEpochMilli());
        }
        try (Connection connection = ConnectionFactory.createConnection(stack.hbase().testingUtility().getConfiguration())) {
            Set<ByteBuffer> found = new HashSet<>();
            try (Table data = connection.getTable(TableName.valueOf("crash_data"));
                 ResultScanner scanner = data.getScanner(new Scan().setRaw(true).readAllVersions().setCaching(5_000))) {
                for (Result row : scanner) {
                    ByteBuffer key = ByteBuffer.wrap(row.getRow());
                    found.add(key);
                    for (Cell cell : row.rawCells()) {
                        // Every version of every cell -- the replayed ones too -- at the event time.
                        assertThat(cell.getTimestamp()).isEqualTo(eventTime.get(key));
                    }
                }
            }
            assertThat(found).hasSize(EVENTS).isEqualTo(expected);
            var tables = config.logTables(rows);
            IndexReport report = new DualWriteIndex(connection, tables.get(TableRole.LOG_DATA), tables.get(TableRole.LOG_INDEX),
                    rows).verify(10);
            assertThat(report.clean()).as("%s", report).isTrue();
            assertThat(report.indexRows()).isEqualTo(EVENTS);

            // The summary counters, incremented through every crash and replay: each event once.
            Map<String, Long> counted = new java.util.TreeMap<>();
            try (Table table = connection.getTable(TableName.valueOf("crash_summary"));
                 ResultScanner scanner = table.getScanner(new Scan())) {
                for (Result row : scanner) {
                    counted.put(org.apache.hadoop.hbase.util.Bytes.toStringBinary(row.getRow()),
                            org.apache.hadoop.hbase.util.Bytes.toLong(row.getValue(
                                    dev.rowflow.keying.log.LogSummary.FAMILY, dev.rowflow.keying.log.LogSummary.COUNT)));
                }
            }
            assertThat(counted).isEqualTo(summaryCounts);
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
