package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Counter;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.sinks.RowSink;
import dev.rowflow.keying.InvalidEventException;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ConnectionConfiguration;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link RowSink} with one {@link BufferedMutator} per table role, over a shared
 * {@link Connection} it does not own.
 *
 * <p>Every row becomes one {@link Put} whose cells carry the row's timestamp (the event time), so
 * writing a row twice rewrites the same cells.
 *
 * <p>A mutator sends in the background (buffer full, periodic flush), where a failure cannot be
 * thrown to the caller. The {@link BufferedMutator.ExceptionListener} installed here keeps the
 * first failure, and the next {@link #write} or {@link #flush()} throws it: a failed send is never
 * swallowed, and the flush that would have marked those rows durable fails instead.
 *
 * <p><b>Periodic sending is the sink's own, not HBase's.</b> {@code BufferedMutator.flush()} waits
 * only for the rows it takes from the buffer itself: while HBase's periodic-flush timer has rows
 * on their way, a concurrent {@code flush()} finds the buffer empty and returns before they are
 * written. The commit would then advance offsets past rows HBase does not have. So HBase's timer
 * is always off, and the sink's sender thread and {@link #flush()} take the same lock: a flush
 * returns only after every row written before it has been acknowledged (or its failure is thrown).
 */
public final class HBaseRowSink implements RowSink {
    private final Map<TableRole, BufferedMutator> mutators = new java.util.TreeMap<>();
    private final Map<TableRole, Long> cellTtlMillis = new java.util.TreeMap<>();
    private final int maxKeyValueSize;
    private final AtomicReference<RetriesExhaustedWithDetailsException> failure = new AtomicReference<>();
    private final IdempotentCounters counters;
    private final SinkMetrics metrics;
    /** Rows written since the last flush, by table role: counted when a flush returns. */
    private final Map<TableRole, long[]> pendingRows = new java.util.HashMap<>();
    /** The same per salt bucket, for tables with a bucket(N) layout. */
    private final Map<TableRole, long[]> pendingBucketRows = new java.util.HashMap<>();
    private final io.micrometer.core.instrument.Gauge bufferedBytes;
    private volatile long unflushedBytes;
    /** Held while rows are on their way: by the periodic sender and by {@link #flush()}. */
    private final Object sending = new Object();
    private final java.util.concurrent.ScheduledExecutorService sender;

    public HBaseRowSink(Connection connection, Map<TableRole, TableDefinition> tables, SinkSettings settings)
            throws IOException {
        this(connection, tables, settings, SinkMetrics.none(tables));
    }

    public HBaseRowSink(Connection connection, Map<TableRole, TableDefinition> tables, SinkSettings settings,
                        SinkMetrics metrics) throws IOException {
        this.metrics = metrics;
        // The client refuses larger cells itself; checking first turns that into a dead letter.
        this.maxKeyValueSize = connection.getConfiguration().getInt(ConnectionConfiguration.MAX_KEYVALUE_SIZE_KEY,
                ConnectionConfiguration.MAX_KEYVALUE_SIZE_DEFAULT);
        Map<TableRole, org.apache.hadoop.hbase.TableName> names = new java.util.TreeMap<>();
        tables.forEach((role, table) -> names.put(role, table.name()));
        this.counters = new IdempotentCounters(connection, names);
        try {
            for (Map.Entry<TableRole, TableDefinition> table : tables.entrySet()) {
                cellTtlMillis.put(table.getKey(), table.getValue().settings().cellTtlMillis());
                TableRole role = table.getKey();
                pendingRows.put(role, new long[1]);
                if (metrics.tracksBuckets(role)) {
                    pendingBucketRows.put(role, new long[metrics.buckets(role)]);
                }
                BufferedMutatorParams params = new BufferedMutatorParams(table.getValue().name())
                        .listener((e, mutator) -> {
                            metrics.mutationsFailed(role, e.getNumExceptions());
                            failure.compareAndSet(null, e);
                        });
                if (settings.writeBufferBytes() > 0) {
                    params.writeBufferSize(settings.writeBufferBytes());
                }
                // Off even if hbase-site.xml sets it: see the class comment.
                params.setWriteBufferPeriodicFlushTimeoutMs(0);
                mutators.put(table.getKey(), connection.getBufferedMutator(params));
            }
        } catch (IOException | RuntimeException e) {
            closeQuietly(e);
            throw e;
        }
        this.sender = settings.periodicFlushMillis() > 0 ? startSender(settings.periodicFlushMillis()) : null;
        this.bufferedBytes = io.micrometer.core.instrument.Gauge.builder("rowflow.sink.unflushed.bytes", this,
                        HBaseRowSink::bufferedBytes)
                .tag("thread", Thread.currentThread().getName())
                .description("Bytes written to the sink since its last flush returned (at most a commit interval of rows)").register(metrics.registry());
    }

    private java.util.concurrent.ScheduledExecutorService startSender(long periodMillis) {
        String name = "rowflow-sink-sender-" + Thread.currentThread().getName();
        java.util.concurrent.ScheduledExecutorService executor =
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor(runnable -> {
                    Thread thread = new Thread(runnable, name);
                    thread.setDaemon(true);
                    return thread;
                });
        executor.scheduleWithFixedDelay(this::sendBuffered, periodMillis, periodMillis,
                java.util.concurrent.TimeUnit.MILLISECONDS);
        return executor;
    }

    /**
     * Sends what the buffers hold so rows do not wait for the commit. A failure reaches the
     * listener and so the next write or flush.
     */
    private void sendBuffered() {
        synchronized (sending) {
            for (BufferedMutator mutator : mutators.values()) {
                try {
                    mutator.flush();
                } catch (IOException | RuntimeException e) {
                    // The listener has the send failures; anything else shows again at the commit's flush.
                    return;
                }
            }
        }
    }

    /**
     * Bytes (heap size of the Puts) written since the last flush returned: what a crash now
     * would make the pipeline write again. The client may have sent part of it already.
     */
    private double bufferedBytes() {
        return unflushedBytes;
    }

    @Override
    public void check(Row row) {
        if (row.key().length == 0 || row.key().length > HConstants.MAX_ROW_LENGTH) {
            throw new InvalidEventException("row key", row.key().length + " bytes of " + row.table(),
                    "HBase row keys are 1 to " + HConstants.MAX_ROW_LENGTH + " bytes");
        }
        for (Cell cell : row.cells()) {
            long size = KeyValue.getKeyValueDataStructureSize(row.key().length, cell.family().length,
                    cell.qualifier().length, cell.value().length);
            if (maxKeyValueSize > 0 && size > maxKeyValueSize) {
                throw new InvalidEventException("cell " + Bytes.toString(cell.qualifier()), size + " bytes in "
                        + row.table(), "over the cell size limit of " + maxKeyValueSize + " bytes ("
                        + ConnectionConfiguration.MAX_KEYVALUE_SIZE_KEY + ")");
            }
        }
    }

    @Override
    public void write(Row row) throws IOException {
        throwIfFailed();
        BufferedMutator mutator = mutators.get(row.table());
        if (mutator == null) {
            throw new IllegalStateException("no table configured for " + row.table() + " (row " + row + ")");
        }
        Put put = toPut(row, cellTtlMillis.get(row.table()));
        mutator.mutate(put);
        unflushedBytes += put.heapSize();
        pendingRows.get(row.table())[0]++;
        long[] buckets = pendingBucketRows.get(row.table());
        if (buckets != null && (row.key()[0] & 0xFF) < buckets.length) {
            buckets[row.key()[0] & 0xFF]++;
        }
    }

    @Override
    public void count(Counter counter, String source, long position) {
        counters.add(counter, source, position);
    }

    /** Sends the buffered rows, then applies the counters (see {@link IdempotentCounters}). */
    @Override
    public void flush() throws IOException {
        long start = System.nanoTime();
        boolean flushed = false;
        try {
            synchronized (sending) {
                for (BufferedMutator mutator : mutators.values()) {
                    mutator.flush();
                }
            }
            throwIfFailed();
            counters.apply().forEach(metrics::counterUpdates);
            flushed = true;
        } finally {
            metrics.flushTimer().record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
            reportFlushed(flushed);
        }
    }

    /**
     * Counts the rows written since the last flush, if this flush made them durable; after a
     * failed flush they are not counted: the records are processed again and counted then.
     */
    private void reportFlushed(boolean flushed) {
        unflushedBytes = 0;
        for (TableRole role : mutators.keySet()) {
            long[] rows = pendingRows.get(role);
            long[] buckets = pendingBucketRows.get(role);
            if (flushed && rows[0] > 0) {
                metrics.rowsFlushed(role, rows[0]);
                if (buckets != null) {
                    metrics.bucketRowsFlushed(role, buckets);
                }
            }
            rows[0] = 0;
            if (buckets != null) {
                java.util.Arrays.fill(buckets, 0);
            }
        }
    }

    @Override
    public void close() throws IOException {
        metrics.registry().remove(bufferedBytes);
        stopSender();
        IOException first = null;
        try {
            if (!counters.isEmpty()) {
                counters.apply().forEach(metrics::counterUpdates);
            }
        } catch (IOException e) {
            first = e;
        }
        for (BufferedMutator mutator : mutators.values()) {
            try {
                mutator.close();
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

    /**
     * The Put of a row: every cell at the row's timestamp, with the table's cell TTL if it has one
     * (HBase counts a cell TTL from the cell timestamp, i.e. from the event time).
     */
    static Put toPut(Row row, long cellTtlMillis) {
        Put put = new Put(row.key(), row.timestamp());
        for (Cell cell : row.cells()) {
            put.addColumn(cell.family(), cell.qualifier(), row.timestamp(), cell.value());
        }
        if (cellTtlMillis > 0) {
            put.setTTL(cellTtlMillis);
        }
        return put;
    }

    private void throwIfFailed() throws RetriesExhaustedWithDetailsException {
        RetriesExhaustedWithDetailsException e = failure.getAndSet(null);
        if (e != null) {
            throw e;
        }
    }

    private void stopSender() {
        if (sender != null) {
            sender.shutdown();
            try {
                // A send in progress finishes (or fails into the listener) before the mutators close.
                sender.awaitTermination(10, java.util.concurrent.TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void closeQuietly(Exception cause) {
        for (BufferedMutator mutator : mutators.values()) {
            try {
                mutator.close();
            } catch (IOException | RuntimeException e) {
                cause.addSuppressed(e);
            }
        }
    }
}
