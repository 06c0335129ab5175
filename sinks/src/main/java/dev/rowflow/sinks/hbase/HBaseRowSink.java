package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Counter;
import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.sinks.RowSink;
import io.micrometer.core.instrument.Gauge;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionConfiguration;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link RowSink} with one {@link TableWriter} per table role -- how its rows reach the store
 * (its {@link MutatorSender}), its cell TTL and pending counts -- over a shared connection it does
 * not own.
 *
 * <p>Every row becomes one {@link Put} whose cells carry the row's timestamp (the event time), so
 * writing a row twice rewrites the same cells.
 *
 * <p><b>How rows are sent.</b> Each table's {@link MutatorSender}: the client's
 * {@link BufferedMutator} and a sender thread of the sink's own, so sending overlaps writing and a
 * row waits at most {@link SinkSettings#periodicFlushMillis()} before it is sent. (Batches of the
 * sink's own over HBase's async client, several in flight, were measured against it on HBase with
 * {@code rowflow bench --external}: they took more CPU per row and wrote fewer rows per second.)
 *
 * <p><b>Failures.</b> Rows are stored in the background, where a failure cannot be thrown to the
 * caller. The sink keeps the first failure of any table, and the next {@link #write} or
 * {@link #flush()} throws it: a failed send is never swallowed, and the flush that would have
 * marked those rows durable fails instead.
 *
 * <p><b>Flush before commit.</b> {@link #flush()} returns only after every row written before it
 * has been acknowledged (or its failure is thrown).
 */
public final class HBaseRowSink implements RowSink {
    private final Map<TableRole, TableWriter> writers = new TreeMap<>();
    /** Tables being re-keyed: their rows also go to the new tables. */
    private final dev.rowflow.sinks.rekey.LiveRekeys rekeys;
    private final ChangeBatch changes = new ChangeBatch();
    private final ChangeBatch.Sink changeSink = new ChangeBatch.Sink() {
        @Override
        public TableWriter writer(TableRole table) {
            return HBaseRowSink.this.writer(table);
        }

        @Override
        public void flush() throws IOException {
            flushTables();
        }
    };
    private final RowLimits limits;
    /** The tables it may write: a topic.pattern's join while it runs. */
    private final Map<TableRole, TableDefinition> tables;
    private final Connection connection;
    private final SinkSettings settings;
    private final AtomicReference<RetriesExhaustedWithDetailsException> failure = new AtomicReference<>();
    private final java.util.function.Consumer<RetriesExhaustedWithDetailsException> failures =
            e -> failure.compareAndSet(null, e);
    private final IdempotentCounters counters;
    private final SinkMetrics metrics;
    private final Gauge unflushedBytesGauge;
    /** Bytes written since the last flush returned (the stream thread's; read by the gauge). */
    private volatile long unflushedBytes;

    /** A sink without metrics. */
    public HBaseRowSink(Connection connection, Map<TableRole, TableDefinition> tables, SinkSettings settings)
            throws IOException {
        this(connection, tables, settings, SinkMetrics.none(tables));
    }

    public HBaseRowSink(Connection connection, Map<TableRole, TableDefinition> tables, SinkSettings settings,
                        SinkMetrics metrics) throws IOException {
        this(connection, tables, settings, metrics, dev.rowflow.sinks.rekey.LiveRekeys.none());
    }

    /** With the rows of the tables {@code rekeys} names also (or, switched, only) written to their new tables. */
    public HBaseRowSink(Connection connection, Map<TableRole, TableDefinition> tables, SinkSettings settings,
                        SinkMetrics metrics, dev.rowflow.sinks.rekey.LiveRekeys rekeys) throws IOException {
        this.rekeys = rekeys;
        this.metrics = metrics;
        // The client refuses larger cells itself; checking first turns that into a dead letter.
        this.limits = RowLimits.of(connection.getConfiguration());
        Map<TableRole, TableName> names = new TreeMap<>();
        tables.forEach((role, table) -> names.put(role, table.name()));
        this.counters = new IdempotentCounters(connection, names);
        this.tables = tables;
        this.connection = connection;
        this.settings = settings;
        try {
            for (Map.Entry<TableRole, TableDefinition> table : tables.entrySet()) {
                open(table.getKey(), table.getValue());
            }
        } catch (IOException | RuntimeException e) {
            closeQuietly(e);
            throw e;
        }
        this.unflushedBytesGauge = Gauge.builder("rowflow.sink.unflushed.bytes", this, sink -> sink.unflushedBytes)
                .tag("thread", Thread.currentThread().getName())
                .description("Bytes written to the sink since its last flush returned (at most a commit interval of rows)")
                .register(metrics.registry());
    }

    @Override
    public void check(Row row) {
        limits.check(row);
    }


    @Override
    public void write(Row row) throws IOException {
        throwIfFailed();
        applyChanges(); // a row written now comes after them
        dev.rowflow.sinks.rekey.LiveRekeys.Target rekey = rekeys.of(row.table());
        if (rekey == null) {
            unflushedBytes += opened(row.table()).write(row);
            return;
        }
        // Keyed first: a row the new table cannot take is refused before either table is written.
        Row rekeyed = rekey.rekeyed(row);
        if (!rekey.switched()) {
            unflushedBytes += opened(row.table()).write(row);
        }
        TableWriter target = writers.get(rekey.role());
        if (target == null) {
            metrics.add(rekey.role(), rekey.table());
            target = open(rekey.role(), rekey.table());
        }
        unflushedBytes += target.write(rekeyed);
    }

    /**
     * Held back with the other replaces and deletes until {@link ChangeBatch#MAX_CHANGES} of
     * them, a plain write or a flush: then one read gets the stored rows of them all (but those
     * the source gave) and each is applied as {@link ChangeBatch} says.
     *
     * <p>Each Delete masks exactly the cells read, at their timestamps (the event times), not
     * everything up to now: a Delete at the current time would mask every later re-insert of an
     * event of the past. rowflow creates its HBase tables with new version behaviour (see
     * {@link TableAdmin}), so a Delete masks only the cells written before it: a re-insert written
     * after it stays, whatever its timestamp, and a replay of insert, delete and re-insert ends as
     * the first run did. Bigtable has no delete markers: a Delete removes the cells there are.
     */
    @Override
    public void replace(TableRole table, List<Row> rows, EventMapping mapping, Prior prior) throws IOException {
        throwIfFailed();
        opened(table);
        changes.replace(table, rows, mapping, prior);
        applyChangesIfFull();
    }

    /** Held back as a {@link #replace} is. */
    @Override
    public void delete(TableRole table, byte[] key, EventMapping mapping, Prior prior, DeleteOutcome outcome)
            throws IOException {
        throwIfFailed();
        opened(table);
        changes.delete(table, key, mapping, prior, outcome);
        applyChangesIfFull();
    }

    private void applyChangesIfFull() throws IOException {
        if (changes.isFull()) {
            applyChanges();
        }
    }

    private void applyChanges() throws IOException {
        if (!changes.isEmpty()) {
            unflushedBytes += changes.apply(changeSink);
        }
    }

    private TableWriter open(TableRole role, TableDefinition table) throws IOException {
        RowSender sender = new MutatorSender(connection, role, table, settings, metrics, failures,
                () -> failure.get() != null);
        TableWriter writer = new TableWriter(connection, role, table, sender, metrics);
        writers.put(role, writer);
        return writer;
    }

    /**
     * The writer of {@code table}, opened here for a table added since the sink was opened (see
     * {@link #tables}): one map lookup for a table it writes already.
     */
    private TableWriter opened(TableRole table) throws IOException {
        TableWriter writer = writers.get(table);
        if (writer == null && tables.containsKey(table)) {
            writer = open(table, tables.get(table));
        }
        return writer == null ? writer(table) : writer;
    }

    private TableWriter writer(TableRole table) {
        TableWriter writer = writers.get(table);
        if (writer == null) {
            throw new IllegalStateException("no table configured for " + table);
        }
        return writer;
    }

    @Override
    public void count(Counter counter, String source, long position) {
        counters.add(counter, source, position);
    }

    /** Sends the buffered rows of every table, then applies the counters (see {@link IdempotentCounters}). */
    @Override
    public void flush() throws IOException {
        applyChanges();
        flushTables();
    }

    private void flushTables() throws IOException {
        long start = System.nanoTime();
        boolean flushed = false;
        try {
            for (TableWriter writer : writers.values()) {
                writer.flush();
            }
            throwIfFailed();
            counters.apply().forEach(metrics::counterUpdates);
            flushed = true;
        } finally {
            metrics.flushTimer().record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            reportFlushed(flushed);
        }
    }

    private void reportFlushed(boolean flushed) {
        unflushedBytes = 0;
        writers.values().forEach(writer -> writer.flushed(flushed));
    }

    @Override
    public void close() throws IOException {
        metrics.registry().remove(unflushedBytesGauge);
        IOException first = null;
        try {
            applyChanges();
        } catch (IOException e) {
            first = e;
        }
        writers.values().forEach(TableWriter::stopSending);
        try {
            if (!counters.isEmpty()) {
                counters.apply().forEach(metrics::counterUpdates);
            }
        } catch (IOException e) {
            if (first == null) {
                first = e;
            } else {
                first.addSuppressed(e);
            }
        }
        for (TableWriter writer : writers.values()) {
            try {
                writer.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        reportFlushed(first == null && failure.get() == null);
        if (first != null) {
            throw first;
        }
        throwIfFailed();
    }

    private void throwIfFailed() throws RetriesExhaustedWithDetailsException {
        RetriesExhaustedWithDetailsException e = failure.getAndSet(null);
        if (e != null) {
            throw e;
        }
    }

    /** After a failed start: stops the senders and closes those opened so far. */
    private void closeQuietly(Exception cause) {
        for (TableWriter writer : writers.values()) {
            try {
                writer.stopSending();
                writer.close();
            } catch (IOException | RuntimeException e) {
                cause.addSuppressed(e);
            }
        }
    }
}
