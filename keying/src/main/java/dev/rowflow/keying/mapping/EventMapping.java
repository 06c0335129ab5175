package dev.rowflow.keying.mapping;

import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Counter;
import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A compiled {@link MappingSpec}: a record tree and its event time in, rows and counters out.
 * Paths are parsed and checked once, here; per record only the compiled accessors run.
 *
 * <h2>Rows</h2>
 * <ul>
 *   <li><b>Data row</b>: key {@code keyLayout}; cells from the columns, each value in the one
 *       encoding of {@link RecordTree#cellBytes}; a missing or null value writes no cell and
 *       deletes nothing. Rows as columns instead: the key's time part holds the bucket start, one
 *       cell whose qualifier is the record's offset in the bucket (4 bytes, big-endian, ms) and
 *       whose value is the whole record as its format keeps it.</li>
 *   <li><b>Index rows</b>: key from each index layout, one cell {@code i:r} holding the data row
 *       key (seed 002, 1.9.3).</li>
 *   <li><b>Rows per array element</b> ({@link MappingSpec.ElementRowsSpec}): a row per element
 *       of the arrays each kind names, keyed and filled as its key layout and columns say, in
 *       the data table's family.</li>
 *   <li><b>Summary counter</b>: {@code s:n} + 1 in the row of the record's key and period.</li>
 * </ul>
 * Every row's cells carry the event time as timestamp, so a replay rewrites the same cells.
 *
 * <h2>Key values</h2>
 * A part over the time path takes the event time in ms. A text part ({@code text md5 uid})
 * takes a string, or a number or boolean as its text; a numeric part ({@code ts rts long dec int
 * byte}) a whole number of at most 64 bits. Anything else -- absent, null, empty, an object or
 * array, {@code "abc"} for a number -- throws {@link InvalidEventException} naming the path and
 * what was found, and the record is set aside.
 *
 * <p>Thread-safe (given a thread-safe {@link UidResolver}); its only state after construction is the
 * cache of leaf paths its wildcard columns have met (bounded, see {@code Columns}).
 */
public final class EventMapping {
    /** The index tables' family and the qualifier of the data row key. */
    public static final byte[] INDEX_FAMILY = bytes("i");
    public static final byte[] DATA_ROW_KEY = bytes("r");
    /** The summary tables' family and counter qualifier. */
    public static final byte[] SUMMARY_FAMILY = bytes("s");
    public static final byte[] COUNT = bytes("n");

    private final MappingSpec spec;
    private final Expression timePath;
    private final byte[] family;
    private final KeyPlan data;
    private final Columns columns;
    private final List<Index> indexes;
    private final KeyPlan summary;
    /** The TTL of a record's rows, or null for the tables'. */
    private final Expression ttl;
    private final List<ElementRows> elementRows;

    /** A mapping {@link MappingCompiler} checked. */
    EventMapping(MappingSpec spec, Expression timePath, KeyPlan data, Columns columns,
                 List<Index> indexes, KeyPlan summary, Expression ttl, List<ElementRows> elementRows) {
        this.ttl = ttl;
        this.elementRows = elementRows;
        this.spec = spec;
        this.timePath = timePath;
        this.family = bytes(spec.family());
        this.data = data;
        this.columns = columns;
        this.indexes = indexes;
        this.summary = summary;
    }

    /**
     * Checks a mapping and compiles it.
     *
     * @param uids  resolves uid key parts; null where none is connected (encoding one then fails)
     * @param yield says why a format cannot yield a path (e.g. a field its Avro schema lacks), or
     *              empty if it can
     * @throws MappingException naming the piece at fault (as {@link MappingException#piece()}) and the
     *                          value: a bad path, layout or column, a qualifier used twice, a layout
     *                          over a path that cannot be yielded, an index part no column keeps
     */
    public static EventMapping compile(MappingSpec spec, UidResolver uids, Function<FieldPath, Optional<String>> yield) {
        return compile(spec, layout -> RowKeyLayout.parse(layout, uids), yield);
    }

    /**
     * Checks a mapping and compiles it, its layouts parsed by {@code layouts} (which binds the uid
     * parts to a UID store); see {@link MappingCompiler}.
     */
    public static EventMapping compile(MappingSpec spec, Function<String, RowKeyLayout> layouts,
                                       Function<FieldPath, Optional<String>> yield) {
        return MappingCompiler.compile(spec, layouts, yield);
    }

    public MappingSpec spec() {
        return spec;
    }

    /** Where the event time comes from: a path, or another expression. */
    public Expression timePath() {
        return timePath;
    }

    public RowKeyLayout dataLayout() {
        return data.layout;
    }

    public byte[] family() {
        return family;
    }

    /** Every table this mapping writes, with its key layout, data table first. */
    public Map<TableRole, RowKeyLayout> tableLayouts() {
        Map<TableRole, RowKeyLayout> tables = new LinkedHashMap<>();
        tables.put(spec.dataTable(), data.layout);
        for (Index index : indexes) {
            tables.put(index.table, index.plan.layout);
        }
        if (summary != null) {
            tables.put(spec.summary().table(), summary.layout);
        }
        for (ElementRows rows : elementRows) {
            tables.putIfAbsent(rows.spec().table(), rows.layout());
        }
        return tables;
    }

    /** The family of each table this mapping writes. */
    public byte[] familyOf(TableRole table) {
        if (table == spec.dataTable() || elementRows.stream().anyMatch(rows -> rows.spec().table() == table)) {
            return family;
        }
        if (spec.summary() != null && table == spec.summary().table()) {
            return SUMMARY_FAMILY;
        }
        return INDEX_FAMILY;
    }

    /**
     * The same mapping with counts of its own, starting at zero: for a dry run over records the
     * pipeline did not write ({@code mapping check}, the sample a table's split points are drawn
     * from), whose records must not show in the pipeline's {@link #indexRowsSkipped} counts.
     */
    public EventMapping uncounted() {
        List<Index> fresh = indexes.stream().map(index -> new Index(index.name, index.table, index.plan,
                index.storedAs, index.storedTypes, index.skipWhenMissing,
                new java.util.concurrent.atomic.LongAdder())).toList();
        return new EventMapping(spec, timePath, data, columns, fresh, summary, ttl, elementRows);
    }

    /**
     * Records that had no row in sparse index {@code name} (a part's value absent or null) since
     * the mapping was compiled; counted across threads.
     */
    public long indexRowsSkipped(String name) {
        return indexes.stream().filter(index -> index.name.equals(name)).mapToLong(index -> index.skipped.sum())
                .sum();
    }

    /** Whether it makes rows per array element (after the data and index rows of {@link #rowsOf}). */
    public boolean hasElementRows() {
        return !elementRows.isEmpty();
    }

    /** The index tables, in declared order. */
    public List<TableRole> indexTables() {
        return indexes.stream().map(index -> index.table).toList();
    }

    /**
     * The names of the indexes whose key holds the event time: their row of a stored data row is
     * found only with the time it was written at, its cell timestamp ({@link #indexRowOf}).
     */
    public List<String> indexesKeyedByTime() {
        return indexes.stream().filter(index -> java.util.Arrays.asList(index.plan.paths).contains(null))
                .map(index -> index.name).toList();
    }

    /**
     * Whether the event time comes from the record's value alone (a field, never the Kafka
     * record's timestamp, key or a change's source): then an earlier image of a row gives the
     * time it was written at.
     */
    public boolean timeFromValue() {
        return timePath.readsValueOnly() && !spec.recordTimeWhenMissing();
    }

    // ---------------------------------------------------------------- per record

    /**
     * What one record makes: its event time, its rows (the data row, then one row per index) and
     * its summary counter, if the mapping keeps one. The one way a record becomes rows.
     *
     * @param canonical       the whole record as its format keeps it (for rows as columns)
     * @param recordTimestamp the Kafka record's timestamp
     * @throws InvalidEventException the reason the record cannot make rows, which the pipeline sets
     *                               it aside with
     */
    public Mapped apply(Map<String, Object> record, Supplier<byte[]> canonical, long recordTimestamp) {
        return apply(record, RecordSource.ofTimestamp(recordTimestamp), canonical);
    }

    /**
     * The same, for a record whose key, headers, topic, partition and offset the mapping's
     * expressions may read ({@code $key.id}, {@code $header.trace-id}...).
     */
    public Mapped apply(Map<String, Object> record, RecordSource source, Supplier<byte[]> canonical) {
        long time = eventTime(record, source);
        return new Mapped(time, rowsOf(record, source, canonical, time), counterOf(record, source, time));
    }

    /**
     * What a record makes.
     *
     * @param eventTime the time its rows are written at, after the timestamp policy
     * @param rows      the data row, then one row per index
     * @param counter   its summary counter, if the mapping keeps one
     */
    public record Mapped(long eventTime, List<Row> rows, Optional<Counter> counter) {
    }

    /**
     * The record's event time in ms, from the time path, after the mapping's
     * {@link TimestampPolicy}.
     *
     * @param recordTimestamp the Kafka record's timestamp, used when the record has none and the
     *                        mapping says so, and to judge a time too far ahead
     * @throws InvalidEventException naming the time path if the time is missing (and the mapping
     *                               sets such records aside), does not fit the format, or the
     *                               policy refuses it
     */
    public long eventTime(Map<String, Object> record, long recordTimestamp) {
        return eventTime(record, RecordSource.ofTimestamp(recordTimestamp));
    }

    /** The same, for a record whose sources the time expression may read. */
    public long eventTime(Map<String, Object> record, RecordSource source) {
        long recordTimestamp = source.timestamp();
        Object value = timePath.evaluate(record, source);
        if (value == null || value == RecordTree.NULL) {
            if (spec.recordTimeWhenMissing()) {
                return EventRules.eventTime(timePath.text(), recordTimestamp);
            }
            throw new InvalidEventException(value == null ? Refusal.MISSING : Refusal.NULL,
                    timePath.text(), value, (value == null ? "is missing" : "is null")
                    + ": it is the event time (the input may use the Kafka record's timestamp instead)");
        }
        return spec.timestamps().apply(timePath.text(), spec.timeFormat().millis(timePath.text(), value),
                recordTimestamp);
    }

    /**
     * The rows of one record: the data row, then one row per index, then its rows per array
     * element, kind by kind.
     *
     * @param canonical the whole record as its format keeps it (for rows as columns)
     * @throws InvalidEventException if a value cannot be what the mapping makes of it
     */
    public List<Row> rowsOf(Map<String, Object> record, Supplier<byte[]> canonical, long eventTime) {
        return rowsOf(record, RecordSource.ofTimestamp(eventTime), canonical, eventTime);
    }

    /** The same, for a record whose sources the mapping's expressions may read. */
    public List<Row> rowsOf(Map<String, Object> record, RecordSource source, Supplier<byte[]> canonical,
                            long eventTime) {
        source.withValue(canonical);
        if (spec.timeBucketMillis() > 0) {
            return List.of(bucketRow(record, source, canonical, eventTime));
        }
        byte[] dataKey = data.layout.encodeParts(data.values(record, source, eventTime, eventTime));
        List<Cell> cells = columns.cellsOf(record, source);
        if (cells.isEmpty()) {
            throw new InvalidEventException(Refusal.EMPTY, "value", null, "has none of the mapped columns ("
                    + spec.columns().stream().map(ColumnSpec::spec).toList() + "): a row needs at least one cell");
        }
        long ttlMillis = ttlOf(record, source);
        List<Row> rows = new ArrayList<>(1 + indexes.size());
        rows.add(new Row(spec.dataTable(), dataKey, eventTime, cells, ttlMillis));
        for (Index index : indexes) {
            Object[] values = index.plan.values(record, source, eventTime, index.skipWhenMissing);
            if (values == null) {
                index.skipped.increment();
                continue;
            }
            rows.add(new Row(index.table, index.plan.layout.encodeParts(values), eventTime,
                    List.of(new Cell(INDEX_FAMILY, DATA_ROW_KEY, dataKey)), ttlMillis));
        }
        for (ElementRows element : elementRows) {
            element.addRows(record, source, eventTime, ttlMillis, rows);
        }
        return rows;
    }

    /**
     * The key of the data row a delete of this record removes: the data key made as
     * {@link #rowsOf} makes it, from a record that says it is deleted or from the Kafka record key
     * of a tombstone ({@code $key.id}, with {@code record} empty). Nothing else of the mapping is
     * needed: the index rows to delete come from the stored data row ({@link #indexRowOf}).
     *
     * <p>A time part takes the event time from the time expression and the timestamp policy, never
     * the Kafka record's timestamp: a delete's own timestamp says when it was sent, not which row
     * it means.
     *
     * @throws InvalidEventException naming the part (or the time) without a value
     * @throws IllegalStateException for rows as columns, whose rows hold many records
     */
    public byte[] dataKeyOf(Map<String, Object> record, RecordSource source) {
        if (spec.timeBucketMillis() > 0) {
            throw new IllegalStateException("rows as columns hold many records in one row: a record cannot be deleted");
        }
        long time = 0;
        if (data.timeParts() > 0) {
            Object value = timePath.evaluate(record, source);
            if (value == null || value == RecordTree.NULL) {
                throw new InvalidEventException(value == null ? Refusal.MISSING : Refusal.NULL,
                        timePath.text(), value, (value == null ? "is missing" : "is null")
                        + ": the event time is part of the row key, so a delete needs it from the record (or its key)");
            }
            time = spec.timestamps().apply(timePath.text(), spec.timeFormat().millis(timePath.text(), value),
                    source.timestamp());
        }
        return data.layout.encodeParts(data.values(record, source, time, time));
    }

    /** The record's TTL in ms from the TTL expression, or 0 (the tables') if it has none or no value. */
    private long ttlOf(Map<String, Object> record, RecordSource source) {
        if (ttl == null) {
            return 0;
        }
        Object value = ttl.evaluate(record, source);
        if (value == null || value == RecordTree.NULL) {
            return 0;
        }
        Object millis = KeyPlan.keyValue(ttl, value, false);
        if ((Long) millis <= 0) {
            throw new InvalidEventException(Refusal.OUT_OF_RANGE, ttl.text(), millis, "is not a positive TTL in ms");
        }
        return (Long) millis;
    }

    private Row bucketRow(Map<String, Object> record, RecordSource source, Supplier<byte[]> canonical,
                          long eventTime) {
        EventRules.eventTime(timePath.text(), eventTime);
        long bucketStart = eventTime - eventTime % spec.timeBucketMillis();
        byte[] key = data.layout.encodeParts(data.values(record, source, bucketStart, eventTime));
        int offset = (int) (eventTime - bucketStart);
        byte[] qualifier = {(byte) (offset >>> 24), (byte) (offset >>> 16), (byte) (offset >>> 8), (byte) offset};
        return new Row(spec.dataTable(), key, eventTime, List.of(new Cell(family, qualifier, canonical.get())));
    }

    /** The summary counter of one record, or empty if the mapping keeps none. */
    public Optional<Counter> counterOf(Map<String, Object> record, long eventTime) {
        return counterOf(record, RecordSource.ofTimestamp(eventTime), eventTime);
    }

    /** The same, for a record whose sources the summary key may read. */
    public Optional<Counter> counterOf(Map<String, Object> record, RecordSource source, long eventTime) {
        if (summary == null) {
            return Optional.empty();
        }
        long period = spec.summary().periodMillis();
        long start = eventTime - Math.floorMod(eventTime, period);
        return Optional.of(new Counter(spec.summary().table(), summary.layout.encodeParts(
                summary.values(record, source, start, eventTime)), SUMMARY_FAMILY, COUNT, 1));
    }

    /**
     * The row of index {@code table} that a stored data row should have, rebuilt from the data
     * row's columns and its cell timestamp (the event time): what index verify expects and
     * backfill writes. Empty if the row lacks a column the index key needs.
     *
     * @param column the value of a qualifier of the data family in the data row, or null
     */
    public Optional<Row> indexRowOf(TableRole table, byte[] dataRowKey, Function<byte[], byte[]> column,
                                    long timestamp) {
        for (Index index : indexes) {
            if (index.table != table) {
                continue;
            }
            KeyPlan plan = index.plan;
            Object[] values = new Object[plan.paths.length];
            for (int i = 0; i < values.length; i++) {
                if (plan.paths[i] == null) {
                    values[i] = timestamp;
                    continue;
                }
                byte[] stored = column.apply(index.storedAs[i]);
                if (stored == null) {
                    return Optional.empty();
                }
                values[i] = StoredKeyValues.of(index.storedTypes[i], stored, plan.textual[i], plan.paths[i]);
            }
            return Optional.of(indexRow(table, plan.layout.encodeParts(values), dataRowKey, timestamp));
        }
        throw new IllegalArgumentException("no index table " + table + " in this mapping");
    }

    private static Row indexRow(TableRole table, byte[] indexKey, byte[] dataRowKey, long timestamp) {
        return new Row(table, indexKey, timestamp, List.of(new Cell(INDEX_FAMILY, DATA_ROW_KEY, dataRowKey)));
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- compiled pieces

    /** @param skipped records that had no row in this sparse index, since start */
    record Index(String name, TableRole table, KeyPlan plan, byte[][] storedAs, ValueType[] storedTypes,
                         boolean skipWhenMissing,
                         java.util.concurrent.atomic.LongAdder skipped) {
    }

    /**
     * The value of a key part as the pipeline takes it from a record (a non-empty String for text
     * encodings, a Long for numeric ones), or the reason it sets the record aside: the one check
     * of key values, shared by the pipeline and {@code rowflow keys}.
     *
     * @param field the field (path) the value is of, named in the reason
     * @param value a record tree value ({@link RecordTree}); null if absent
     * @throws InvalidEventException with the reason the dead-letter record carries
     */
    public static Object keyValue(String field, Object value, boolean textual) {
        return KeyPlan.keyValue(field, value, textual);
    }
}
