package dev.rowflow.sinks.hbase;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.embedded.WriteFaults;
import dev.rowflow.keying.Cell;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The buffered sink on real HBase and the Bigtable emulator: nothing of a wide row dropped, limits refused up front. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
@ParameterizedClass(name = "{0}")
@EnumSource(Store.class)
class HBaseRowSinkIT {
    private static final byte[] FAMILY = Bytes.toBytes("d");
    private final Store store;
    private final Connection connection;
    private final EmbeddedStack stack;

    HBaseRowSinkIT(Store store, EmbeddedStack shared) {
        EmbeddedStackExtension.assumeStoreAvailable(store.token());
        this.store = store;
        this.connection = shared.connection(store.token());
        this.stack = shared;
    }

    @Test
    void shouldKeepEveryCellOfRowsThatShareAKeyInOneBuffer() throws Exception {
        TableDefinition table = new TableDefinition(TableName.valueOf("sink_wide"), FAMILY, FamilySettings.DEFAULT,
                RowKeyLayout.parse("hostname:text", null));
        try (Admin admin = connection.getAdmin()) {
            new TableAdmin(admin).createOrCheck(table);
        }
        byte[] key = Bytes.toBytes("web-01");
        try (HBaseRowSink sink = new HBaseRowSink(connection, Map.of(TableRole.LOG_DATA, table), new SinkSettings(0, 0))) {
            // Two events' rows under one key, each with its own column (OpenTSDB-style wide rows):
            // a sink that kept only the last mutation per row in a batch would drop the first cell.
            sink.write(new Row(TableRole.LOG_DATA, key, 1_000, List.of(new Cell(FAMILY, Bytes.toBytes("q1"), Bytes.toBytes("a")))));
            sink.write(new Row(TableRole.LOG_DATA, key, 2_000, List.of(new Cell(FAMILY, Bytes.toBytes("q2"), Bytes.toBytes("b")))));
            sink.flush();
        }
        try (Table t = connection.getTable(table.name())) {
            Result row = t.get(new Get(key));
            assertThat(Bytes.toString(row.getValue(FAMILY, Bytes.toBytes("q1")))).isEqualTo("a");
            assertThat(Bytes.toString(row.getValue(FAMILY, Bytes.toBytes("q2")))).isEqualTo("b");
        }
    }

    @Test
    void shouldRefuseRowsTheServerWouldNeverTake() throws Exception {
        TableDefinition table = new TableDefinition(TableName.valueOf("sink_limits"), FAMILY, FamilySettings.DEFAULT,
                RowKeyLayout.parse("hostname:text", null));
        try (Admin admin = connection.getAdmin()) {
            new TableAdmin(admin).createOrCheck(table);
        }
        try (HBaseRowSink sink = new HBaseRowSink(connection, Map.of(TableRole.LOG_DATA, table), new SinkSettings(0, 0))) {
            Row bigCell = new Row(TableRole.LOG_DATA, Bytes.toBytes("k"), 1,
                    List.of(new Cell(FAMILY, Bytes.toBytes("m"), new byte[11 * 1024 * 1024])));
            assertThatThrownBy(() -> sink.check(bigCell)).isInstanceOf(InvalidEventException.class)
                    .hasMessageContaining("over the cell size limit of 10485760 bytes");
            Row longKey = new Row(TableRole.LOG_DATA, new byte[40_000], 1,
                    List.of(new Cell(FAMILY, Bytes.toBytes("m"), Bytes.toBytes("x"))));
            assertThatThrownBy(() -> sink.check(longKey)).isInstanceOf(InvalidEventException.class)
                    .hasMessageContaining("40000 bytes");
        }
    }

    @Test
    void shouldCountEachSourceRecordOnceAcrossReplaysAndSinksThatRaceForTheSameRow() throws Exception {
        byte[] family = dev.rowflow.keying.log.LogSummary.FAMILY;
        byte[] count = dev.rowflow.keying.log.LogSummary.COUNT;
        TableDefinition table = new TableDefinition(TableName.valueOf("sink_counters"), family, FamilySettings.DEFAULT,
                RowKeyLayout.parse(dev.rowflow.keying.log.LogSummary.LAYOUT, null));
        try (Admin admin = connection.getAdmin()) {
            new TableAdmin(admin).createOrCheck(table);
        }
        if (store == Store.HBASE) {
            stack.hbase().injectWriteFaults(table.name());
        }
        Map<TableRole, TableDefinition> tables = Map.of(TableRole.LOG_SUMMARY, table);
        byte[] row = Bytes.toBytes("web-01");
        dev.rowflow.keying.Counter one = new dev.rowflow.keying.Counter(TableRole.LOG_SUMMARY, row, family, count, 1);
        try (HBaseRowSink first = new HBaseRowSink(connection, tables, new SinkSettings(0, 0));
             HBaseRowSink second = new HBaseRowSink(connection, tables, new SinkSettings(0, 0));
             Table t = connection.getTable(table.name())) {
            for (long offset = 0; offset < 100; offset++) {
                first.count(one, "logs-0", offset);
            }
            first.flush();
            assertThat(CounterCells.total(t.get(new Get(row)), family, count)).isEqualTo(100);

            // A replay from offset 50 by another sink (a restarted process): only 100..149 are new.
            for (long offset = 50; offset < 150; offset++) {
                second.count(one, "logs-0", offset);
            }
            second.flush();
            assertThat(CounterCells.total(t.get(new Get(row)), family, count)).isEqualTo(150);

            // The first sink still believes the mark is at 99: its conditional write fails, it
            // reads the mark again and adds only 150..199.
            for (long offset = 100; offset < 200; offset++) {
                first.count(one, "logs-0", offset);
            }
            // Another partition has its own mark.
            for (long offset = 0; offset < 10; offset++) {
                first.count(one, "logs-1", offset);
            }
            first.flush();
            Result result = t.get(new Get(row));
            assertThat(CounterCells.total(result, family, count)).isEqualTo(210);
            assertThat(Bytes.toLong(result.getValue(family, Bytes.toBytes("w.logs-0")))).isEqualTo(199);
            assertThat(Bytes.toLong(result.getValue(family, Bytes.toBytes("w.logs-1")))).isEqualTo(9);

            // Counted twice within one flush interval (a task restarted on the same thread): once.
            second.count(one, "logs-1", 10);
            second.count(one, "logs-1", 10);
            second.flush();
            assertThat(CounterCells.total(t.get(new Get(row)), family, count)).isEqualTo(211);
        }
        if (store == Store.HBASE) {
            // No increment asks for its result: HBase 2.6 would answer the first one of a cell from
            // the request's buffer after releasing it (HeapRequestBuffers says how that crashed).
            assertThat(WriteFaults.increments(table.name(), false)).as("increments").isPositive();
            assertThat(WriteFaults.increments(table.name(), true)).as("increments asking for results").isZero();
        }
    }

    /**
     * A periodic send in flight when the commit flushes: the flush must wait for it. (HBase's own
     * periodic flush takes the rows out of the buffer on its timer thread, and a concurrent
     * BufferedMutator.flush() then finds the buffer empty and returns while they are still on
     * their way: offsets committed for rows HBase does not have. HBaseOutageIT found it.)
     */
    @Test
    void shouldReturnFromFlushOnlyWhenRowsSentInTheBackgroundAreWritten() throws Exception {
        TableDefinition table = tableHoldingWrites("sink_periodic");
        Map<TableRole, TableDefinition> tables = Map.of(TableRole.LOG_DATA, table);
        java.util.concurrent.ExecutorService committer = java.util.concurrent.Executors.newSingleThreadExecutor();
        try (HBaseRowSink sink = new HBaseRowSink(connection, tables, new SinkSettings(0, 50), SinkMetrics.none(tables))) {
            for (int i = 0; i < 100; i++) {
                sink.write(new Row(TableRole.LOG_DATA, Bytes.toBytes("host-" + i), 1_000,
                        List.of(new Cell(FAMILY, Bytes.toBytes("m"), Bytes.toBytes(i)))));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (WriteFaults.batches(table.name()) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(WriteFaults.batches(table.name())).as("the periodic send reached the region server").isPositive();

            java.util.concurrent.Future<?> flush = committer.submit(() -> {
                sink.flush();
                return null;
            });
            // The rows are held on the server: a flush that returns now has not made them durable.
            assertThatThrownBy(() -> flush.get(2, TimeUnit.SECONDS))
                    .isInstanceOf(java.util.concurrent.TimeoutException.class);
            WriteFaults.release(table.name());
            flush.get(30, TimeUnit.SECONDS);
            assertThat(rows(table.name())).isEqualTo(100);
        } finally {
            WriteFaults.release(table.name());
            committer.shutdownNow();
        }
    }

    /**
     * Sending overlaps writing: from half a buffer the table's sender sends, and while the region
     * server holds that batch the writing thread goes on buffering rows instead of waiting for it.
     * Rows are counted as sent once acknowledged, and every row is there after the flush.
     */
    @Test
    void shouldSendHalfAFullBufferWhileTheWriterGoesOn() throws Exception {
        TableDefinition table = tableHoldingWrites("sink_overlap");
        var registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        Map<TableRole, TableDefinition> tables = Map.of(TableRole.LOG_DATA, table);
        java.util.concurrent.ExecutorService writer = java.util.concurrent.Executors.newSingleThreadExecutor();
        // A period far longer than the test: half a buffer written in one burst wakes the sender.
        try (HBaseRowSink sink = new HBaseRowSink(connection, tables, new SinkSettings(256 * 1024, 600_000),
                new SinkMetrics(registry, tables))) {
            long halfBuffer = 128 * 1024;
            int first = writer.submit(() -> {
                int n = 0;
                for (long bytes = 0; bytes < halfBuffer; n++) {
                    Row row = row(n);
                    bytes += TableWriter.estimatedHeapSize(row);
                    sink.write(row);
                }
                return n;
            }).get(10, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (WriteFaults.batches(table.name()) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(WriteFaults.batches(table.name())).as("the sender sent half a buffer").isPositive();

            // The batch is held on the server; the next rows are buffered, not waiting for it.
            int written = first;
            writer.submit(() -> {
                for (int i = written; i < written + 100; i++) {
                    sink.write(row(i));
                }
                return null;
            }).get(10, TimeUnit.SECONDS);
            var sent = registry.get("rowflow.sink.sent.rows").counter();
            assertThat(sent.count()).as("nothing is acknowledged while the server holds the batch").isZero();

            WriteFaults.release(table.name());
            writer.submit(() -> {
                sink.flush();
                return null;
            }).get(30, TimeUnit.SECONDS);
            assertThat(rows(table.name())).isEqualTo(first + 100);
            assertThat(sent.count()).isEqualTo(first + 100);
        } finally {
            WriteFaults.release(table.name());
            writer.shutdownNow();
        }
    }

    /**
     * A burst's last rows go once the writer pauses, not at the period: with a period far longer
     * than the test, rows written one at a time (a sender asleep with nothing to send, woken by
     * each) are each sent and acknowledged without a flush.
     */
    @Test
    void shouldSendTheRowsOfABurstOnceTheWriterPauses() throws Exception {
        TableDefinition table = new TableDefinition(TableName.valueOf("sink_quiet_" + store.token()), FAMILY,
                FamilySettings.DEFAULT, RowKeyLayout.parse("hostname:text", null));
        try (Admin admin = connection.getAdmin()) {
            new TableAdmin(admin).createOrCheck(table);
        }
        var registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        Map<TableRole, TableDefinition> tables = Map.of(TableRole.LOG_DATA, table);
        java.util.concurrent.ExecutorService writer = java.util.concurrent.Executors.newSingleThreadExecutor();
        try (HBaseRowSink sink = new HBaseRowSink(connection, tables, new SinkSettings(0, 600_000),
                new SinkMetrics(registry, tables))) {
            var sent = registry.get("rowflow.sink.sent.rows").counter();
            for (int i = 0; i < 3; i++) {
                int n = i;
                writer.submit(() -> {
                    sink.write(row(n));
                    return null;
                }).get(10, TimeUnit.SECONDS);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (sent.count() < n + 1 && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertThat(sent.count()).as("rows acknowledged after row %d, no flush", n).isEqualTo(n + 1);
            }
            assertThat(rows(table.name())).isEqualTo(3);
        } finally {
            writer.shutdownNow();
        }
    }

    /**
     * A row the store refuses (a family the table does not have) after the client's retries is
     * counted as a failed mutation and thrown at the next flush, so its offsets are never
     * committed; the rows of the batch that were taken are counted as sent.
     */
    @Test
    void shouldThrowARowTheStoreRefusedAtTheNextFlush() throws Exception {
        TableDefinition table = new TableDefinition(TableName.valueOf("sink_refused_" + store.token()),
                FAMILY, FamilySettings.DEFAULT, RowKeyLayout.parse("hostname:text", null));
        try (Admin admin = connection.getAdmin()) {
            new TableAdmin(admin).createOrCheck(table);
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(store == Store.HBASE,
                "the emulator's answer to an unknown family is not Bigtable's");
        var registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        Map<TableRole, TableDefinition> tables = Map.of(TableRole.LOG_DATA, table);
        try (HBaseRowSink sink = new HBaseRowSink(connection, tables, new SinkSettings(0, 0), new SinkMetrics(registry, tables))) {
            for (int i = 0; i < 10; i++) {
                sink.write(row(i));
            }
            sink.write(new Row(TableRole.LOG_DATA, Bytes.toBytes("host-x"), 1_000,
                    List.of(new Cell(Bytes.toBytes("nosuchfamily"), Bytes.toBytes("m"), Bytes.toBytes("refused")))));

            assertThatThrownBy(sink::flush).isInstanceOf(org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException.class)
                    .hasMessageContaining("nosuchfamily");
            assertThat(registry.get("rowflow.sink.failed.mutations").counter().count()).isEqualTo(1);
            assertThat(rows(table.name())).isEqualTo(10);
            sink.flush(); // thrown once: the sink goes on (its stream thread is replaced and re-reads)
        }
    }

    /** A new table whose writes the region server holds until {@code WriteFaults.release}. */
    private TableDefinition tableHoldingWrites(String name) throws Exception {
        TableDefinition table = new TableDefinition(TableName.valueOf(name), FAMILY, FamilySettings.DEFAULT,
                RowKeyLayout.parse("hostname:text", null));
        try (Admin admin = connection.getAdmin()) {
            new TableAdmin(admin).createOrCheck(table);
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(store.capabilities().coprocessors(),
                "holds writes on the server with a coprocessor, which store " + store.token() + " has not");
        stack.hbase().injectWriteFaults(table.name());
        WriteFaults.hold(table.name());
        return table;
    }

    private static Row row(int i) {
        return new Row(TableRole.LOG_DATA, Bytes.toBytes("host-" + i), 1_000,
                List.of(new Cell(FAMILY, Bytes.toBytes("m"), Bytes.toBytes("message " + i))));
    }

    private long rows(TableName name) throws Exception {
        return dev.rowflow.embedded.load.TableRows.count(connection, name.getNameAsString());
    }
}
