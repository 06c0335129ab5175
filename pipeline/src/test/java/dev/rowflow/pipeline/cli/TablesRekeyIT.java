package dev.rowflow.pipeline.cli;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.embedded.load.TableRows;
import dev.rowflow.keying.layout.DecodedKey;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import dev.rowflow.sinks.rekey.RekeyCheckpoints;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rowflow tables rekey} on the real embedded stack: the log data table the pipeline wrote,
 * time-led in 16 salt buckets, copied into a host-led layout by the production jar in its own
 * JVM, killed with SIGKILL in the middle of the copy and run again: it resumes, and the new table
 * holds every row once with its cells (checked here independently of the copy's own rule and by
 * its verification); a damaged copy fails verification naming the range; a layout the rows cannot
 * fill is refused before anything is written.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class TablesRekeyIT {
    private static final String OLD = "bucket(16) | timestamp:ts, hostname:text, eventType:text";
    private static final String NEW = "bucket(4,hash=hostname) | hostname:text, timestamp:rts, eventType:text";
    private static final int EVENTS = 16_000;
    private static EmbeddedStack stack;

    @BeforeAll
    static void shareStack(EmbeddedStack shared) {
        stack = shared;
    }

    @Test
    void shouldCopyIntoANewLayoutResumeAfterSigkillAndVerify(@TempDir Path dir) throws Exception {
        Map<String, String> props = new HashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "it-rekey");
        props.put(RowflowConfig.LOGS_TOPIC_CONFIG, "rekey-logs");
        props.put(RowflowConfig.LOGS_DEAD_LETTER_TOPIC_CONFIG, "rekey-logs.dead-letter");
        props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, "rekey_data");
        props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, "rekey_index");
        props.put(RowflowConfig.LOG_DATA_LAYOUT_CONFIG, OLD);
        props.put("kafka.commit.interval.ms", "500");
        RowflowConfig config = new RowflowConfig(props);
        Path configFile = propertiesFile(dir, props);
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, "rekey-logs", Optional.of(4), Duration.ofSeconds(30));
            try (LogEventProducer producer = LogEventProducer.open(config.kafkaProperties(), "rekey-logs")) {
                producer.sendAll(new LogEventGenerator(5, 50, 1_764_000_000_000L), EVENTS, () -> false);
            }
            try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry())) {
                dev.rowflow.embedded.load.Offsets.awaitCommitted(admin, "it-rekey", List.of("rekey-logs"), EVENTS,
                        Duration.ofSeconds(120), committed -> { });
            }
        }
        var connection = stack.hbase().connection();
        Map<ByteBuffer, Result> source = TableRows.scan(connection, "rekey_data");
        assertThat(source).hasSize(EVENTS);

        // A layout the rows cannot fill: refused, nothing created.
        StringWriter refusal = new StringWriter();
        int refused = Rowflow.commandLine().setErr(new PrintWriter(refusal)).execute("tables", "rekey", "--config",
                configFile.toString(), "--input", "logs", "--layout", "service:text, timestamp:ts");
        assertThat(refused).isEqualTo(2);
        assertThat(refusal.toString()).contains("--layout service:text, timestamp:ts: ")
                .contains("service");
        assertThat(connection.getAdmin().tableExists(TableName.valueOf("rekey_data_v2"))).isFalse();

        // The copy in its own JVM, killed (SIGKILL) once some ranges are copied and others are not.
        Process first = rekey(dir, configFile, "first.log");
        awaitMidCopy(first, dir.resolve("first.log"));
        first.destroyForcibly().waitFor(30, TimeUnit.SECONDS);

        Process second = rekey(dir, configFile, "second.log");
        assertThat(second.waitFor(180, TimeUnit.SECONDS)).isTrue();
        String output = Files.readString(dir.resolve("second.log"));
        assertThat(second.exitValue()).as(output).isZero();
        assertThat(output).contains("resuming into rekey_data_v2")
                .contains("verified: " + EVENTS + " rows in rekey_data, " + EVENTS + " in rekey_data_v2; 16 of 16 ranges match");
        Matcher copied = Pattern.compile("copied (\\d+) rows in 16 ranges").matcher(output);
        assertThat(copied.find()).as(output).isTrue();
        assertThat(Long.parseLong(copied.group(1))).as("the resumed run copied what was left").isPositive().isLessThan(EVENTS);
        System.out.println("TablesRekeyIT, the run after SIGKILL:\n" + output);

        // Independently of the copy's rule: each new row is an old row, found by decoding the new key
        // and encoding its fields with the old layout, with the same cells; and every old row is there.
        RowKeyLayout oldLayout = RowKeyLayout.parse(OLD, null);
        RowKeyLayout newLayout = RowKeyLayout.parse(NEW, null);
        Map<ByteBuffer, Result> target = TableRows.scan(connection, "rekey_data_v2");
        assertThat(target).hasSize(EVENTS);
        for (Map.Entry<ByteBuffer, Result> row : target.entrySet()) {
            DecodedKey decoded = newLayout.decode(row.getKey().array());
            byte[] oldKey = oldLayout.encode(decoded.fields()::get);
            Result original = source.get(ByteBuffer.wrap(oldKey));
            assertThat(original).as("old row of %s", Bytes.toStringBinary(row.getKey().array())).isNotNull();
            assertThat(cells(row.getValue())).isEqualTo(cells(original));
        }
        assertThat(connection.getAdmin().getRegions(TableName.valueOf("rekey_data_v2"))).as("pre-split by bucket").hasSize(4);

        // Switched, the readers follow: a query by host reads the new, host-led table.
        String host = (String) oldLayout.decode(source.keySet().iterator().next().array()).fields().get("hostname");
        long ofHost = source.keySet().stream().filter(k -> host.equals(oldLayout.decode(k.array()).fields().get("hostname")))
                .count();
        StringWriter queried = new StringWriter();
        StringWriter told = new StringWriter();
        assertThat(Rowflow.commandLine().setOut(new PrintWriter(queried)).setErr(new PrintWriter(told)).execute("query",
                "input", "logs", "hostname=" + host, "--limit", "0", "--config", configFile.toString())).isZero();
        assertThat(told.toString()).contains("reading the re-keyed table rekey_data -> rekey_data_v2 (" + NEW + ")");
        assertThat(queried.toString()).contains("-- " + ofHost + " rows, 1 scans");

        // A damaged copy does not verify: a row gone, the range it was in named.
        byte[] victim = target.keySet().iterator().next().array();
        try (Table t = connection.getTable(TableName.valueOf("rekey_data_v2"))) {
            t.delete(new Delete(victim));
            assertThat(t.exists(new Get(victim))).isFalse();
        }
        StringWriter damaged = new StringWriter();
        int verdict = Rowflow.commandLine().setOut(new PrintWriter(damaged)).execute("tables", "rekey", "--config",
                configFile.toString(), "--input", "logs", "--layout", NEW);
        assertThat(verdict).as(damaged.toString()).isEqualTo(1);
        assertThat(damaged.toString()).contains("copied 0 rows in 16 ranges")
                .contains("verified: " + EVENTS + " rows in rekey_data, " + (EVENTS - 1) + " in rekey_data_v2; 15 of 16 ranges match")
                .containsPattern("  range \\[.*\\): (\\d+) rows in rekey_data, \\d+ of them in rekey_data_v2 as they are\\n");
    }

    @Test
    void shouldRekeyUnderLoadWithTheRunningPipelineWritingBothTablesThenTheNewOne(@TempDir Path dir) throws Exception {
        Map<String, String> props = new HashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "it-rekey-live");
        props.put(RowflowConfig.LOGS_TOPIC_CONFIG, "rekey-live-logs");
        props.put(RowflowConfig.LOGS_DEAD_LETTER_TOPIC_CONFIG, "rekey-live-logs.dead-letter");
        props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, "live_data");
        props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, "live_index");
        props.put(RowflowConfig.LOG_DATA_LAYOUT_CONFIG, OLD);
        props.put("kafka.commit.interval.ms", "500");
        RowflowConfig config = new RowflowConfig(props);
        Path configFile = propertiesFile(dir, props);
        var connection = stack.hbase().connection();
        LogEventGenerator generator = new LogEventGenerator(9, 50, 1_764_000_000_000L);
        java.util.concurrent.atomic.AtomicLong sent = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, "rekey-live-logs", Optional.of(4), Duration.ofSeconds(30));
        }
        try (Admin admin = Admin.create(config.kafkaProperties());
             LogEventProducer producer = LogEventProducer.open(config.kafkaProperties(), "rekey-live-logs")) {
            sent.addAndGet(producer.sendAll(generator, 6_000, () -> false));
            try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry())) {
                awaitCommitted(admin, "it-rekey-live", sent.get());
                // Events keep coming, about 500 a second, all through the re-key.
                Thread load = new Thread(() -> {
                    try {
                        while (!stop.get()) {
                            producer.sendPaced(generator, 100, 500);
                            sent.addAndGet(100);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "load");
                load.start();
                long committedBefore = dev.rowflow.embedded.load.Offsets.committed(admin, "it-rekey-live", "rekey-live-logs");

                Process first = rekey(dir, configFile, "first.log");
                awaitMidCopy(first, dir.resolve("first.log"), "live_data>live_data_v2");
                first.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                Process second = rekey(dir, configFile, "second.log");
                assertThat(second.waitFor(180, TimeUnit.SECONDS)).isTrue();
                String output = Files.readString(dir.resolve("second.log"));
                assertThat(second.exitValue()).as(output).isZero();
                assertThat(output).contains("the running pipelines write both tables since").contains("16 of 16 ranges match")
                        .contains("switched: the running pipelines write live_data_v2 only");
                System.out.println("TablesRekeyIT under load, the run after SIGKILL:\n" + output);
                // The pipeline wrote on throughout: records committed while the copy ran.
                assertThat(dev.rowflow.embedded.load.Offsets.committed(admin, "it-rekey-live", "rekey-live-logs"))
                        .isGreaterThan(committedBefore);

                // Once the pipeline read the switch (it checks every 5 s) and flushed, the old table takes no more
                // rows: a span in which 1,000 more events were sent and committed and the old table did not grow.
                long oldRows = awaitFrozen(connection, "live_data", admin, sent);
                stop.set(true);
                load.join();
                awaitCommitted(admin, "it-rekey-live", sent.get());
                assertThat(TableRows.count(connection, "live_data")).as("the old table after the switch").isEqualTo(oldRows)
                        .isLessThan(sent.get());
                assertThat(pipeline.state()).isEqualTo(org.apache.kafka.streams.KafkaStreams.State.RUNNING);
            }
        }

        // Every event sent is in the new table once: its row under the new key, nothing else.
        RowKeyLayout oldLayout = RowKeyLayout.parse(OLD, null);
        RowKeyLayout newLayout = RowKeyLayout.parse(NEW, null);
        java.util.Set<ByteBuffer> expected = new java.util.HashSet<>();
        LogEventGenerator again = new LogEventGenerator(9, 50, 1_764_000_000_000L);
        for (long i = 0; i < sent.get(); i++) {
            var event = again.next();
            expected.add(ByteBuffer.wrap(oldLayout.encode(event.getTimestamp().toEpochMilli(), event.getHostname(),
                    event.getEventType())));
        }
        Map<ByteBuffer, Result> target = TableRows.scan(connection, "live_data_v2");
        assertThat(target).hasSize(expected.size());
        for (ByteBuffer key : target.keySet()) {
            DecodedKey decoded = newLayout.decode(key.array());
            assertThat(expected).contains(ByteBuffer.wrap(oldLayout.encode(decoded.fields()::get)));
        }
    }

    private static void awaitCommitted(Admin admin, String group, long count) throws Exception {
        dev.rowflow.embedded.load.Offsets.awaitCommitted(admin, group, List.of("rekey-live-logs"), count,
                Duration.ofSeconds(120), committed -> { });
    }

    /**
     * Waits until the table holds as many rows after 1,000 more events were sent and committed as before them,
     * and returns that count.
     */
    private static long awaitFrozen(org.apache.hadoop.hbase.client.Connection connection, String table, Admin admin,
                                    java.util.concurrent.atomic.AtomicLong sent) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            long before = TableRows.count(connection, table);
            long target = sent.get() + 1_000;
            while (sent.get() < target) {
                Thread.sleep(20);
            }
            awaitCommitted(admin, "it-rekey-live", target);
            long after = TableRows.count(connection, table);
            if (after == before) {
                return after;
            }
        }
        throw new AssertionError(table + " still took rows 60 s after the switch");
    }

    private static Path propertiesFile(Path dir, Map<String, String> props) throws Exception {
        Path configFile = dir.resolve("rowflow.properties");
        java.util.Properties file = new java.util.Properties();
        file.putAll(props);
        try (var out = Files.newOutputStream(configFile)) {
            file.store(out, null);
        }
        return configFile;
    }

    private static Process rekey(Path dir, Path configFile, String log) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(dev.rowflow.embedded.CrashReports.sameAsThisJvm());
        command.addAll(List.of("-jar", System.getProperty("rowflow.pipeline.jar"), "tables", "rekey", "--config",
                configFile.toString(), "--input", "logs", "--layout", NEW, "--threads", "1"));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve(log).toFile()).start();
    }

    private static void awaitMidCopy(Process copy, Path log) throws Exception {
        awaitMidCopy(copy, log, "rekey_data>rekey_data_v2");
    }

    /** Waits until the copy's checkpoints show a range done. */
    private static void awaitMidCopy(Process copy, Path log, String copyRow) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        var connection = stack.hbase().connection();
        byte[] row = Bytes.toBytes(copyRow);
        while (System.nanoTime() < deadline) {
            assertThat(copy.isAlive()).as("the copy still running; its output:%n%s", Files.readString(log)).isTrue();
            if (connection.getAdmin().tableExists(TableName.valueOf(RekeyCheckpoints.TABLE))) {
                try (Table checkpoints = connection.getTable(TableName.valueOf(RekeyCheckpoints.TABLE))) {
                    Result state = checkpoints.get(new Get(row));
                    long done = state.isEmpty() ? 0 : state.getFamilyMap(Bytes.toBytes("c")).keySet().stream()
                            .filter(q -> Bytes.toString(q).startsWith("done/")).count();
                    if (done >= 1) {
                        return;
                    }
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the copy never got to its middle; its output:\n" + Files.readString(log));
    }

    /** A row's cells: family, qualifier, timestamp and value, in order. */
    private static List<String> cells(Result row) {
        List<String> cells = new ArrayList<>();
        for (Cell cell : row.rawCells()) {
            cells.add(Bytes.toStringBinary(CellUtil.cloneFamily(cell)) + ":" + Bytes.toStringBinary(CellUtil.cloneQualifier(cell))
                    + "@" + cell.getTimestamp() + "=" + Bytes.toStringBinary(CellUtil.cloneValue(cell)));
        }
        return cells;
    }
}
