package dev.rowflow.pipeline.guarantees;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.embedded.WriteFaults;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.embedded.load.Offsets;
import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Put;
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
 * Slow HBase: every write batch to the data and index tables waits on the region server
 * ({@link WriteFaults}) while a backlog larger than the pipeline's heap waits on the topic. The
 * production jar, in its own JVM with a small heap and default buffer settings, slows down instead
 * of filling its memory -- the write buffer blocks the stream thread, which stops polling -- and
 * speeds up again when HBase does; in the end every event once.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class SlowHBaseIT {
    private static final int EVENTS = 200_000;
    private static final int HEAP_MB = 128;
    private static final Duration LATENCY = Duration.ofMillis(300);
    private static final String TOPIC = "slow-logs";
    private static final String GROUP = "it-slow";
    private static final TableName DATA = TableName.valueOf("slow_data");
    private static final TableName INDEX = TableName.valueOf("slow_index");
    private static EmbeddedStack stack;

    @BeforeAll
    static void shareStack(EmbeddedStack shared) {
        stack = shared;
    }

    @Test
    void shouldSlowDownWithBoundedMemoryAndRecoverWhenHBaseIsSlow(@TempDir Path dir) throws Exception {
        Map<String, String> props = new LinkedHashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, GROUP);
        props.put(RowflowConfig.LOGS_TOPIC_CONFIG, TOPIC);
        props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, DATA.getNameAsString());
        props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, INDEX.getNameAsString());
        props.put(RowflowConfig.LOG_SUMMARY_TABLE_CONFIG, "slow_summary");
        props.put(RowflowConfig.LOG_DATA_LAYOUT_CONFIG, "bucket(4) | timestamp:ts, hostname:text, eventType:text");
        // Commits every second, so progress is visible in the committed offsets.
        props.put("kafka.commit.interval.ms", "1000");
        Path configFile = dir.resolve("rowflow.properties");
        Files.writeString(configFile, props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")));

        // What the backlog would take on the heap as Puts: a pipeline that buffered it could not
        // run in HEAP_MB.
        LogEventRows rows = dev.rowflow.pipeline.ingest.LogIngest.rows(new RowflowConfig(props), null);
        LogEventGenerator sizing = new LogEventGenerator(77, 120, 1_700_000_000_000L);
        long backlogPutBytes = 0;
        for (int i = 0; i < EVENTS; i++) {
            for (Row row : rows.rowsOf(sizing.next())) {
                Put put = new Put(row.key(), row.timestamp());
                for (Cell cell : row.cells()) {
                    put.addColumn(cell.family(), cell.qualifier(), row.timestamp(), cell.value());
                }
                backlogPutBytes += put.heapSize();
            }
        }
        assertThat(backlogPutBytes).as("the backlog's Puts on the heap").isGreaterThan(2L * HEAP_MB << 20);

        // Slow from the moment the tables exist: the latency is set before the coprocessor is installed.
        WriteFaults.slow(DATA, LATENCY);
        WriteFaults.slow(INDEX, LATENCY);
        Map<String, Object> kafka = Map.of("bootstrap.servers", stack.kafka().bootstrapServers());
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(kafka)) {
            KafkaTopics.createIfAbsent(admin, TOPIC, Optional.of(2), Duration.ofSeconds(30));
            try (LogEventProducer producer = LogEventProducer.open(kafka, TOPIC)) {
                producer.sendAll(new LogEventGenerator(77, 120, 1_700_000_000_000L), EVENTS, () -> false);
            }
            RowflowProcess rowflow = RowflowProcess.start(configFile, dir,
                    List.of("-Xmx" + HEAP_MB + "m", "-XX:+ExitOnOutOfMemoryError"));
            try {
                awaitTables(rowflow);
                stack.hbase().injectWriteFaults(DATA);
                stack.hbase().injectWriteFaults(INDEX);

                // Slow phase: 20 s of committed progress, the heap sampled every second.
                long slowStart = System.nanoTime();
                long committedAtSlowStart = committed(admin);
                double peakHeap = 0;
                while (System.nanoTime() - slowStart < TimeUnit.SECONDS.toNanos(20)) {
                    assertThat(rowflow.isAlive()).as("rowflow alive; its log:%n%s", rowflow.logTail()).isTrue();
                    peakHeap = Math.max(peakHeap, rowflow.metric("jvm_memory_used_bytes", Map.of("area", "heap")).orElse(0));
                    Thread.sleep(1_000);
                }
                long committedAtSlowEnd = committed(admin);
                double slowRate = (committedAtSlowEnd - committedAtSlowStart)
                        / ((System.nanoTime() - slowStart) / 1e9);
                long batchesWhileSlow = WriteFaults.batches(DATA) + WriteFaults.batches(INDEX);

                // HBase fast again.
                WriteFaults.release(DATA);
                WriteFaults.release(INDEX);
                long fastStart = System.nanoTime();
                long committed = committedAtSlowEnd;
                long deadline = fastStart + TimeUnit.MINUTES.toNanos(3);
                while (committed < EVENTS && System.nanoTime() < deadline) {
                    assertThat(rowflow.isAlive()).as("rowflow alive; its log:%n%s", rowflow.logTail()).isTrue();
                    peakHeap = Math.max(peakHeap, rowflow.metric("jvm_memory_used_bytes", Map.of("area", "heap")).orElse(0));
                    Thread.sleep(250);
                    committed = committed(admin);
                }
                double fastRate = (committed - committedAtSlowEnd) / ((System.nanoTime() - fastStart) / 1e9);
                long peakRss = rowflow.peakRssBytes();
                System.out.printf("SlowHBaseIT: %d write batches delayed %d ms; %.0f events/s while slow, %.0f after "
                                + "(x%.1f); backlog as Puts %d MB, peak heap used %.0f MB of %d MB, peak RSS %d MB%n",
                        batchesWhileSlow, LATENCY.toMillis(), slowRate, fastRate, fastRate / slowRate,
                        backlogPutBytes >> 20, peakHeap / (1 << 20), HEAP_MB, peakRss >> 20);

                assertThat(committed).as("committed after HBase recovered; log:%n%s", rowflow.logTail())
                        .isEqualTo(EVENTS);
                assertThat(batchesWhileSlow).as("write batches that met the latency").isPositive();
                assertThat(slowRate).as("events/s while HBase is slow: it keeps going").isPositive();
                assertThat(fastRate).as("events/s once HBase is fast again, against %.0f while slow", slowRate)
                        .isGreaterThan(3 * slowRate);
                assertThat(peakHeap).as("heap used, sampled from /metrics").isPositive();
            } finally {
                WriteFaults.release(DATA);
                WriteFaults.release(INDEX);
                rowflow.stop();
            }
        }
        assertThat(count(DATA)).isEqualTo(EVENTS);
        assertThat(count(INDEX)).isEqualTo(EVENTS);
    }

    private static long committed(org.apache.kafka.clients.admin.Admin admin) throws Exception {
        return EVENTS - Offsets.uncommitted(admin, GROUP, TOPIC);
    }

    private static void awaitTables(RowflowProcess rowflow) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        try (Admin admin = stack.hbase().connection().getAdmin()) {
            while (!(admin.tableExists(DATA) && admin.tableExists(INDEX))) {
                assertThat(rowflow.isAlive()).as("rowflow alive; its log:%n%s", rowflow.logTail()).isTrue();
                assertThat(System.nanoTime()).as("tables created within 90 s").isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    private static long count(TableName table) throws Exception {
        return dev.rowflow.embedded.load.TableRows.count(stack.hbase().connection(), table.getNameAsString());
    }
}
