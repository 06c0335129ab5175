package dev.rowflow.sinks.query;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.KeyQuery;
import dev.rowflow.keying.layout.KeyRange;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UnknownNameException;
import dev.rowflow.keying.mapping.EventMapping;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * Reads a declared input's rows back the way its keys were designed: by the leading parts of the
 * data key, or of an index key followed to the data rows, within a time range.
 *
 * <p>The values given fix the layout's leading parts; a time range fixes the next part too when it
 * is the time path (a key range, fanned out over the salt buckets it cannot pin down and merged
 * back in key order), and always filters on the cells' timestamps, which are the event times.
 */
public final class InputQueries {
    private static final int GET_BATCH = 500;

    private final Connection connection;
    private final EventMapping mapping;
    private final Map<TableRole, TableName> tables;
    private final ExecutorService pool;

    /** @param tables the table of each role the mapping writes */
    public InputQueries(Connection connection, EventMapping mapping, Map<TableRole, TableName> tables,
                        ExecutorService pool) {
        this.connection = connection;
        this.mapping = mapping;
        this.tables = tables;
        this.pool = pool;
    }

    /**
     * Data rows whose key starts with {@code leading} (values of the data key's first parts, in
     * order), with event times in {@code [from, to)}, in key order or its reverse.
     */
    public QueryResult<StoredRow> data(List<Object> leading, long from, long to, boolean reversed, int limit) {
        RowKeyLayout layout = mapping.dataLayout();
        List<KeyRange> ranges;
        try {
            ranges = layout.scanRanges(query(layout, leading, from, to));
        } catch (UnknownNameException e) {
            return new QueryResult<>(List.of(), 0, 0);
        }
        TableRole data = mapping.spec().dataTable();
        List<StoredRow> rows = FanOutScan.scan(connection, tables.get(data), ranges, layout.mergeOrder(), reversed,
                limit, from, to, pool).stream().map(r -> StoredRow.of(data, r)).toList();
        return new QueryResult<>(rows, ranges.size(), 0);
    }

    /**
     * The data rows an index finds, in index key order: the index rows whose key starts with
     * {@code leading}, with event times in {@code [from, to)}, each followed to its data row.
     * Index rows whose data row is missing are skipped and counted.
     */
    public QueryResult<StoredRow> index(TableRole index, List<Object> leading, long from, long to, int limit) {
        RowKeyLayout layout = mapping.tableLayouts().get(index);
        if (layout == null || !mapping.indexTables().contains(index)) {
            throw new IllegalArgumentException("no index table " + index + " in this mapping");
        }
        List<KeyRange> ranges;
        try {
            ranges = layout.scanRanges(query(layout, leading, from, to));
        } catch (UnknownNameException e) {
            return new QueryResult<>(List.of(), 0, 0);
        }
        List<Result> indexRows = FanOutScan.scan(connection, tables.get(index), ranges, layout.mergeOrder(), false,
                limit, from, to, pool);
        TableRole data = mapping.spec().dataTable();
        List<StoredRow> rows = new ArrayList<>();
        long dangling = 0;
        try (Table table = connection.getTable(tables.get(data))) {
            for (int i = 0; i < indexRows.size(); i += GET_BATCH) {
                List<Get> gets = new ArrayList<>();
                for (Result indexRow : indexRows.subList(i, Math.min(indexRows.size(), i + GET_BATCH))) {
                    gets.add(new Get(indexRow.getValue(EventMapping.INDEX_FAMILY, EventMapping.DATA_ROW_KEY))
                            .addFamily(mapping.family()));
                }
                for (Result row : table.get(gets)) {
                    if (row.isEmpty()) {
                        dangling++;
                    } else {
                        rows.add(StoredRow.of(data, row));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading the data rows of " + tables.get(index) + " failed", e);
        }
        return new QueryResult<>(rows, ranges.size(), dangling);
    }

    /** The leading values, and the time range on the next part when that part is the event time. */
    private KeyQuery query(RowKeyLayout layout, List<Object> leading, long from, long to) {
        KeyQuery query = new KeyQuery(leading, null, null);
        if (leading.size() < layout.parts().size() && (from > 0 || to < Long.MAX_VALUE)) {
            KeyPart next = layout.parts().get(leading.size());
            if (next.field().equals(mapping.timePath().text()) && next.encoding().order() != 0) {
                return query.between(from > 0 ? from : null, to < Long.MAX_VALUE ? to : null);
            }
        }
        return query;
    }
}
