package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.mapping.EventMapping;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Keeps a dual-written index honest (seed 002, 1.9.2-1.9.3): the log index, or an index of a
 * declared input: {@link #verify} scans both
 * directions, {@link #backfill} builds the index rows of data written before the index existed
 * (or while it was disabled), {@link #removeDangling} deletes index rows that point nowhere.
 *
 * <p>The expected index row of a data row is rebuilt from its columns and cell timestamp by
 * {@link EventMapping#indexRowOf}, so verify and backfill agree with what the pipeline writes. A
 * backfill writes with the event time as cell timestamp, so running it twice, or alongside the
 * pipeline, rewrites the same cells.
 */
public final class DualWriteIndex {
    private static final int BATCH = 1_000;

    private final Connection connection;
    private final TableDefinition data;
    private final TableDefinition index;
    private final EventMapping mapping;
    private final TableRole indexRole;

    /** The index table of {@code indexRole} that {@code mapping} writes next to its data table. */
    public DualWriteIndex(Connection connection, TableDefinition data, TableDefinition index, EventMapping mapping,
                          TableRole indexRole) {
        this.connection = connection;
        this.data = data;
        this.index = index;
        this.mapping = mapping;
        this.indexRole = indexRole;
    }

    /** Scans data -> index and index -> data; keeps up to {@code maxExamples} examples. */
    public IndexReport verify(int maxExamples) throws IOException {
        List<String> examples = new ArrayList<>();
        long dataRows = 0;
        long unindexed = 0;
        long[] withoutKey = new long[1];
        try (Table dataTable = connection.getTable(data.name()); Table indexTable = connection.getTable(index.name());
             ResultScanner scanner = dataTable.getScanner(dataScan())) {
            long[] counts = new long[1];
            dataRows = inBatches(scanner, batch -> {
                counts[0] += unindexedIn(batch, indexTable, withoutKey, examples, maxExamples);
            });
            unindexed = counts[0];
        }
        long indexRows = 0;
        long dangling = 0;
        try (Table dataTable = connection.getTable(data.name()); Table indexTable = connection.getTable(index.name());
             ResultScanner scanner = indexTable.getScanner(new Scan().addColumn(EventMapping.INDEX_FAMILY,
                     EventMapping.DATA_ROW_KEY).setCaching(BATCH))) {
            long[] counts = new long[1];
            indexRows = inBatches(scanner, batch -> {
                counts[0] += danglingIn(batch, dataTable, examples, maxExamples).size();
            });
            dangling = counts[0];
        }
        return new IndexReport(dataRows, indexRows, unindexed, dangling, withoutKey[0], examples);
    }

    /** Writes the index row of every data row; returns how many it wrote. */
    public long backfill() throws IOException {
        long written = 0;
        try (Table dataTable = connection.getTable(data.name()); ResultScanner scanner = dataTable.getScanner(dataScan());
             HBaseRowSink sink = new HBaseRowSink(connection, Map.of(indexRole, index), new SinkSettings(0, 0))) {
            for (Result row : scanner) {
                Optional<Row> indexRow = expectedIndexRow(row);
                if (indexRow.isPresent()) {
                    sink.write(indexRow.get());
                    written++;
                }
            }
            sink.flush();
        }
        return written;
    }

    /** Deletes the index rows {@link #verify} calls dangling; returns how many. */
    public long removeDangling() throws IOException {
        long removed = 0;
        try (Table dataTable = connection.getTable(data.name()); Table indexTable = connection.getTable(index.name());
             ResultScanner scanner = indexTable.getScanner(new Scan().addColumn(EventMapping.INDEX_FAMILY,
                     EventMapping.DATA_ROW_KEY).setCaching(BATCH))) {
            long[] counts = new long[1];
            inBatches(scanner, batch -> {
                counts[0] += delete(danglingIn(batch, dataTable, new ArrayList<>(), 0), indexTable);
            });
            removed = counts[0];
        }
        return removed;
    }

    /** Work on a batch of scanned rows; batches keep the Gets of a check to one round trip each. */
    @FunctionalInterface
    private interface BatchCheck {
        void accept(List<Result> batch) throws IOException;
    }

    /** Hands the scanner's rows to {@code check} {@value #BATCH} at a time; returns how many rows. */
    private static long inBatches(ResultScanner scanner, BatchCheck check) throws IOException {
        long rows = 0;
        List<Result> batch = new ArrayList<>(BATCH);
        for (Result row : scanner) {
            batch.add(row);
            rows++;
            if (batch.size() == BATCH) {
                check.accept(batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            check.accept(batch);
        }
        return rows;
    }

    /**
     * The data rows of the batch without their index row. A row without a value for a part of the
     * index key has none by design in a sparse index (counted in {@code withoutKey[0]}); in an
     * index that sets such records aside, it is a problem.
     */
    private long unindexedIn(List<Result> dataRows, Table indexTable, long[] withoutKey, List<String> examples,
                             int maxExamples) throws IOException {
        List<Get> gets = new ArrayList<>(dataRows.size());
        List<Row> expected = new ArrayList<>(dataRows.size());
        long problems = 0;
        for (Result row : dataRows) {
            Optional<Row> indexRow = expectedIndexRow(row);
            if (indexRow.isEmpty() && sparse()) {
                withoutKey[0]++;
                continue;
            }
            if (indexRow.isEmpty()) {
                problems++;
                example(examples, maxExamples, "data row " + Bytes.toStringBinary(row.getRow())
                        + " lacks the columns its index key is built from");
                continue;
            }
            expected.add(indexRow.get());
            gets.add(new Get(indexRow.get().key()).addColumn(EventMapping.INDEX_FAMILY, EventMapping.DATA_ROW_KEY));
        }
        Result[] found = indexTable.get(gets);
        for (int i = 0; i < found.length; i++) {
            byte[] pointer = found[i].getValue(EventMapping.INDEX_FAMILY, EventMapping.DATA_ROW_KEY);
            byte[] dataKey = expected.get(i).cells().get(0).value();
            if (!Arrays.equals(pointer, dataKey)) {
                problems++;
                example(examples, maxExamples, "unindexed data row " + Bytes.toStringBinary(dataKey)
                        + " (expected index row " + Bytes.toStringBinary(expected.get(i).key()) + ")");
            }
        }
        return problems;
    }

    /** The index rows of the batch that point to no data row, or to one indexed under another key. */
    private List<byte[]> danglingIn(List<Result> indexRows, Table dataTable, List<String> examples, int maxExamples)
            throws IOException {
        List<byte[]> dangling = new ArrayList<>();
        List<Result> pointing = new ArrayList<>(indexRows.size());
        for (Result row : indexRows) {
            byte[] pointer = row.getValue(EventMapping.INDEX_FAMILY, EventMapping.DATA_ROW_KEY);
            if (pointer == null || pointer.length == 0) {
                dangling.add(row.getRow());
                example(examples, maxExamples, "dangling index row " + Bytes.toStringBinary(row.getRow())
                        + " (no data row key in it)");
            } else {
                pointing.add(row);
            }
        }
        indexRows = pointing;
        List<Get> gets = new ArrayList<>(indexRows.size());
        for (Result row : indexRows) {
            gets.add(new Get(row.getValue(EventMapping.INDEX_FAMILY, EventMapping.DATA_ROW_KEY)).addFamily(data.family()));
        }
        Result[] found = dataTable.get(gets);
        for (int i = 0; i < found.length; i++) {
            byte[] indexKey = indexRows.get(i).getRow();
            Optional<Row> expected = found[i].isEmpty() ? Optional.empty() : expectedIndexRow(found[i]);
            if (expected.isEmpty() || !Arrays.equals(expected.get().key(), indexKey)) {
                dangling.add(indexKey);
                example(examples, maxExamples, "dangling index row " + Bytes.toStringBinary(indexKey) + " -> "
                        + Bytes.toStringBinary(gets.get(i).getRow()) + (found[i].isEmpty() ? " (no such data row)"
                        : " (that data row is indexed elsewhere)"));
            }
        }
        return dangling;
    }

    /** Whether the index is sparse: records without a value for a part of its key have no row in it. */
    private boolean sparse() {
        return mapping.spec().indexes().stream().anyMatch(spec -> spec.table().equals(indexRole) && spec.skipWhenMissing());
    }

    private Optional<Row> expectedIndexRow(Result dataRow) {
        return indexRowOf(mapping, indexRole, dataRow, data.family());
    }

    /**
     * The row of index {@code indexRole} that a stored data row has: its key rebuilt from the
     * row's cells of {@code family}, a time part from the timestamp of its first cell. Empty for
     * an empty row, or one without a column the index key needs (a sparse index).
     */
    static Optional<Row> indexRowOf(EventMapping mapping, TableRole indexRole, Result dataRow, byte[] family) {
        if (dataRow.isEmpty()) {
            return Optional.empty();
        }
        long timestamp = dataRow.rawCells()[0].getTimestamp();
        return mapping.indexRowOf(indexRole, dataRow.getRow(), qualifier -> dataRow.getValue(family, qualifier),
                timestamp);
    }

    private Scan dataScan() {
        return new Scan().addFamily(data.family()).setCaching(BATCH);
    }

    private static long delete(List<byte[]> keys, Table table) throws IOException {
        List<Delete> deletes = new ArrayList<>(keys.size());
        keys.forEach(key -> deletes.add(new Delete(key)));
        table.delete(deletes);
        return keys.size();
    }

    private static void example(List<String> examples, int max, String example) {
        if (examples.size() < max) {
            examples.add(example);
        }
    }
}
