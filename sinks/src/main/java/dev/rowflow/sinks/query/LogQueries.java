package dev.rowflow.sinks.query;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.KeyEncoding;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.KeyQuery;
import dev.rowflow.keying.layout.KeyRange;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UnknownNameException;
import dev.rowflow.keying.log.LogColumns;
import dev.rowflow.keying.mapping.EventMapping;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ExecutorService;
import java.util.function.Predicate;

/**
 * Reads log events back the way the keys were designed: a {@code LogEvent} view of the log
 * input's declared mapping (its layouts and rows-as-columns bucket), over the same tables:
 * <ul>
 *   <li>{@link #host}: one host (and event type) in a time range, newest first, through the index
 *       ({@code [host][type][reverse ts]}: a partial-key scan that reads newest first);</li>
 *   <li>{@link #timeRange}: all hosts in a time range from a time-led data layout, one scan per
 *       salt bucket in parallel, merged back in time order (the cost seed 003 names);</li>
 *   <li>{@link #index}: any index lookup; each index row's data row is fetched, and an index row
 *       whose data row is missing is skipped and counted, never returned.</li>
 * </ul>
 * Times are {@code [from, to)} in epoch milliseconds. A limit of 0 means no limit. Names in a UID
 * layout are looked up, never assigned: a host never written yields no rows.
 *
 * <p>Thread-safe; scans of a fan-out run on the given pool.
 */
public final class LogQueries {
    private static final int GET_BATCH = 500;
    private final Connection connection;
    private final TableName data;
    private final TableName index;
    private final EventMapping logs;
    private final ExecutorService pool;

    /**
     * @param index the index table, or null when the pipeline writes none (rows as columns)
     * @param logs  the log pipeline's mapping with its index (the log input's {@code indexMapping}):
     *              the layouts and the rows-as-columns bucket the queries read by
     */
    public LogQueries(Connection connection, TableName data, TableName index, EventMapping logs, ExecutorService pool) {
        this.connection = connection;
        this.data = data;
        this.index = index;
        this.logs = logs;
        this.pool = pool;
    }

    /**
     * Events of {@code hostname} (and {@code eventType}, if not null) with {@code from <= time < to},
     * newest first (ties in index key order), at most {@code limit}.
     *
     * <p>With the default index layout and an event type, one scan reads exactly the rows wanted,
     * newest first, and stops at the limit. Without an event type the time range cannot bound
     * the scan ({@code type} comes before the time in the key): every index row of the host is
     * read, filtered by time, and sorted.
     *
     * @throws IllegalArgumentException if the index layout does not lead with the hostname, or
     *                                  there is no index
     */
    public QueryResult<StoredEvent> host(String hostname, String eventType, long from, long to, int limit) {
        if (index == null) {
            throw new IllegalArgumentException("no index table (index.log.enabled=false): a host's events cannot be "
                    + "read without scanning all data; use a time range");
        }
        RowKeyLayout layout = indexLayout();
        if (!layout.parts().get(0).field().equals("hostname")) {
            throw new IllegalArgumentException("index layout '" + layout.spec() + "' does not lead with hostname");
        }
        Map<String, Object> equal = new LinkedHashMap<>();
        equal.put("hostname", hostname);
        if (eventType != null) {
            equal.put("eventType", eventType);
        }
        Plan plan = plan(layout, equal, "timestamp", from, to);
        Predicate<StoredEvent> wanted = e -> e.hostname().equals(hostname)
                && (eventType == null || e.eventType().equals(eventType))
                && e.timestamp() >= from && e.timestamp() < to;
        boolean newestFirstInKeyOrder = plan.exact() && isReverseTime(layout, plan.query().equal().size());
        if (newestFirstInKeyOrder) {
            return lookUp(plan, indexKey -> true, wanted, limit);
        }
        // The index key holds the time: rows outside the range are dropped before their data row is fetched.
        QueryResult<StoredEvent> all = lookUp(plan, indexKey -> inRange(layout, indexKey, from, to), wanted, 0);
        List<StoredEvent> sorted = new ArrayList<>(all.rows());
        sorted.sort(Comparator.comparingLong(StoredEvent::timestamp).reversed());
        return new QueryResult<>(limit > 0 && sorted.size() > limit ? sorted.subList(0, limit) : sorted, all.scans(),
                all.danglingIndexRows());
    }

    /**
     * Events of every host with {@code from <= time < to}, oldest first ({@code newestFirst}
     * false) or newest first, ties in key order (host, then type, for the default layout), at
     * most {@code limit}. One scan per salt bucket, run in parallel; each scan stops at the limit
     * and the results are merged.
     *
     * @throws IllegalArgumentException if the data layout does not lead (after its salt) with the
     *                                  time: such a read would be a full table scan
     */
    public QueryResult<StoredEvent> timeRange(long from, long to, boolean newestFirst, int limit) {
        RowKeyLayout layout = logs.dataLayout();
        KeyPart first = layout.parts().get(0);
        if (!first.field().equals("timestamp")) {
            throw new IllegalArgumentException("data layout '" + layout.spec() + "' does not lead with the time: "
                    + "a time range over all hosts would scan the whole table; read one host through the index");
        }
        long bucket = logs.spec().timeBucketMillis();
        // Rows as columns: a row is keyed by its bucket's start, so the scan starts at the bucket holding 'from'.
        long scanFrom = bucket > 0 ? from - Math.floorMod(from, bucket) : from;
        List<KeyRange> ranges = layout.scanRanges(KeyQuery.all().between(scanFrom, to));
        boolean keyNewestFirst = isReverseTime(layout, 0);
        boolean reversed = newestFirst != keyNewestFirst;
        List<Result> found = FanOutScan.scan(connection, data, ranges, layout.mergeOrder(), reversed,
                bucket > 0 ? 0 : limit, pool);
        List<StoredEvent> events = new ArrayList<>();
        for (Result row : found) {
            for (StoredEvent event : bucket > 0 ? eventsOfBucketRow(row, newestFirst) : List.of(event(row))) {
                if (event.timestamp() >= from && event.timestamp() < to && (limit <= 0 || events.size() < limit)) {
                    events.add(event);
                }
            }
        }
        return new QueryResult<>(events, ranges.size(), 0);
    }

    /**
     * The events an index lookup finds, in index key order: the index rows of {@code query} (over
     * the index layout's parts), each followed to its data row. Index rows whose data row is
     * missing are skipped and counted.
     */
    public QueryResult<StoredEvent> index(KeyQuery query, int limit) {
        if (index == null) {
            throw new IllegalArgumentException("no index table (index.log.enabled=false)");
        }
        return lookUp(new Plan(query, true), indexKey -> true, e -> true, limit);
    }

    private RowKeyLayout indexLayout() {
        return logs.tableLayouts().get(TableRole.LOG_INDEX);
    }

    /**
     * @param keep   which index rows to follow, judged by their key alone
     * @param wanted which events to return
     */
    private QueryResult<StoredEvent> lookUp(Plan plan, Predicate<byte[]> keep, Predicate<StoredEvent> wanted, int limit) {
        RowKeyLayout layout = indexLayout();
        List<KeyRange> ranges;
        try {
            ranges = layout.scanRanges(plan.query());
        } catch (UnknownNameException e) {
            return new QueryResult<>(List.of(), 0, 0);
        }
        // Read as many index rows as the limit asks for; only if some of them dangle and more
        // exist, read again with a larger limit (dangling rows are rare: a crash between the data
        // and the index write of a row that was never replayed, or a deleted data row).
        int scanLimit = limit;
        while (true) {
            List<Result> indexRows = FanOutScan.scan(connection, index, ranges, layout.mergeOrder(), false, scanLimit, pool)
                    .stream().filter(row -> keep.test(row.getRow())).toList();
            List<StoredEvent> events = new ArrayList<>();
            long dangling = follow(indexRows, wanted, limit, events);
            boolean more = scanLimit > 0 && indexRows.size() >= scanLimit;
            if (limit <= 0 || events.size() >= limit || !more) {
                return new QueryResult<>(events, ranges.size(), dangling);
            }
            scanLimit = (int) Math.min(Integer.MAX_VALUE, scanLimit * 4L);
        }
    }

    /** Fetches the data rows of {@code indexRows} in batches; returns the number of dangling ones. */
    private long follow(List<Result> indexRows, Predicate<StoredEvent> wanted, int limit, List<StoredEvent> events) {
        long dangling = 0;
        try (Table table = connection.getTable(data)) {
            for (int i = 0; i < indexRows.size() && (limit <= 0 || events.size() < limit); i += GET_BATCH) {
                List<Result> batch = indexRows.subList(i, Math.min(indexRows.size(), i + GET_BATCH));
                List<Get> gets = new ArrayList<>(batch.size());
                for (Result indexRow : batch) {
                    gets.add(new Get(indexRow.getValue(LogColumns.INDEX_FAMILY, LogColumns.DATA_ROW_KEY))
                            .addFamily(LogColumns.DATA_FAMILY));
                }
                for (Result dataRow : table.get(gets)) {
                    if (dataRow.isEmpty()) {
                        dangling++;
                        continue;
                    }
                    StoredEvent event = event(dataRow);
                    if (wanted.test(event) && (limit <= 0 || events.size() < limit)) {
                        events.add(event);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading data rows of " + data + " failed", e);
        }
        return dangling;
    }

    /** A data row's event: the raw columns, the time from the message cell's timestamp. */
    static StoredEvent event(Result row) {
        NavigableMap<byte[], byte[]> cells = row.getFamilyMap(LogColumns.DATA_FAMILY);
        Map<String, String> attributes = new LinkedHashMap<>();
        byte[] prefix = Bytes.toBytes(LogColumns.ATTRIBUTE_PREFIX);
        for (Map.Entry<byte[], byte[]> cell : cells.entrySet()) {
            if (Bytes.startsWith(cell.getKey(), prefix)) {
                attributes.put(Bytes.toString(cell.getKey(), prefix.length, cell.getKey().length - prefix.length),
                        Bytes.toString(cell.getValue()));
            }
        }
        long timestamp = row.getColumnLatestCell(LogColumns.DATA_FAMILY, LogColumns.MESSAGE).getTimestamp();
        byte[] severity = cells.get(LogColumns.SEVERITY);
        return new StoredEvent(row.getRow(), Bytes.toString(cells.get(LogColumns.HOSTNAME)),
                Bytes.toString(cells.get(LogColumns.EVENT_TYPE)), timestamp, Bytes.toString(cells.get(LogColumns.MESSAGE)),
                severity == null ? null : Bytes.toString(severity), attributes);
    }

    /** Rows as columns: each cell is one whole event, qualifiers in time order. */
    private static List<StoredEvent> eventsOfBucketRow(Result row, boolean newestFirst) {
        List<StoredEvent> events = new ArrayList<>();
        for (Map.Entry<byte[], byte[]> cell : row.getFamilyMap(LogColumns.DATA_FAMILY).entrySet()) {
            try {
                LogEvent event = LogEvent.getDecoder().decode(ByteBuffer.wrap(cell.getValue()));
                events.add(new StoredEvent(row.getRow(), event.getHostname(), event.getEventType(),
                        event.getTimestamp().toEpochMilli(), event.getMessage(),
                        event.getSeverity() == null ? null : event.getSeverity().name(), event.getAttributes()));
            } catch (IOException e) {
                throw new UncheckedIOException("cell of row " + Bytes.toStringBinary(row.getRow()) + " is not a LogEvent", e);
            }
        }
        if (newestFirst) {
            java.util.Collections.reverse(events);
        }
        return events;
    }

    /** Whether the time in an index key is in {@code [from, to)}; true if the key has no time part. */
    private static boolean inRange(RowKeyLayout layout, byte[] indexKey, long from, long to) {
        Object time = layout.decode(indexKey).fields().get("timestamp");
        return !(time instanceof Long millis) || millis >= from && millis < to;
    }

    /** Whether part {@code part} is the event time in descending bytes: newest first in key order. */
    private static boolean isReverseTime(RowKeyLayout layout, int part) {
        if (part >= layout.parts().size()) {
            return false;
        }
        KeyEncoding encoding = layout.parts().get(part).encoding();
        return layout.parts().get(part).field().equals("timestamp") && encoding.isTime() && encoding.order() < 0;
    }

    /**
     * The key query for {@code equal} values and a range on {@code rangeField}: the layout's
     * leading parts that have values, then the range if the next part is {@code rangeField}.
     * Exact if every value and the range went into the key; otherwise the rest is filtered.
     */
    private static Plan plan(RowKeyLayout layout, Map<String, Object> equal, String rangeField, long from, long to) {
        List<Object> values = new ArrayList<>();
        for (KeyPart part : layout.parts()) {
            if (!equal.containsKey(part.field())) {
                break;
            }
            values.add(equal.get(part.field()));
        }
        KeyQuery query = new KeyQuery(values, null, null);
        boolean ranged = values.size() < layout.parts().size()
                && layout.parts().get(values.size()).field().equals(rangeField);
        if (ranged) {
            query = query.between(from, to);
        }
        return new Plan(query, ranged && values.size() == equal.size());
    }

    private record Plan(KeyQuery query, boolean exact) {
    }
}
