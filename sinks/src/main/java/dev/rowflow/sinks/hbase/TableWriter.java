package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.Salt;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * What {@link HBaseRowSink} keeps per table: the table's {@link BufferedMutator}, its
 * {@link TableSender} (when sending is on), its cell TTL and the rows written since the last
 * flush (in all and per salt bucket), which are counted as flushed only when a flush made them
 * durable. Used by the stream thread only; the sender is the one other thread, see its contract.
 */
final class TableWriter {
    private final TableRole role;
    private final BufferedMutator mutator;
    private final long cellTtlMillis;
    private final TableSender sender;
    private final SinkMetrics metrics;
    private long pendingRows;
    /** Rows per salt bucket since the last flush, for tables with a bucket(N) layout; else null. */
    private final long[] pendingBucketRows;
    private final Salt salt;
    private final Connection connection;
    private final TableName name;
    /** For reads and deletes, opened at the first. */
    private Table table;
    /**
     * The keys of the rows written since the last flush, once a delete asked ({@link #mayBePending});
     * null before: tables that never see a delete pay nothing for it.
     */
    private Set<ByteBuffer> pendingKeys;

    /**
     * Opens the table's mutator (and starts its sender when {@code settings.periodicFlushMillis() > 0}).
     *
     * @param failures where a send failure goes; the sink throws it at its next write or flush
     * @param failed   whether such a failure is waiting to be thrown
     */
    static TableWriter open(Connection connection, TableRole role, TableDefinition table, SinkSettings settings,
                            SinkMetrics metrics, Consumer<RetriesExhaustedWithDetailsException> failures,
                            BooleanSupplier failed) throws IOException {
        BufferedMutatorParams params = new BufferedMutatorParams(table.name())
                .listener((e, mutator) -> {
                    metrics.mutationsFailed(role, e.getNumExceptions());
                    failures.accept(e);
                });
        if (settings.writeBufferBytes() > 0) {
            params.writeBufferSize(settings.writeBufferBytes());
        }
        // Off even if hbase-site.xml sets it: HBase's timer flush would race the commit's flush
        // (see TableSender); the sender is the periodic flush.
        params.setWriteBufferPeriodicFlushTimeoutMs(0);
        BufferedMutator mutator = connection.getBufferedMutator(params);
        TableSender sender = null;
        if (settings.periodicFlushMillis() > 0) {
            long wakeBytes = (settings.writeBufferBytes() > 0 ? settings.writeBufferBytes()
                    : mutator.getWriteBufferSize()) / 2;
            sender = new TableSender(role, mutator, wakeBytes, settings.periodicFlushMillis(), failed, metrics,
                    "rowflow-sink-sender-" + Thread.currentThread().getName() + "-" + table.name().getNameAsString());
            sender.start();
        }
        return new TableWriter(connection, role, mutator, table, sender, metrics);
    }

    private TableWriter(Connection connection, TableRole role, BufferedMutator mutator, TableDefinition table,
                        TableSender sender, SinkMetrics metrics) {
        this.connection = connection;
        this.name = table.name();
        this.role = role;
        this.mutator = mutator;
        this.cellTtlMillis = table.settings().cellTtlMillis();
        this.sender = sender;
        this.metrics = metrics;
        this.salt = table.layout().salt();
        this.pendingBucketRows = metrics.tracksBuckets(role) ? new long[metrics.buckets(role)] : null;
    }

    /**
     * Gives the row's Put to the mutator (which sends it when its buffer is full, waiting for it).
     *
     * @return the row's estimated heap size, for the sink's unflushed bytes
     */
    long write(Row row) throws IOException {
        mutator.mutate(toPut(row, cellTtlMillis));
        if (pendingKeys != null) {
            pendingKeys.add(ByteBuffer.wrap(row.key()));
        }
        long bytes = estimatedHeapSize(row);
        if (sender != null) {
            sender.written(bytes);
        }
        pendingRows++;
        if (pendingBucketRows != null) {
            int bucket = salt.bucketOf(row.key());
            if (bucket >= 0) {
                pendingBucketRows[bucket]++;
            }
        }
        return bytes;
    }

    /**
     * Whether a row of {@code key} may have been written since the last flush (and may not be
     * stored yet): until {@link #trackPendingKeys} every key may be.
     */
    boolean mayBePending(byte[] key) {
        return pendingKeys == null || pendingKeys.contains(ByteBuffer.wrap(key));
    }

    /** Keeps the keys written from now until each flush, for {@link #mayBePending}; call it right after a flush. */
    void trackPendingKeys() {
        if (pendingKeys == null) {
            pendingKeys = new HashSet<>();
        }
    }

    /** The rows as stored now (the latest version of each cell), in the order of {@code gets}; empty where there is none. */
    Result[] read(List<Get> gets) throws IOException {
        return table().get(gets);
    }

    /**
     * Sends {@code deletes} as one batch of their own, outside the mutator's; returns once each is
     * applied. Empties the list.
     */
    void deleteNow(List<Delete> deletes) throws IOException {
        table().delete(deletes);
    }

    private Table table() throws IOException {
        if (table == null) {
            table = connection.getTable(name);
        }
        return table;
    }

    /** Returns once every row written so far is acknowledged, or throws why not. */
    void flush() throws IOException {
        if (sender != null) {
            sender.flushAll();
        } else {
            mutator.flush();
        }
    }

    /**
     * Counts the rows written since the last flush if {@code flushed} (that flush made them
     * durable); after a failed flush they are not counted: the records are processed again and
     * counted then.
     */
    void flushed(boolean flushed) {
        if (flushed && pendingKeys != null) {
            pendingKeys.clear();
        }
        if (flushed && pendingRows > 0) {
            metrics.rowsFlushed(role, pendingRows);
            if (pendingBucketRows != null) {
                metrics.bucketRowsFlushed(role, pendingBucketRows);
            }
        }
        pendingRows = 0;
        if (pendingBucketRows != null) {
            Arrays.fill(pendingBucketRows, 0);
        }
    }

    /** Stops the sender once its send in progress has finished, so the mutator can be closed. */
    void stopSending() {
        if (sender != null) {
            sender.stopSending();
        }
    }

    /** Closes the mutator, which sends what it still holds. */
    void close() throws IOException {
        if (table != null) {
            table.close();
        }
        mutator.close();
    }

    /**
     * The Put of a row: every cell at the row's timestamp, with the row's own TTL (from the
     * record, {@code input.<name>.ttl.ms}) or else the table's cell TTL if it has one (HBase
     * counts a cell TTL from the cell timestamp, i.e. from the event time).
     */
    static Put toPut(Row row, long cellTtlMillis) {
        Put put = new Put(row.key(), row.timestamp());
        for (Cell cell : row.cells()) {
            put.addColumn(cell.family(), cell.qualifier(), row.timestamp(), cell.value());
        }
        if (row.ttlMillis() > 0) {
            put.setTTL(row.ttlMillis());
        } else if (cellTtlMillis > 0) {
            put.setTTL(cellTtlMillis);
        }
        return put;
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
}
