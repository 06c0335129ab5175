package dev.rowflow.pipeline.runtime;

import dev.rowflow.embedded.load.Offsets;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HBase unavailable for 30 s in the middle of a run: the region server is stopped and a new one
 * started. The pipeline backs off (the client retries, the commit waits for the flush), commits
 * nothing it has not written, and resumes by itself: in the end every event once.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class HBaseOutageIT {
    private static final int EVENTS = 30_000;
    private static final long BEFORE_OUTAGE = 6_000;
    private static EmbeddedStack stack;

    @BeforeAll
    static void shareStack(EmbeddedStack shared) {
        stack = shared;
    }

    @Test
    void shouldLoseNothingWhenHBaseIsGoneForThirtySecondsMidRun() throws Exception {
        Map<String, Object> props = new HashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "it-outage");
        props.put(RowflowConfig.LOGS_TOPIC_CONFIG, "outage-logs");
        props.put(RowflowConfig.LOGS_DEAD_LETTER_TOPIC_CONFIG, "outage-logs.dead-letter");
        props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, "outage_data");
        props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, "outage_index");
        props.put(RowflowConfig.LOG_SUMMARY_TABLE_CONFIG, "outage_summary");
        props.put(RowflowConfig.LOG_DATA_LAYOUT_CONFIG, "bucket(4) | timestamp:ts, hostname:text, eventType:text");
        props.put("kafka.commit.interval.ms", "500");
        RowflowConfig config = new RowflowConfig(props);
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, "outage-logs", Optional.of(2), Duration.ofSeconds(30));
            LogEventGenerator generator = new LogEventGenerator(23, 30, 1_700_000_000_000L);
            try (LogEventProducer producer = LogEventProducer.open(config.kafkaProperties(), "outage-logs");
                 RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry())) {
                // The first events before the outage, the rest while HBase is gone: the pipeline
                // reads them but must not commit them, however fast it runs.
                producer.sendAll(generator, BEFORE_OUTAGE, () -> false);
                long committed = awaitCommitted(admin, pipeline, 3_000, Duration.ofMinutes(2));
                assertThat(committed).as("events committed before the outage").isBetween(3_000L, BEFORE_OUTAGE);

                stack.hbase().stopRegionServer();
                long outageStarted = System.nanoTime();
                long committedAtOutage = committed;
                producer.sendAll(generator, EVENTS - BEFORE_OUTAGE, () -> false);
                long committedInOutage = 0;
                while (System.nanoTime() - outageStarted < TimeUnit.SECONDS.toNanos(30)) {
                    assertThat(pipeline.state()).isNotEqualTo(KafkaStreams.State.ERROR);
                    committedInOutage = Math.max(committedInOutage,
                            Offsets.committed(admin, "it-outage", "outage-logs"));
                    Thread.sleep(500);
                }
                stack.hbase().startRegionServer();
                System.out.printf("HBaseOutageIT: %d of %d events committed when HBase went away for 30 s,"
                        + " %d when it came back%n", committedAtOutage, EVENTS, committedInOutage);
                // Nothing of what arrived while HBase was gone can have been written, so nothing of it
                // may have been committed; and what was committed is in HBase.
                assertThat(committedInOutage).as("events committed while HBase was gone").isLessThanOrEqualTo(BEFORE_OUTAGE);
                assertThat(rows("outage_data")).as("data rows after the outage").isGreaterThanOrEqualTo(committedInOutage);

                committed = awaitCommitted(admin, pipeline, EVENTS, Duration.ofMinutes(3));
                assertThat(committed).as("events committed after the outage").isEqualTo(EVENTS);
            }
            assertThat(rows("outage_data")).isEqualTo(EVENTS);
            assertThat(rows("outage_index")).isEqualTo(EVENTS);
            // HBase being away is not the records' fault: none was set aside.
            assertThat(KafkaTopics.endOffsets(admin, "outage-logs.dead-letter").values().stream()
                    .mapToLong(Long::longValue).sum()).as("dead letters").isZero();
        }
    }

    /**
     * Polls until at least {@code target} events are committed, checking at every poll the
     * invariant behind "0 lost": what is committed is in HBase, data and index rows.
     */
    private static long awaitCommitted(Admin admin, RowflowPipeline pipeline, long target, Duration timeout)
            throws Exception {
        return Offsets.awaitCommitted(admin, "it-outage", java.util.List.of("outage-logs"), target, timeout, committed -> {
            assertThat(pipeline.state()).isNotEqualTo(KafkaStreams.State.ERROR);
            assertThat(rows("outage_data")).as("data rows while %d events are committed", committed)
                    .isGreaterThanOrEqualTo(committed);
            assertThat(rows("outage_index")).as("index rows while %d events are committed", committed)
                    .isGreaterThanOrEqualTo(committed);
        });
    }

    private static long rows(String table) throws Exception {
        return dev.rowflow.embedded.load.TableRows.count(stack.hbase().connection(), table);
    }
}
