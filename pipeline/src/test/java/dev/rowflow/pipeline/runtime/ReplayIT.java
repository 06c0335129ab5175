package dev.rowflow.pipeline.runtime;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.embedded.load.TableRows;
import dev.rowflow.embedded.load.TopicProducer;
import dev.rowflow.pipeline.config.RowflowConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code rowflow replay} on the real embedded stack: a time range of a declared input (data, index
 * and summary tables) re-read beside the running pipeline, twice without changing a byte, then
 * through a fixed mapping; a start older than what the topic keeps refused.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class ReplayIT {
    private static final Instant T0 = Instant.parse("2026-11-20T10:00:00Z");
    private static final List<String> TABLES = List.of("replay_clicks", "replay_clicks_user", "replay_clicks_summary");
    private static EmbeddedStack stack;

    @BeforeAll
    static void shareStack(EmbeddedStack shared) {
        stack = shared;
    }

    @Test
    void shouldReplayARangeBesideTheRunningPipelineWithoutChangingAByteThenThroughAFixedMapping(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        RowflowConfig config = config(Map.of());
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            admin.createTopics(List.of(new NewTopic("replay-clicks", 3, (short) 1))).all().get();
            KafkaTopics.awaitLeaders(admin, "replay-clicks", Duration.ofSeconds(30));
            // 240 clicks a second apart, each record stamped with its click's time; two bad records.
            try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), "replay-clicks")) {
                for (int seq = 0; seq < 240; seq++) {
                    long at = T0.toEpochMilli() + seq * 1000L;
                    producer.send("u" + seq % 5, at, ("{\"at\":" + at + ",\"user\":\"u" + seq % 5 + "\",\"seq\":" + seq
                            + ",\"page\":\"/p" + seq + "\",\"ref\":\"r" + seq + "\"}").getBytes(StandardCharsets.UTF_8));
                    if (seq == 120 || seq == 200) {
                        producer.send("u0", at + 500, "not json".getBytes(StandardCharsets.UTF_8));
                    }
                }
                producer.flush();
            }
            try (RowflowPipeline running = RowflowPipeline.start(config, new SimpleMeterRegistry())) {
                PipelineRuns.awaitCommitted(running, admin, config, "replay-clicks", 242);
                Map<String, String> written = contents();
                assertThat(written).hasSize(240 + 240 + 5 * 4); // data, index, 5 users x 4 minutes
                Map<TopicPartition, Long> runningOffsets = committed(admin, "it-replay");

                // [10:01, 10:03): clicks 60 to 179 and the bad record after click 120.
                Instant from = T0.plusSeconds(60);
                Instant to = T0.plusSeconds(180);
                Replay.Summary summary = Replay.of(config, "clicks", from, to).run(records -> { });
                assertThat(summary.offsets()).isEqualTo(121);
                assertThat(summary.records()).isEqualTo(121);
                assertThat(summary.deadLetters()).isEqualTo(1);
                assertThat(summary.rows()).as("data and index rows of 120 clicks").isEqualTo(240);
                assertThat(summary.filtered()).isZero();
                assertThat(contents()).as("tables after a replay").isEqualTo(written);
                assertThat(admin.listConsumerGroups().all().get()).extracting(ConsumerGroupListing::groupId)
                        .as("the replay's group is deleted").doesNotContain("it-replay-replay-clicks");

                // Again, as a user runs it: the same counts printed, still not a byte changed.
                java.io.StringWriter printed = new java.io.StringWriter();
                int exit = dev.rowflow.pipeline.cli.Rowflow.commandLine().setOut(new java.io.PrintWriter(printed))
                        .execute("replay", "--config", propertiesFile(dir, config).toString(), "--input", "clicks",
                                "--from", "2026-11-20T11:01:00+01:00", "--to", Long.toString(to.toEpochMilli()));
                assertThat(exit).as(printed.toString()).isZero();
                assertThat(printed.toString()).startsWith("replayed input clicks from 2026-11-20T10:01:00Z to "
                                + "2026-11-20T10:03:00Z (consumer group it-replay-replay-clicks, deleted)\n")
                        .contains("records in the range: 121; replayed: 121\n",
                                "rows written: 240; set aside: 1; not taken by its where: 0\n");
                assertThat(contents()).as("tables after the second replay").isEqualTo(written);
                // The running pipeline never noticed: its offsets are where they were, and it reads on.
                assertThat(committed(admin, "it-replay")).isEqualTo(runningOffsets);
                try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), "replay-clicks")) {
                    long at = T0.toEpochMilli() + 240_000L;
                    producer.send("u0", at, ("{\"at\":" + at + ",\"user\":\"u0\",\"seq\":240,\"page\":\"/p240\"}")
                            .getBytes(StandardCharsets.UTF_8));
                }
                PipelineRuns.awaitCommitted(running, admin, config, "replay-clicks", 243);
                assertThat(TableRows.count(stack.hbase().connection(), "replay_clicks")).isEqualTo(241);

                // The mapping fixed (the referrer, left out, kept as a column): replayed, the range's rows gain it.
                Replay.Summary fixed = Replay.of(config(Map.of("input.clicks.columns", "page=p, user=u, seq:long=s, ref=r")), "clicks",
                        from, to).run(records -> { });
                assertThat(fixed.records()).isEqualTo(121);
                Map<ByteBuffer, Result> rows = TableRows.scan(stack.hbase().connection(), "replay_clicks");
                assertThat(rows.values().stream().filter(r -> r.getValue(Bytes.toBytes("d"), Bytes.toBytes("r")) != null)
                        .map(r -> Bytes.toString(r.getValue(Bytes.toBytes("d"), Bytes.toBytes("p"))).substring(2))
                        .map(Integer::parseInt).sorted().toList())
                        .isEqualTo(java.util.stream.IntStream.range(60, 180).boxed().toList());
            }
        }
    }

    @Test
    void shouldRefuseAStartOlderThanWhatTheTopicKeeps() throws Exception {
        RowflowConfig config = config(Map.of("input.clicks.topic", "replay-retention"));
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            admin.createTopics(List.of(new NewTopic("replay-retention", 1, (short) 1))).all().get();
            KafkaTopics.awaitLeaders(admin, "replay-retention", Duration.ofSeconds(30));
            try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), "replay-retention")) {
                for (int seq = 0; seq < 20; seq++) {
                    long at = T0.toEpochMilli() + seq * 1000L;
                    producer.send("u", at, ("{\"at\":" + at + ",\"user\":\"u\",\"seq\":" + seq + "}")
                            .getBytes(StandardCharsets.UTF_8));
                }
            }
            // What retention does: the records before offset 10 are gone.
            admin.deleteRecords(Map.of(new TopicPartition("replay-retention", 0), RecordsToDelete.beforeOffset(10)))
                    .all().get();

            assertThatThrownBy(() -> Replay.of(config, "clicks", T0.plusSeconds(5), null).run(records -> { }))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("--from")
                    .hasMessageContaining("older than what replay-retention-0 keeps: its oldest record (offset 10) is "
                            + "from 2026-11-20T10:00:10Z");
        }
    }

    private static RowflowConfig config(Map<String, String> overrides) {
        Map<String, String> props = new HashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "it-replay");
        props.put(RowflowConfig.PIPELINES_CONFIG, "");
        props.put("kafka.commit.interval.ms", "500");
        props.put("inputs", "clicks");
        props.put("input.clicks.topic", "replay-clicks");
        props.put("input.clicks.time", "at");
        props.put("input.clicks.time.format", "epoch-ms");
        props.put("input.clicks.table", "replay_clicks");
        props.put("input.clicks.key", "bucket(4) | at:ts, user:text, seq:long");
        props.put("input.clicks.columns", "page=p, user=u, seq:long=s");
        props.put("input.clicks.indexes", "user");
        props.put("input.clicks.index.user.key", "user:text, at:rts, seq:long");
        props.put("input.clicks.summary.key", "user:text, at:ts");
        props.put("input.clicks.summary.period.seconds", "60");
        props.putAll(overrides);
        return new RowflowConfig(props);
    }

    /** Every row of the input's tables: key -> its cells (family, qualifier, timestamp, value) in hex. */
    private static Map<String, String> contents() throws Exception {
        Map<String, String> contents = new TreeMap<>();
        for (String table : TABLES) {
            for (Map.Entry<ByteBuffer, Result> row : TableRows.scan(stack.hbase().connection(), table).entrySet()) {
                StringBuilder cells = new StringBuilder();
                for (var cell : row.getValue().rawCells()) {
                    cells.append(Bytes.toHex(CellUtil.cloneFamily(cell))).append(':')
                            .append(Bytes.toHex(CellUtil.cloneQualifier(cell))).append('@').append(cell.getTimestamp())
                            .append('=').append(Bytes.toHex(CellUtil.cloneValue(cell))).append(' ');
                }
                contents.put(table + "/" + Bytes.toHex(row.getKey().array()), cells.toString());
            }
        }
        return contents;
    }

    private static java.nio.file.Path propertiesFile(java.nio.file.Path dir, RowflowConfig config) throws Exception {
        java.util.Properties properties = new java.util.Properties();
        config.originals().forEach((key, value) -> properties.setProperty(key, String.valueOf(value)));
        java.nio.file.Path file = dir.resolve("rowflow.properties");
        try (var out = java.nio.file.Files.newOutputStream(file)) {
            properties.store(out, null);
        }
        return file;
    }

    private static Map<TopicPartition, Long> committed(Admin admin, String group) throws Exception {
        Map<TopicPartition, Long> offsets = new TreeMap<>(java.util.Comparator.comparing(TopicPartition::toString));
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()
                .forEach((partition, offset) -> offsets.put(partition, offset.offset()));
        return offsets;
    }
}
