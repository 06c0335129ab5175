package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.Salt;
import org.apache.hadoop.hbase.CellScanner;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What {@link HBaseRowSink} keeps per table: how its rows reach the store (a {@link RowSender}),
 * its cell TTL and the rows written since the last flush (in all and per salt bucket), which are
 * counted as flushed only when a flush made them durable. Used by the stream thread only; the
 * sender's own threads are in its contract.
 */
final class TableWriter {
    private final TableRole role;
    private final RowSender sender;
    private final long cellTtlMillis;
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

    TableWriter(Connection connection, TableRole role, TableDefinition table, RowSender sender, SinkMetrics metrics) {
        this.connection = connection;
        this.name = table.name();
        this.role = role;
        this.sender = sender;
        this.cellTtlMillis = table.settings().cellTtlMillis();
        this.metrics = metrics;
        this.salt = table.layout().salt();
        this.pendingBucketRows = metrics.tracksBuckets(role) ? new long[metrics.buckets(role)] : null;
    }

    /**
     * Gives the row's Put to the sender (which may wait while the table's unacknowledged rows are
     * at their bound).
     *
     * @return the row's estimated heap size, for the sink's unflushed bytes
     */
    long write(Row row) throws IOException {
        long bytes = estimatedHeapSize(row);
        sender.send(toPut(row, cellTtlMillis, bytes), bytes);
        if (pendingKeys != null) {
            pendingKeys.add(ByteBuffer.wrap(row.key()));
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

    /** Returns once every row written so far is acknowledged, or its failure has reached the sink. */
    void flush() throws IOException {
        sender.flush();
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

    /** Stops sending in the background once a send in progress has finished, so the sender can be closed. */
    void stopSending() {
        sender.stopSending();
    }

    /** Closes the sender, which sends what it still holds. */
    void close() throws IOException {
        if (table != null) {
            table.close();
        }
        sender.close();
    }

    /**
     * The Put of a row: every cell at the row's timestamp, with the row's own TTL (from the
     * record, {@code input.<name>.ttl.ms}) or else the table's cell TTL if it has one (HBase
     * counts a cell TTL from the cell timestamp, i.e. from the event time).
     */
    static Put toPut(Row row, long cellTtlMillis, long heapSize) {
        // A row's arrays are never changed once it is built, so the Put and its cells share them
        // rather than copying each cell into a KeyValue array (Put.addColumn's copy); each cell
        // writes itself into the request in one piece (RowCell).
        byte[] key = row.key();
        List<Cell> cells = row.cells();
        org.apache.hadoop.hbase.Cell[] rowCells = new org.apache.hadoop.hbase.Cell[cells.size()];
        for (int i = 0; i < rowCells.length; i++) {
            Cell cell = cells.get(i);
            rowCells[i] = new RowCell(key, cell.family(), cell.qualifier(), row.timestamp(), cell.value());
        }
        Put put = new SizedPut(key, row.timestamp(), heapSize, rowCells);
        if (row.ttlMillis() > 0) {
            put.setTTL(row.ttlMillis());
        } else if (cellTtlMillis > 0) {
            put.setTTL(cellTtlMillis);
        }
        return put;
    }

    /**
     * A row's Put, which knows its cells: its heap size is given, not worked out (the row's
     * estimate, computed once as the row is written), and its cell count and cells are read from
     * an array rather than by walking the family map. A {@code BufferedMutator} sizes every Put it
     * takes twice -- to fill its buffer, and again to pace its sends -- and {@link Put#heapSize()}
     * walks the family map and every cell each time (a sixth of a stream thread's CPU samples,
     * measured with {@code rowflow bench --external --jfr}); the client then counts the cells of
     * every Put as it builds a request ({@link #size()}, 5 % of the process's samples: the family
     * map's entries, long out of the CPU's caches) and goes over them again to encode them
     * ({@link #cellScanner()}). The cells are those of one row, in the row's order; nothing is
     * added to the Put after it is built.
     */
    static final class SizedPut extends Put {
        private final long heapSize;
        private final org.apache.hadoop.hbase.Cell[] cells;

        SizedPut(byte[] row, long timestamp, long heapSize, org.apache.hadoop.hbase.Cell[] cells) {
            super(row, true);
            setTimestamp(timestamp);
            this.heapSize = heapSize;
            this.cells = cells;
            for (org.apache.hadoop.hbase.Cell cell : cells) {
                try {
                    super.add(cell);
                } catch (IOException e) {
                    throw new IllegalStateException(e); // only for a cell of another row, which these are not
                }
            }
        }

        @Override
        public long heapSize() {
            return heapSize;
        }

        @Override
        public int size() {
            return cells.length;
        }

        @Override
        public CellScanner cellScanner() {
            return new CellScanner() {
                private int next;

                @Override
                public org.apache.hadoop.hbase.Cell current() {
                    return next > 0 && next <= cells.length ? cells[next - 1] : null;
                }

                @Override
                public boolean advance() {
                    if (next > cells.length) {
                        return false;
                    }
                    return ++next <= cells.length;
                }
            };
        }
    }

    /**
     * About the heap a row's Put takes, without walking the Put's family map as
     * {@code Put.heapSize()} does: a fixed cost per Put and per cell, plus the bytes of each cell
     * as a KeyValue.
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
