package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Counter;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.Salt;
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
 * <p><b>Sending overlaps writing.</b> Each table has a sender thread that sends the buffer while
 * the stream thread goes on filling it: when half of {@code writeBufferBytes} is waiting, or when
 * {@code periodicFlushMillis} has passed since its last send began. The stream thread itself sends
 * (and waits) only when the whole write buffer is full before the sender took it, which is the
 * back pressure that bounds memory when HBase is slow. Without the sender, every full buffer
 * would stop the stream thread for a round trip to the region servers.
 *
 * <p><b>Sending is the sink's own, not HBase's timer.</b> {@code BufferedMutator.flush()} waits
 * only for the rows it takes from the buffer itself: while another thread has rows on their way, a
 * concurrent {@code flush()} finds the buffer empty and returns before they are written. The
 * commit would then advance offsets past rows HBase does not have. So HBase's periodic flush is
 * always off, and a table's sender and {@link #flush()} take the same lock: a flush returns only
 * after every row written before it has been acknowledged (or its failure is thrown). Rows the
 * stream thread sends itself are acknowledged before its {@code write} returns.
 */
public final class HBaseRowSink implements RowSink {
    private final Map<TableRole, BufferedMutator> mutators = new java.util.TreeMap<>();
    /** The sender of each table, if sending is on ({@code periodicFlushMillis > 0}). */
    private final Map<TableRole, TableSender> senders = new java.util.HashMap<>();
    private final Map<TableRole, Long> cellTtlMillis = new java.util.TreeMap<>();
    private final int maxKeyValueSize;
    private final AtomicReference<RetriesExhaustedWithDetailsException> failure = new AtomicReference<>();
    private final IdempotentCounters counters;
    private final SinkMetrics metrics;
    /** Rows written since the last flush, by table role: counted when a flush returns. */
    private final Map<TableRole, long[]> pendingRows = new java.util.HashMap<>();
    /** The same per salt bucket, for tables with a bucket(N) layout. */
    private final Map<TableRole, BucketRows> pendingBucketRows = new java.util.HashMap<>();
    private final io.micrometer.core.instrument.Gauge bufferedBytes;
    private volatile long unflushedBytes;

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
                    pendingBucketRows.put(role, new BucketRows(table.getValue().layout().salt(),
                            new long[metrics.buckets(role)]));
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
                BufferedMutator mutator = connection.getBufferedMutator(params);
                mutators.put(role, mutator);
                if (settings.periodicFlushMillis() > 0) {
                    long wakeBytes = (settings.writeBufferBytes() > 0 ? settings.writeBufferBytes()
                            : mutator.getWriteBufferSize()) / 2;
                    TableSender sender = new TableSender(role, mutator, wakeBytes,
                            settings.periodicFlushMillis(), "rowflow-sink-sender-" + Thread.currentThread().getName()
                            + "-" + table.getValue().name().getNameAsString());
                    senders.put(role, sender);
                    sender.start();
                }
            }
        } catch (IOException | RuntimeException e) {
            closeQuietly(e);
            throw e;
        }
        this.bufferedBytes = io.micrometer.core.instrument.Gauge.builder("rowflow.sink.unflushed.bytes", this,
                        HBaseRowSink::bufferedBytes)
                .tag("thread", Thread.currentThread().getName())
                .description("Bytes written to the sink since its last flush returned (at most a commit interval of rows)").register(metrics.registry());
    }

    /**
     * One table's sender: sends what the stream thread wrote while it goes on writing (see the
     * class comment). The stream thread only adds to {@link #writtenBytes}, with release
     * semantics, and wakes the sender when half a buffer waits.
     */
    private final class TableSender extends Thread {
        private final TableRole role;
        private final BufferedMutator mutator;
        private final long wakeBytes;
        private final long periodNanos;
        /** Held while rows are on their way: by this sender and by {@link HBaseRowSink#flush()}. */
        private final Object sending = new Object();
        /** Estimated bytes of the rows written so far (the stream thread's, single writer). */
        private final java.util.concurrent.atomic.AtomicLong writtenBytes = new java.util.concurrent.atomic.AtomicLong();
        /** Rows written so far (the stream thread's, single writer). */
        private final java.util.concurrent.atomic.AtomicLong writtenRows = new java.util.concurrent.atomic.AtomicLong();
        /** Of those, sent and acknowledged; under {@link #sending}. */
        private long sentRows;
        /** The bytes written before the last send that succeeded: what the stream thread compares with. */
        private volatile long sentBytes;
        /** Set by the stream thread when it wakes the sender, cleared by the send it woke. */
        private volatile boolean waking;
        private volatile boolean stopped;

        TableSender(TableRole role, BufferedMutator mutator, long wakeBytes, long periodMillis, String name) {
            super(name);
            setDaemon(true);
            this.role = role;
            this.mutator = mutator;
            this.wakeBytes = Math.max(1, wakeBytes);
            this.periodNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(periodMillis);
        }

        /** Counts a row the stream thread gave the mutator; wakes the sender at half a buffer. */
        void written(long bytes) {
            long written = writtenBytes.get() + bytes;
            writtenBytes.lazySet(written);
            writtenRows.lazySet(writtenRows.get() + 1);
            if (written - sentBytes >= wakeBytes && !waking) {
                waking = true;
                java.util.concurrent.locks.LockSupport.unpark(this);
            }
        }

        @Override
        public void run() {
            long lastSend = System.nanoTime();
            while (!stopped) {
                long wait = lastSend + periodNanos - System.nanoTime();
                if (wait > 0 && writtenBytes.get() - sentBytes < wakeBytes) {
                    java.util.concurrent.locks.LockSupport.parkNanos(this, wait);
                    continue;
                }
                // Measured from the start of the send, so no row waits more than a period for the next one.
                lastSend = System.nanoTime();
                send();
            }
        }

        /**
         * Sends every row written so far and waits for them. A failure reaches the listener and
         * so the next write or flush; until then nothing more is counted as sent.
         */
        void send() {
            synchronized (sending) {
                long bytes = writtenBytes.get();
                long rows = writtenRows.get();
                waking = false;
                if (rows == sentRows) {
                    sentBytes = bytes;
                    return;
                }
                try {
                    mutator.flush();
                } catch (IOException | RuntimeException e) {
                    // The listener has the send failures; anything else shows again at the commit's flush.
                    return;
                }
                if (failure.get() == null) {
                    metrics.rowsSent(role, rows - sentRows);
                    sentRows = rows;
                    sentBytes = bytes;
                }
            }
        }

        /** The commit's flush: waits for a send in progress, then sends the rest and waits for it. */
        void flushAll() throws IOException {
            synchronized (sending) {
                long bytes = writtenBytes.get();
                long rows = writtenRows.get();
                mutator.flush();
                if (failure.get() == null && rows > sentRows) {
                    metrics.rowsSent(role, rows - sentRows);
                    sentRows = rows;
                    sentBytes = bytes;
                }
            }
        }

        void stopSending() {
            stopped = true;
            java.util.concurrent.locks.LockSupport.unpark(this);
            try {
                // A send in progress finishes (or fails into the listener) before the mutators close.
                join(java.util.concurrent.TimeUnit.MINUTES.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
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
        long bytes = estimatedHeapSize(row);
        unflushedBytes += bytes;
        TableSender sender = senders.get(row.table());
        if (sender != null) {
            sender.written(bytes);
        }
        pendingRows.get(row.table())[0]++;
        BucketRows buckets = pendingBucketRows.get(row.table());
        if (buckets != null) {
            buckets.add(row.key());
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
            for (Map.Entry<TableRole, BufferedMutator> table : mutators.entrySet()) {
                TableSender sender = senders.get(table.getKey());
                if (sender != null) {
                    sender.flushAll();
                } else {
                    table.getValue().flush();
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
            BucketRows buckets = pendingBucketRows.get(role);
            if (flushed && rows[0] > 0) {
                metrics.rowsFlushed(role, rows[0]);
                if (buckets != null) {
                    metrics.bucketRowsFlushed(role, buckets.rows());
                }
            }
            rows[0] = 0;
            if (buckets != null) {
                java.util.Arrays.fill(buckets.rows(), 0);
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
        senders.values().forEach(TableSender::stopSending);
    }

    /**
     * About the heap a row's Put takes, without walking the Put's family map as
     * {@code Put.heapSize()} does (the mutator does that once already): a fixed cost per Put and
     * per cell, plus the bytes of each cell as a KeyValue.
     */
    static long estimatedHeapSize(Row row) {
        long bytes = 160;
        int keyLength = row.key().length;
        for (Cell cell : row.cells()) {
            bytes += 72 + KeyValue.getKeyValueDataStructureSize(keyLength, cell.family().length,
                    cell.qualifier().length, cell.value().length);
        }
        return bytes;
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

    /** Rows written per salt bucket since the last flush, indexed by bucket; keys of no bucket are not counted. */
    private record BucketRows(Salt salt, long[] rows) {
        void add(byte[] key) {
            int bucket = salt.bucketOf(key);
            if (bucket >= 0) {
                rows[bucket]++;
            }
        }
    }
}
