package dev.rowflow.keying.mapping;

import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Counter;
import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.keying.mapping.MappingException.Piece;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
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
 * cache of leaf paths its wildcards have met (bounded, see {@code Leaf}).
 */
public final class EventMapping {
    /** The index tables' family and the qualifier of the data row key. */
    public static final byte[] INDEX_FAMILY = bytes("i");
    public static final byte[] DATA_ROW_KEY = bytes("r");
    /** The summary tables' family and counter qualifier. */
    public static final byte[] SUMMARY_FAMILY = bytes("s");
    public static final byte[] COUNT = bytes("n");

    private final MappingSpec spec;
    private final FieldPath timePath;
    private final byte[] family;
    private final KeyPlan data;
    private final List<Column> columns;
    private final List<Wildcard> wildcards;
    private final List<Index> indexes;
    private final KeyPlan summary;

    private EventMapping(MappingSpec spec, FieldPath timePath, KeyPlan data, List<Column> columns,
                         List<Wildcard> wildcards, List<Index> indexes, KeyPlan summary) {
        this.spec = spec;
        this.timePath = timePath;
        this.family = bytes(spec.family());
        this.data = data;
        this.columns = columns;
        this.wildcards = wildcards;
        this.indexes = indexes;
        this.summary = summary;
        for (Wildcard wildcard : wildcards) {
            wildcard.root = new Leaf(wildcard, "", wildcard.path == null ? "" : wildcard.path.text(), "", false);
        }
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
     * parts to a UID store).
     */
    public static EventMapping compile(MappingSpec spec, Function<String, RowKeyLayout> layouts,
                                       Function<FieldPath, Optional<String>> yield) {
        FieldPath timePath;
        try {
            timePath = parsePath("the time path", spec.timePath());
            checkYield(yield, timePath, "the time path");
        } catch (IllegalArgumentException e) {
            throw new MappingException(Piece.TIME, null, e.getMessage(), e);
        }
        List<Column> columns = new ArrayList<>();
        List<Wildcard> wildcards = new ArrayList<>();
        Map<String, String> qualifiers = new LinkedHashMap<>();
        try {
            for (ColumnSpec column : spec.columns()) {
                if (column.wildcard()) {
                    if (column.path() != null) {
                        checkYield(yield, column.path(), "column '" + column.spec() + "'");
                    }
                    wildcards.add(new Wildcard(column.path(), column.qualifier(), column.spec()));
                    continue;
                }
                checkYield(yield, column.path(), "column '" + column.spec() + "'");
                String previous = qualifiers.putIfAbsent(column.qualifier(), column.spec());
                if (previous != null) {
                    throw new IllegalArgumentException("columns '" + previous + "' and '" + column.spec()
                            + "' both write qualifier '" + column.qualifier() + "'");
                }
                columns.add(new Column(column.path(), bytes(column.qualifier())));
            }
            checkWildcards(spec.columns());
        } catch (IllegalArgumentException e) {
            throw new MappingException(Piece.COLUMNS, null, e.getMessage(), e);
        }
        if (spec.timeBucketMillis() < 0 || spec.timeBucketMillis() > Integer.MAX_VALUE) {
            throw new MappingException(Piece.TIME_BUCKET, "time bucket of " + spec.timeBucketMillis()
                    + " ms: offsets in a bucket are 4-byte qualifiers, so at most " + Integer.MAX_VALUE + " ms (24 days)");
        }
        KeyPlan data = KeyPlan.of(Piece.DATA_KEY, null, "data key", spec.keyLayout(), layouts, timePath, yield);
        if (spec.timeBucketMillis() > 0) {
            if (!spec.indexes().isEmpty()) {
                throw new MappingException(Piece.TIME_BUCKET, "rows as columns keep no index: the rows are keyed by "
                        + "the data layout already; leave the indexes out");
            }
            if (data.timeParts() == 0) {
                throw new MappingException(Piece.TIME_BUCKET, "rows as columns need a " + timePath
                        + " part (the time path) in the data key '" + spec.keyLayout() + "' for the time bucket");
            }
        }
        if (spec.timeBucketMillis() == 0 && columns.isEmpty() && wildcards.isEmpty()) {
            throw new MappingException(Piece.COLUMNS, "no columns: a data row needs at least one cell");
        }
        List<Index> indexes = new ArrayList<>();
        for (MappingSpec.IndexSpec index : spec.indexes()) {
            KeyPlan plan = KeyPlan.of(Piece.INDEX_KEY, index.name(), "index " + index.name() + " key", index.keyLayout(),
                    layouts, timePath, yield);
            byte[][] storedAs = new byte[plan.paths.length][];
            for (int i = 0; i < plan.paths.length; i++) {
                if (plan.paths[i] == null) {
                    continue; // the event time: the data row's cell timestamp
                }
                storedAs[i] = qualifierOf(plan.paths[i], columns, wildcards);
                if (storedAs[i] == null) {
                    throw new MappingException(Piece.INDEX_KEY, index.name(), "index " + index.name() + " key '"
                            + index.keyLayout() + "': part " + plan.paths[i] + " is in no column of the data row, so "
                            + "index verify and backfill could not rebuild the index row from it; add " + plan.paths[i]
                            + " to the columns", null);
                }
            }
            indexes.add(new Index(index.table(), plan, storedAs));
        }
        KeyPlan summary = null;
        if (spec.summary() != null) {
            summary = KeyPlan.of(Piece.SUMMARY_KEY, null, "summary key", spec.summary().keyLayout(), layouts, timePath,
                    yield);
            if (summary.timeParts() == 0) {
                throw new MappingException(Piece.SUMMARY_KEY, "summary key '" + spec.summary().keyLayout()
                        + "' needs a part over the "
                        + "time path " + timePath + " for the period");
            }
        }
        return new EventMapping(spec, timePath, data, List.copyOf(columns), List.copyOf(wildcards),
                List.copyOf(indexes), summary);
    }

    /** Refuses qualifiers a wildcard and an explicit column, or two wildcards, could both write. */
    private static void checkWildcards(List<ColumnSpec> specs) {
        for (ColumnSpec wildcard : specs) {
            if (!wildcard.wildcard()) {
                continue;
            }
            for (ColumnSpec other : specs) {
                if (other == wildcard) {
                    continue;
                }
                if (other.wildcard()) {
                    if (other.qualifier().startsWith(wildcard.qualifier())) {
                        throw new IllegalArgumentException("columns '" + wildcard.spec() + "' and '" + other.spec()
                                + "' could both write a qualifier starting with '" + other.qualifier()
                                + "': give one a prefix of its own (e.g. " + other.spec().replace("=" + other.qualifier()
                                + "*", "") + "=x.*)");
                    }
                } else if (other.qualifier().startsWith(wildcard.qualifier())) {
                    String rest = other.qualifier().substring(wildcard.qualifier().length());
                    String wouldBe = wildcard.path() == null ? rest : wildcard.path().text() + "." + rest;
                    if (!wouldBe.equals(other.path().text())) {
                        throw new IllegalArgumentException("columns '" + wildcard.spec() + "' and '" + other.spec()
                                + "' could both write qualifier '" + other.qualifier() + "' (a field " + wouldBe
                                + "); give the wildcard a prefix of its own, e.g. " + (wildcard.path() == null ? "*"
                                : wildcard.path().text() + ".*") + "=f.*");
                    }
                }
            }
        }
    }

    /** The qualifier the data row keeps {@code path}'s value under, or null. */
    private static byte[] qualifierOf(FieldPath path, List<Column> columns, List<Wildcard> wildcards) {
        for (Column column : columns) {
            if (column.path.equals(path)) {
                return column.qualifier;
            }
        }
        for (Wildcard wildcard : wildcards) {
            String under = wildcard.path == null ? "" : wildcard.path.text() + ".";
            if (path.text().startsWith(under) && path.text().length() > under.length()
                    && path.steps().stream().allMatch(step -> step instanceof String)
                    && !namedByAColumn(columns, path.text())) { // rowsOf's wildcards skip such leaves
                return bytes(wildcard.prefix + path.text().substring(under.length()));
            }
        }
        return null;
    }

    private static void checkYield(Function<FieldPath, Optional<String>> yield, FieldPath path, String what) {
        Optional<String> why = yield.apply(path);
        if (why.isPresent()) {
            throw new IllegalArgumentException(what + ": " + why.get());
        }
    }

    private static FieldPath parsePath(String what, String text) {
        try {
            return FieldPath.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
        }
    }

    public MappingSpec spec() {
        return spec;
    }

    public FieldPath timePath() {
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
        return tables;
    }

    /** The family of each table this mapping writes. */
    public byte[] familyOf(TableRole table) {
        if (table == spec.dataTable()) {
            return family;
        }
        if (spec.summary() != null && table == spec.summary().table()) {
            return SUMMARY_FAMILY;
        }
        return INDEX_FAMILY;
    }

    /** The index tables, in declared order. */
    public List<TableRole> indexTables() {
        return indexes.stream().map(index -> index.table).toList();
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
        long time = eventTime(record, recordTimestamp);
        return new Mapped(time, rowsOf(record, canonical, time), counterOf(record, time));
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
        Object value = timePath.resolve(record);
        if (value == null || value == RecordTree.NULL) {
            if (spec.recordTimeWhenMissing()) {
                return EventRules.eventTime(timePath.text(), recordTimestamp);
            }
            throw new InvalidEventException(timePath.text(), value, (value == null ? "is missing" : "is null")
                    + ": it is the event time (the input may use the Kafka record's timestamp instead)");
        }
        return spec.timestamps().apply(timePath.text(), spec.timeFormat().millis(timePath.text(), value),
                recordTimestamp);
    }

    /**
     * The rows of one record: the data row, then one row per index.
     *
     * @param canonical the whole record as its format keeps it (for rows as columns)
     * @throws InvalidEventException if a value cannot be what the mapping makes of it
     */
    public List<Row> rowsOf(Map<String, Object> record, Supplier<byte[]> canonical, long eventTime) {
        if (spec.timeBucketMillis() > 0) {
            return List.of(bucketRow(record, canonical, eventTime));
        }
        byte[] dataKey = data.layout.encodeParts(data.values(record, eventTime, eventTime));
        List<Cell> cells = new ArrayList<>(columns.size() + 4);
        for (Column column : columns) {
            Object value = column.path.resolve(record);
            if (value != null && value != RecordTree.NULL) {
                cells.add(new Cell(family, column.qualifier, cellBytes(column.path.text(), value)));
            }
        }
        int explicitCells = cells.size();
        boolean dotted = false;
        for (Wildcard wildcard : wildcards) {
            Object under = wildcard.path == null ? record : wildcard.path.resolve(record);
            if (under instanceof Map<?, ?> object) {
                dotted |= walk(wildcard.root, object, cells);
            }
        }
        if (dotted) {
            dropRepeatedLeaves(cells, explicitCells);
        }
        if (cells.isEmpty()) {
            throw new InvalidEventException("value", null, "has none of the mapped columns ("
                    + spec.columns().stream().map(ColumnSpec::spec).toList() + "): a row needs at least one cell");
        }
        List<Row> rows = new ArrayList<>(1 + indexes.size());
        rows.add(new Row(spec.dataTable(), dataKey, eventTime, cells));
        for (Index index : indexes) {
            rows.add(indexRow(index.table, index.plan.layout.encodeParts(index.plan.values(record, eventTime, eventTime)),
                    dataKey, eventTime));
        }
        return rows;
    }

    /** Whether an explicit column names {@code path} or a path above it. */
    private static boolean namedByAColumn(List<Column> columns, String path) {
        for (Column column : columns) {
            String named = column.path.text();
            if (path.equals(named) || (path.startsWith(named) && path.charAt(named.length()) == '.')) {
                return true;
            }
        }
        return false;
    }

    /**
     * Adds a cell per leaf under {@code object} that no explicit column names; returns whether a
     * key with a dot in it was met (then one dotted path may stand twice).
     */
    private boolean walk(Leaf node, Map<?, ?> object, List<Cell> cells) {
        boolean dotted = false;
        if (object instanceof RecordObject json) {
            for (int i = 0, n = json.size(); i < n; i++) {
                dotted |= visit(node, json.keyAt(i), json.valueAt(i), cells);
            }
        } else {
            for (Map.Entry<?, ?> entry : object.entrySet()) {
                dotted |= visit(node, (String) entry.getKey(), entry.getValue(), cells);
            }
        }
        return dotted;
    }

    private boolean visit(Leaf node, String key, Object value, List<Cell> cells) {
        if (value == null || value == RecordTree.NULL) {
            return false;
        }
        Leaf child = node.child(key);
        if (child.named) {
            return false;
        }
        if (value instanceof Map<?, ?> nested) {
            return walk(child, nested, cells) | child.dotted;
        }
        cells.add(new Cell(family, child.qualifier, cellBytes(child.path, value)));
        return child.dotted;
    }

    /**
     * Keeps the first cell of each qualifier among the wildcards' cells: a leaf written both
     * nested and with dots ({"log":{"level":..}} and {"log.level":..}) has one dotted path, and a
     * row has one cell per qualifier -- the first in document order is kept.
     */
    private static void dropRepeatedLeaves(List<Cell> cells, int from) {
        java.util.Set<java.nio.ByteBuffer> seen = new java.util.HashSet<>();
        for (java.util.Iterator<Cell> i = cells.listIterator(from); i.hasNext(); ) {
            if (!seen.add(java.nio.ByteBuffer.wrap(i.next().qualifier()))) {
                i.remove();
            }
        }
    }

    /**
     * A node of the leaves a wildcard has met: the dotted path, the qualifier bytes and whether an
     * explicit column names the path (or one above it), worked out once per path instead of per
     * record. At most {@value #MAX_LEAVES} nodes are kept per wildcard; records with more distinct
     * paths get fresh nodes, the same values without the cache.
     */
    private final class Leaf {
        static final int MAX_LEAVES = 10_000;
        /** How many children a node finds by comparing keys by identity before asking its map. */
        static final int KNOWN = 32;
        final String key;
        final String path;
        final String relative;
        final byte[] qualifier;
        final boolean named;
        final boolean dotted;
        private final Wildcard wildcard;
        private final java.util.concurrent.ConcurrentHashMap<String, Leaf> children =
                new java.util.concurrent.ConcurrentHashMap<>();
        /**
         * Children met so far, by the very key string they were met with: JSON readers hand out one
         * instance per field name, so most lookups end here. Replaced, never changed, so readers
         * need no lock; a lost race only costs a lookup in {@code children}.
         */
        private volatile Leaf[] known = new Leaf[0];

        Leaf(Wildcard wildcard, String key, String path, String relative, boolean dotted) {
            this.wildcard = wildcard;
            this.key = key;
            this.path = path;
            this.relative = relative;
            this.qualifier = bytes(wildcard.prefix + relative);
            this.named = !path.isEmpty() && namedByAColumn(columns, path);
            this.dotted = dotted;
        }

        Leaf child(String key) {
            Leaf[] known = this.known;
            for (Leaf leaf : known) {
                if (leaf.key == key) {
                    return leaf;
                }
            }
            Leaf child = children.get(key);
            if (child == null) {
                child = new Leaf(wildcard, key, path.isEmpty() ? key : path + "." + key,
                        relative.isEmpty() ? key : relative + "." + key, dotted || key.indexOf('.') >= 0);
                if (wildcard.leaves.incrementAndGet() > MAX_LEAVES) {
                    return child;
                }
                Leaf raced = children.putIfAbsent(key, child);
                child = raced == null ? child : raced;
            }
            if (known.length < KNOWN && child.key == key) {
                Leaf[] more = java.util.Arrays.copyOf(known, known.length + 1);
                more[known.length] = child;
                this.known = more;
            }
            return child;
        }
    }

    private Row bucketRow(Map<String, Object> record, Supplier<byte[]> canonical, long eventTime) {
        EventRules.eventTime(timePath.text(), eventTime);
        long bucketStart = eventTime - eventTime % spec.timeBucketMillis();
        byte[] key = data.layout.encodeParts(data.values(record, bucketStart, eventTime));
        int offset = (int) (eventTime - bucketStart);
        byte[] qualifier = {(byte) (offset >>> 24), (byte) (offset >>> 16), (byte) (offset >>> 8), (byte) offset};
        return new Row(spec.dataTable(), key, eventTime, List.of(new Cell(family, qualifier, canonical.get())));
    }

    /** The summary counter of one record, or empty if the mapping keeps none. */
    public Optional<Counter> counterOf(Map<String, Object> record, long eventTime) {
        if (summary == null) {
            return Optional.empty();
        }
        long period = spec.summary().periodMillis();
        long start = eventTime - Math.floorMod(eventTime, period);
        return Optional.of(new Counter(spec.summary().table(), summary.layout.encodeParts(
                summary.values(record, start, eventTime)), SUMMARY_FAMILY, COUNT, 1));
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
                String text = new String(stored, StandardCharsets.UTF_8);
                values[i] = plan.textual[i] ? text : parseStoredLong(plan.paths[i], text);
            }
            return Optional.of(indexRow(table, plan.layout.encodeParts(values), dataRowKey, timestamp));
        }
        throw new IllegalArgumentException("no index table " + table + " in this mapping");
    }

    private static long parseStoredLong(FieldPath path, String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            try {
                return new BigDecimal(text).longValueExact(); // a JSON 200.0 is keyed as 200, stored as "200.0"
            } catch (NumberFormatException | ArithmeticException notWhole) {
                throw new InvalidEventException(path.text(), text, "is stored as text that is not a whole number");
            }
        }
    }

    private static Row indexRow(TableRole table, byte[] indexKey, byte[] dataRowKey, long timestamp) {
        return new Row(table, indexKey, timestamp, List.of(new Cell(INDEX_FAMILY, DATA_ROW_KEY, dataRowKey)));
    }

    private byte[] cellBytes(String path, Object value) {
        byte[] bytes = RecordTree.cellBytes(value);
        EventRules.cellWithin(path, bytes.length, spec.maxCellBytes(), "the input's max.cell.bytes");
        return bytes;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- compiled pieces

    private record Column(FieldPath path, byte[] qualifier) {
    }

    /** A wildcard column; {@code root} is the node of its path, set once the mapping is built. */
    private static final class Wildcard {
        final FieldPath path;
        final String prefix;
        final String spec;
        final java.util.concurrent.atomic.AtomicInteger leaves = new java.util.concurrent.atomic.AtomicInteger();
        Leaf root;

        Wildcard(FieldPath path, String prefix, String spec) {
            this.path = path;
            this.prefix = prefix;
            this.spec = spec;
        }
    }

    private record Index(TableRole table, KeyPlan plan, byte[][] storedAs) {
    }

    /**
     * A layout with each part's path compiled: {@code paths[i]} null for a part over the time
     * path, whose value is the event time (or the start of its bucket or period).
     */
    private static final class KeyPlan {
        final RowKeyLayout layout;
        final FieldPath[] paths;
        final boolean[] textual;

        private KeyPlan(RowKeyLayout layout, FieldPath[] paths, boolean[] textual) {
            this.layout = layout;
            this.paths = paths;
            this.textual = textual;
        }

        /** Compiles one key layout; any refusal is a {@link MappingException} of {@code piece}. */
        static KeyPlan of(Piece piece, String index, String what, String spec, Function<String, RowKeyLayout> layouts,
                          FieldPath timePath, Function<FieldPath, Optional<String>> yield) {
            try {
                return of(what, spec, layouts, timePath, yield);
            } catch (IllegalArgumentException e) {
                throw new MappingException(piece, index, e.getMessage(), e);
            }
        }

        private static KeyPlan of(String what, String spec, Function<String, RowKeyLayout> layouts, FieldPath timePath,
                                  Function<FieldPath, Optional<String>> yield) {
            RowKeyLayout layout;
            try {
                layout = layouts.apply(spec);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
            }
            List<KeyPart> parts = layout.parts();
            FieldPath[] paths = new FieldPath[parts.size()];
            boolean[] textual = new boolean[parts.size()];
            Map<FieldPath, String> seen = new HashMap<>();
            for (int i = 0; i < paths.length; i++) {
                KeyPart part = parts.get(i);
                FieldPath path = parsePath(what + " '" + spec + "', part " + part.spec(), part.field());
                if (seen.put(path, part.spec()) != null) {
                    throw new IllegalArgumentException(what + " '" + spec + "': " + path + " is in the key twice");
                }
                textual[i] = part.encoding().textual();
                if (path.equals(timePath)) {
                    if (textual[i]) {
                        throw new IllegalArgumentException(what + " '" + spec + "', part " + part.spec()
                                + ": the event time is a number; use ts, rts, long or dec");
                    }
                    continue;
                }
                checkYield(yield, path, what + " '" + spec + "', part " + part.spec());
                paths[i] = path;
            }
            return new KeyPlan(layout, paths, textual);
        }

        int timeParts() {
            int n = 0;
            for (FieldPath path : paths) {
                if (path == null) {
                    n++;
                }
            }
            return n;
        }

        /**
         * The part values of a record, checked and converted.
         *
         * @param time      the value of parts over the time path
         * @param eventTime the event time, for messages
         */
        Object[] values(Map<String, Object> record, long time, long eventTime) {
            Object[] values = new Object[paths.length];
            for (int i = 0; i < paths.length; i++) {
                FieldPath path = paths[i];
                values[i] = path == null ? (Object) time : keyValue(path, path.resolve(record), textual[i]);
            }
            return values;
        }
    }

    /** A value of a key part: a non-empty String for text encodings, a Long for numeric ones. */
    static Object keyValue(FieldPath path, Object value, boolean textual) {
        return keyValue(path.text(), value, textual);
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
        EventRules.keyPartPresent(field, value);
        if (value == RecordTree.NULL) {
            throw EventRules.keyPartNull(field);
        }
        if (textual) {
            if (value instanceof String text) {
                return EventRules.nonEmpty(field, text);
            }
            if (value instanceof Number || value instanceof Boolean) {
                return RecordTree.scalarText(value);
            }
            throw new InvalidEventException(field, describe(value), "is " + RecordTree.kind(value)
                    + ", where text is expected");
        }
        if (value instanceof Long l) {
            return l;
        }
        if (value instanceof BigInteger) {
            throw new InvalidEventException(field, value, "is beyond 64 bits, where a whole number is expected");
        }
        if (value instanceof BigDecimal decimal) {
            try {
                return decimal.longValueExact();
            } catch (ArithmeticException e) {
                throw new InvalidEventException(field, value, "is not a whole number of 64 bits");
            }
        }
        throw new InvalidEventException(field, describe(value), "is " + RecordTree.kind(value)
                + ", where a whole number is expected");
    }

    private static Object describe(Object value) {
        return RecordTree.isScalar(value) ? RecordTree.scalarText(value)
                : new String(RecordTree.compactJson(value), StandardCharsets.UTF_8);
    }

}
