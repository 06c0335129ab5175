package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.sinks.RowSink;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The replaces and deletes of an {@link HBaseRowSink} not applied yet, applied together so that
 * one multi-get reads the stored rows of all their keys instead of one Get per change.
 *
 * <p>Applying a batch has the effect of applying its changes one by one, in the order they came:
 * <ol>
 *   <li>a key's row before the batch is what its first change's {@link RowSink.Prior} says, or
 *       else the stored row. If a key to be read may have been written since the last flush, the
 *       sink flushes first, so the read sees that row (see {@link TableWriter#mayBePending});</li>
 *   <li>one read of the stored rows of every such key, per data table;</li>
 *   <li>per key, only its last change counts: the images before it in the batch were never written,
 *       so nothing of them needs deleting. What the stored row has that the last change does not
 *       rewrite is deleted: its index rows (keys rebuilt from the stored row, as
 *       {@link DualWriteIndex} does), then its cells, each Delete at the stored cell's timestamp.
 *       A cell or index row the new image rewrites at the same or a later timestamp needs no
 *       Delete; one it would write at an earlier timestamp (a replayed change) does, or the stored
 *       newer cell would hide it. A row the source gave was not read, so the timestamps of its
 *       cells are unknown: its cells are deleted at {@link #EVERY_EARLIER_WRITE}, and its index
 *       rows but those the new image rewrites (their one cell holds the same data key);</li>
 *   <li>if a row to be deleted may have been written since the last flush (a given prior's row,
 *       which step 1 did not flush), the sink flushes first: a Delete masks only what is written
 *       before it;</li>
 *   <li>the index deletes of the batch are sent, then its data deletes -- synchronously, outside
 *       the mutators' batches, so a later Put of the row never shares a sequence id with them --
 *       and only then the new images are given to the mutators (data row first). A cell of the new
 *       data row whose value is {@link Cell#UNAVAILABLE} (a column the change did not carry) is
 *       written with the value of the row before instead, or not at all where it had none.</li>
 * </ol>
 * A batch cut short by a failure is dropped: its records were not committed and are processed
 * again, and each step is one that doing again completes.
 */
final class ChangeBatch {
    /** Changes applied with one read; a commit or a plain write applies fewer. */
    static final int MAX_CHANGES = 1_000;

    /**
     * The timestamp of a Delete of cells whose timestamps were not read. rowflow's HBase tables
     * keep new version behaviour (see {@link TableAdmin}): a Delete masks only cells written
     * before it, so one at the highest timestamp masks each of them whatever its event time, and
     * none written after it. Bigtable has no markers: such a Delete removes every cell there is.
     */
    static final long EVERY_EARLIER_WRITE = HConstants.LATEST_TIMESTAMP - 1;

    /** A replace ({@code rows} the new image, the data row first) or a delete ({@code rows} null). */
    private record Change(TableRole table, byte[] key, List<Row> rows, EventMapping mapping, RowSink.Prior prior,
                          RowSink.DeleteOutcome outcome) {
    }

    /** The changes of one key in the batch, and its row before them. */
    private static final class KeyChanges {
        final byte[] key;
        final List<Change> changes = new ArrayList<>(1);
        /** The row before the batch, empty if none. */
        Result before;
        /** Whether {@link #before} is the source's image, not read: its cell timestamps are unknown. */
        boolean given;

        KeyChanges(byte[] key) {
            this.key = key;
        }

        RowSink.Prior prior() {
            return changes.get(0).prior();
        }
    }

    private static final Result EMPTY = Result.create(List.of());

    private final List<Change> changes = new ArrayList<>();

    void replace(TableRole table, List<Row> rows, EventMapping mapping, RowSink.Prior prior) {
        // A value the change did not carry is the stored one: read it, whatever the source gave.
        boolean unavailable = rows.get(0).cells().stream().anyMatch(Cell::unavailable);
        changes.add(new Change(table, rows.get(0).key(), rows, mapping, unavailable ? RowSink.Prior.STORED : prior, null));
    }

    void delete(TableRole table, byte[] key, EventMapping mapping, RowSink.Prior prior,
                RowSink.DeleteOutcome outcome) {
        changes.add(new Change(table, key, null, mapping, prior, outcome));
    }

    boolean isEmpty() {
        return changes.isEmpty();
    }

    boolean isFull() {
        return changes.size() >= MAX_CHANGES;
    }

    /** What applying needs of the sink. */
    interface Sink {
        TableWriter writer(TableRole table);

        /** Flushes every table, making every row written so far durable. */
        void flush() throws IOException;
    }

    /**
     * Applies the batch (see the class comment) and empties it, also when it fails.
     *
     * @return the estimated heap size of the rows given to the mutators
     */
    long apply(Sink sink) throws IOException {
        if (changes.isEmpty()) {
            return 0;
        }
        try {
            Map<TableRole, Map<ByteBuffer, KeyChanges>> byTable = new TreeMap<>();
            for (Change change : changes) {
                byTable.computeIfAbsent(change.table(), t -> new LinkedHashMap<>())
                        .computeIfAbsent(ByteBuffer.wrap(change.key()), k -> new KeyChanges(change.key()))
                        .changes.add(change);
            }
            boolean flush = false;
            for (Map.Entry<TableRole, Map<ByteBuffer, KeyChanges>> table : byTable.entrySet()) {
                for (KeyChanges key : table.getValue().values()) {
                    flush |= key.prior().stored() && sink.writer(table.getKey()).mayBePending(key.key);
                }
            }
            if (flush) {
                sink.flush();
                byTable.keySet().forEach(table -> sink.writer(table).trackPendingKeys());
            }
            Map<TableRole, List<Delete>> indexDeletes = new TreeMap<>();
            Map<TableRole, List<Delete>> dataDeletes = new TreeMap<>();
            for (Map.Entry<TableRole, Map<ByteBuffer, KeyChanges>> table : byTable.entrySet()) {
                List<KeyChanges> read = new ArrayList<>();
                for (KeyChanges key : table.getValue().values()) {
                    RowSink.Prior prior = key.prior();
                    if (prior.stored()) {
                        read.add(key);
                    } else {
                        key.before = prior.row() == null ? EMPTY : resultOf(prior.row());
                        key.given = true;
                    }
                }
                if (!read.isEmpty()) {
                    List<Get> gets = new ArrayList<>(read.size());
                    read.forEach(key -> gets.add(new Get(key.key)));
                    Result[] stored = sink.writer(table.getKey()).read(gets);
                    for (int i = 0; i < read.size(); i++) {
                        read.get(i).before = stored[i];
                    }
                }
                for (KeyChanges key : table.getValue().values()) {
                    reportOutcomes(key);
                    deletesOf(table.getKey(), key, indexDeletes, dataDeletes);
                }
            }
            if (mayBePending(sink, indexDeletes) || mayBePending(sink, dataDeletes)) {
                // A Delete masks only the cells written before it: a Put of one of its rows still
                // on its way (a given prior was not read, so nothing flushed it) must land first.
                sink.flush();
                indexDeletes.keySet().forEach(table -> sink.writer(table).trackPendingKeys());
                dataDeletes.keySet().forEach(table -> sink.writer(table).trackPendingKeys());
            }
            for (Map.Entry<TableRole, List<Delete>> deletes : indexDeletes.entrySet()) {
                sink.writer(deletes.getKey()).deleteNow(deletes.getValue());
            }
            for (Map.Entry<TableRole, List<Delete>> deletes : dataDeletes.entrySet()) {
                sink.writer(deletes.getKey()).deleteNow(deletes.getValue());
            }
            long bytes = 0;
            for (Map<ByteBuffer, KeyChanges> keys : byTable.values()) {
                for (KeyChanges key : keys.values()) {
                    List<Row> image = last(key).rows();
                    if (image != null) {
                        Row data = lastDataRow(key);
                        for (Row row : image) {
                            Row written = row == image.get(0) ? data : row;
                            if (written != null) {
                                bytes += sink.writer(row.table()).write(written);
                            }
                        }
                    }
                }
            }
            return bytes;
        } finally {
            changes.clear();
        }
    }

    /**
     * The data row the key's last change writes, its {@link Cell#UNAVAILABLE} cells holding the values of the
     * changes before it in the batch, or of the row before the batch; null if no cell remains.
     */
    private static Row lastDataRow(KeyChanges key) {
        Result current = key.before;
        Row data = null;
        for (Change change : key.changes) {
            data = change.rows() == null ? null : withUnavailableKept(change.rows().get(0), current);
            current = data == null ? EMPTY : resultOf(data);
        }
        return data;
    }

    /**
     * The data row with each {@link Cell#UNAVAILABLE} cell holding the value of the row before (the
     * stored cell, or the given before image's), left out where that has none; null if no cell remains.
     */
    private static Row withUnavailableKept(Row row, Result before) {
        List<Cell> cells = null;
        for (int i = 0; i < row.cells().size(); i++) {
            Cell cell = row.cells().get(i);
            if (cell.unavailable()) {
                if (cells == null) {
                    cells = new ArrayList<>(row.cells().subList(0, i));
                }
                byte[] kept = before.getValue(cell.family(), cell.qualifier());
                if (kept != null && !new Cell(cell.family(), cell.qualifier(), kept).unavailable()) {
                    cells.add(new Cell(cell.family(), cell.qualifier(), kept));
                }
            } else if (cells != null) {
                cells.add(cell);
            }
        }
        if (cells == null) {
            return row;
        }
        return cells.isEmpty() ? null : new Row(row.table(), row.key(), row.timestamp(), cells, row.ttlMillis());
    }

    /** Whether a row that one of {@code deletes} deletes may have been written since the last flush. */
    private static boolean mayBePending(Sink sink, Map<TableRole, List<Delete>> deletes) {
        for (Map.Entry<TableRole, List<Delete>> table : deletes.entrySet()) {
            TableWriter writer = sink.writer(table.getKey());
            for (Delete delete : table.getValue()) {
                if (writer.mayBePending(delete.getRow())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Tells each delete of the key whether a row was there: stored, or the image of the change before it. */
    private static void reportOutcomes(KeyChanges key) {
        boolean present = !key.before.isEmpty();
        for (Change change : key.changes) {
            if (change.rows() == null) {
                change.outcome().applied(present);
            }
            present = change.rows() != null;
        }
    }

    private static Change last(KeyChanges key) {
        return key.changes.get(key.changes.size() - 1);
    }

    /** Adds the Deletes of what the row before the batch has and the key's last change does not rewrite. */
    private static void deletesOf(TableRole table, KeyChanges key, Map<TableRole, List<Delete>> indexDeletes,
                                  Map<TableRole, List<Delete>> dataDeletes) {
        if (key.before.isEmpty()) {
            return;
        }
        List<Row> image = last(key).rows();
        // The row's index rows are those of the mapping that wrote it, as far as the batch knows: the first.
        EventMapping mapping = key.changes.get(0).mapping();
        long latest = 0;
        for (org.apache.hadoop.hbase.Cell cell : key.before.rawCells()) {
            latest = Math.max(latest, cell.getTimestamp());
        }
        long rewrittenFrom = key.given ? Long.MIN_VALUE : latest;
        for (TableRole index : mapping.indexTables()) {
            Optional<Row> row = DualWriteIndex.indexRowOf(mapping, index, key.before, mapping.familyOf(table));
            if (row.isPresent() && !rewrites(image, index, row.get().key(), rewrittenFrom)) {
                indexDeletes.computeIfAbsent(index, t -> new ArrayList<>()).add(new Delete(row.get().key())
                        .addColumns(EventMapping.INDEX_FAMILY, EventMapping.DATA_ROW_KEY,
                                key.given ? EVERY_EARLIER_WRITE : latest));
            }
        }
        Delete delete = new Delete(key.key);
        if (key.given) {
            // Its cells' timestamps unknown, a new cell might sort below a stored one: all go.
            delete.addFamily(mapping.familyOf(table), EVERY_EARLIER_WRITE);
        } else {
            Row data = image == null ? null : image.get(0);
            for (org.apache.hadoop.hbase.Cell cell : key.before.rawCells()) {
                if (data == null || data.timestamp() < cell.getTimestamp() || !hasCell(data, cell)) {
                    delete.addColumns(CellUtil.cloneFamily(cell), CellUtil.cloneQualifier(cell), cell.getTimestamp());
                }
            }
        }
        if (!delete.isEmpty()) {
            dataDeletes.computeIfAbsent(table, t -> new ArrayList<>()).add(delete);
        }
    }

    /** The row {@code row} as a read would return it: its cells at its timestamp, in the store's order. */
    private static Result resultOf(Row row) {
        List<org.apache.hadoop.hbase.Cell> cells = new ArrayList<>(row.cells().size());
        for (Cell cell : row.cells()) {
            cells.add(new KeyValue(row.key(), cell.family(), cell.qualifier(), row.timestamp(), cell.value()));
        }
        cells.sort(CellComparator.getInstance());
        return Result.create(cells);
    }

    /** Whether {@code image} writes row {@code key} of {@code table} at {@code timestamp} or later. */
    private static boolean rewrites(List<Row> image, TableRole table, byte[] key, long timestamp) {
        if (image == null) {
            return false;
        }
        for (Row row : image) {
            if (row.table().equals(table) && row.timestamp() >= timestamp && Arrays.equals(row.key(), key)) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasCell(Row row, org.apache.hadoop.hbase.Cell stored) {
        for (Cell cell : row.cells()) {
            if (CellUtil.matchingColumn(stored, cell.family(), cell.qualifier())) {
                return true;
            }
        }
        return false;
    }
}
