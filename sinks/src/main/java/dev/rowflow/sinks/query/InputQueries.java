package dev.rowflow.sinks.query;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.expression.Expression;
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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * Reads a declared input's rows back the way its keys were designed: by the leading parts of the
 * data key, or of an index key followed to the data rows, within a time range. The log pipeline
 * is a declared input too; {@link LogEventView} reads its rows as log events.
 *
 * <p>The values given fix the layout's leading parts; a time range fixes the next part too when it
 * is the time path (a key range, fanned out over the salt buckets it cannot pin down and merged
 * back in key order), and always filters on the cells' timestamps, which are the event times.
 * With rows as columns (a time bucket), a data row is keyed by its bucket's start, so the key
 * range starts at the bucket that holds {@code from}. Names in a UID part are looked up, never
 * assigned: a name never written yields no rows. A limit of 0 means no limit.
 *
 * <p>Thread-safe; the scans of a fan-out run on the given pool.
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

    /** The mapping the rows were written by. */
    public EventMapping mapping() {
        return mapping;
    }

    /**
     * Data rows whose key starts with {@code leading} (values of the data key's first parts, in
     * order), with event times in {@code [from, to)}, in key order or its reverse.
     */
    public QueryResult<StoredRow> data(List<Object> leading, long from, long to, boolean reversed, int limit) {
        RowKeyLayout layout = mapping.dataLayout();
        long bucket = mapping.spec().timeBucketMillis();
        long keyFrom = bucket > 0 && from > 0 ? from - Math.floorMod(from, bucket) : from;
        List<KeyRange> ranges;
        try {
            ranges = layout.scanRanges(query(layout, leading, keyFrom, to));
        } catch (UnknownNameException e) {
            return new QueryResult<>(List.of(), 0, 0);
        }
        TableRole data = mapping.spec().dataTable();
        List<StoredRow> rows = FanOutScan.scan(connection, tables.get(data), ranges, layout.mergeOrder(), reversed,
                limit, from, to, pool).stream().map(r -> StoredRow.of(data, r)).toList();
        return new QueryResult<>(rows, ranges.size(), 0);
    }

    /**
     * The data rows an index finds: the index rows whose key starts with {@code leading}, with
     * event times in {@code [from, to)}, each followed to its data row. Index rows whose data row
     * is missing are skipped and counted; with a limit, the index is read on past them until the
     * limit is met or the index rows run out.
     *
     * @param newestFirst false: in index key order. True: newest event first, ties in index key
     *                    order; when the part after {@code leading} is the time in descending
     *                    bytes ({@code rts}) that is the key order and the scan stops at the
     *                    limit, otherwise every index row in range is read and sorted
     */
    public QueryResult<StoredRow> index(TableRole index, List<Object> leading, long from, long to, boolean newestFirst,
                                        int limit) {
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
        boolean sort = newestFirst && !newestFirstInKeyOrder(layout, leading.size());
        // Read as many index rows as the limit asks for; only if some of them dangle and more exist,
        // read again with a larger limit (dangling rows are rare: a crash between the data and the
        // index write of a row never replayed, or a deleted data row).
        int scanLimit = sort ? 0 : limit;
        while (true) {
            List<Result> indexRows = FanOutScan.scan(connection, tables.get(index), ranges, layout.mergeOrder(), false,
                    scanLimit, from, to, pool);
            List<StoredRow> rows = new ArrayList<>();
            long dangling = follow(index, indexRows, sort ? 0 : limit, rows);
            if (sort) {
                // A stable sort: ties keep the index key order.
                rows.sort(Comparator.comparingLong(StoredRow::time).reversed());
            }
            boolean more = scanLimit > 0 && indexRows.size() >= scanLimit;
            if (limit <= 0 || rows.size() >= limit || !more) {
                return new QueryResult<>(limit > 0 && rows.size() > limit ? rows.subList(0, limit) : rows,
                        ranges.size(), dangling);
            }
            scanLimit = (int) Math.min(Integer.MAX_VALUE, scanLimit * 4L);
        }
    }

    /** Fetches the data rows of {@code indexRows} in batches, at most {@code limit}; returns the number that dangle. */
    private long follow(TableRole index, List<Result> indexRows, int limit, List<StoredRow> rows) {
        TableRole data = mapping.spec().dataTable();
        long dangling = 0;
        try (Table table = connection.getTable(tables.get(data))) {
            for (int i = 0; i < indexRows.size() && (limit <= 0 || rows.size() < limit); i += GET_BATCH) {
                List<Get> gets = new ArrayList<>();
                for (Result indexRow : indexRows.subList(i, Math.min(indexRows.size(), i + GET_BATCH))) {
                    gets.add(new Get(indexRow.getValue(EventMapping.INDEX_FAMILY, EventMapping.DATA_ROW_KEY))
                            .addFamily(mapping.family()));
                }
                for (Result row : table.get(gets)) {
                    if (row.isEmpty()) {
                        dangling++;
                    } else if (limit <= 0 || rows.size() < limit) {
                        rows.add(StoredRow.of(data, row));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading the data rows of " + tables.get(index) + " failed", e);
        }
        return dangling;
    }

    /** The leading values, and the time range on the next part when that part is the event time. */
    private KeyQuery query(RowKeyLayout layout, List<Object> leading, long from, long to) {
        KeyQuery query = new KeyQuery(leading, null, null);
        if (leading.size() < layout.parts().size() && (from > 0 || to < Long.MAX_VALUE)) {
            KeyPart next = layout.parts().get(leading.size());
            if (isTime(next) && next.encoding().order() != 0) {
                return query.between(from > 0 ? from : null, to < Long.MAX_VALUE ? to : null);
            }
        }
        return query;
    }

    /** Whether part {@code part} of {@code layout} is the event time in descending bytes: newest first in key order. */
    boolean newestFirstInKeyOrder(RowKeyLayout layout, int part) {
        return part < layout.parts().size() && isTime(layout.parts().get(part))
                && layout.parts().get(part).encoding().order() < 0;
    }

    /** Whether a key part holds the event time (ordered bytes or not). */
    boolean isTime(KeyPart part) {
        return Expression.parse(part.field()).equals(mapping.timePath());
    }
}
