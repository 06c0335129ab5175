package dev.rowflow.keying.mapping;

import dev.rowflow.keying.Cell;
import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.expression.Expression;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The cells of a mapping's data row: its explicit columns (a path to a qualifier), then its
 * wildcard columns (a cell per leaf under a path that no explicit column names, the qualifier a
 * prefix plus the leaf's dotted path; under an array, each element's 0-based position). Each value is encoded once by {@link RecordTree#cellBytes}
 * and checked against the cell size limit; a missing or null value writes no cell.
 *
 * <p>Thread-safe; its only state after construction is the cache of leaf paths its wildcards have
 * met (bounded, see {@code Leaf}).
 */
final class Columns {
    private final byte[] family;
    private final int maxCellBytes;
    private final List<Column> columns;
    private final List<Wildcard> wildcards;

    private Columns(byte[] family, int maxCellBytes, List<Column> columns, List<Wildcard> wildcards) {
        this.family = family;
        this.maxCellBytes = maxCellBytes;
        this.columns = columns;
        this.wildcards = wildcards;
        for (Wildcard wildcard : wildcards) {
            wildcard.root = new Leaf(wildcard, "", wildcard.path == null ? "" : wildcard.path.text(), "", false);
        }
    }

    /**
     * Checks the columns and compiles them.
     *
     * @throws IllegalArgumentException a path the format cannot yield, a qualifier two columns write
     */
    static Columns compile(List<ColumnSpec> specs, byte[] family, int maxCellBytes,
                           Function<FieldPath, Optional<String>> yield) {
        List<Column> columns = new ArrayList<>();
        List<Wildcard> wildcards = new ArrayList<>();
        Map<String, String> qualifiers = new LinkedHashMap<>();
        for (ColumnSpec column : specs) {
            if (column.wildcard()) {
                if (column.path() != null) {
                    KeyPlan.checkYield(yield, Expression.of(column.path()), "column '" + column.spec() + "'");
                }
                wildcards.add(new Wildcard(column.path(), column.qualifier(), column.spec()));
                continue;
            }
            Optional<String> why = column.value().cannotYield(yield);
            if (why.isPresent()) {
                throw new IllegalArgumentException("column '" + column.spec() + "': " + why.get());
            }
            String previous = qualifiers.putIfAbsent(column.qualifier(), column.spec());
            if (previous != null) {
                throw new IllegalArgumentException("columns '" + previous + "' and '" + column.spec()
                        + "' both write qualifier '" + column.qualifier() + "'");
            }
            columns.add(new Column(column.path(), column.value(), bytes(column.qualifier()), column.type(),
                    column.noCellOnMismatch(), column.qualifier()));
        }
        checkWildcards(specs);
        return new Columns(family, maxCellBytes, List.copyOf(columns), List.copyOf(wildcards));
    }

    /** Whether there are no columns at all. */
    boolean isEmpty() {
        return columns.isEmpty() && wildcards.isEmpty();
    }

    /** The cells of a record: explicit columns first, then wildcard leaves in document order. */
    List<Cell> cellsOf(Map<String, Object> record, RecordSource source) {
        List<Cell> cells = new ArrayList<>(columns.size() + 4);
        for (Column column : columns) {
            // A typed column takes the first of its fallbacks that has a value of its type.
            Object value = column.type == null ? column.value.evaluate(record, source)
                    : column.value.evaluate(record, source, column.type::accepts);
            if (value == null || value == RecordTree.NULL) {
                continue;
            }
            if (column.type != null && !column.type.accepts(value)) {
                if (column.noCellOnMismatch) {
                    continue;
                }
                throw new InvalidEventException(Refusal.WRONG_KIND, column.value.text(), RecordTree.isScalar(value)
                        ? RecordTree.scalarText(value) : new String(RecordTree.compactJson(value), StandardCharsets.UTF_8),
                        "is " + RecordTree.kind(value) + ", where column " + column.name + " takes "
                                + column.type.expected());
            }
            byte[] binary = column.type == null ? null : column.type.binary(value);
            cells.add(new Cell(family, column.qualifier, binary != null ? binary : cellBytes(column.value.text(), value)));
        }
        int explicitCells = cells.size();
        boolean dotted = false;
        for (Wildcard wildcard : wildcards) {
            Object under = wildcard.path == null ? record : wildcard.path.resolve(record);
            if (under instanceof Map<?, ?> object) {
                dotted |= walk(wildcard.root, object, cells);
            } else if (under instanceof List<?> array && wildcard.path != null) {
                // A wildcard over an array: each element under its 0-based position (phones.*=p* -> p0, p1).
                for (int i = 0; i < array.size(); i++) {
                    dotted |= visit(wildcard.root, Integer.toString(i), array.get(i), cells);
                }
            }
        }
        if (dotted) {
            dropRepeatedLeaves(cells, explicitCells);
        }
        return cells;
    }

    /** The type of the explicit column that keeps {@code value}'s value, or null (untyped, a wildcard's leaf). */
    ValueType typeOf(Expression value) {
        for (Column column : columns) {
            if (column.value.equals(value)) {
                return column.type;
            }
        }
        return null;
    }

    /** The qualifier the data row keeps {@code value}'s value under, or null. */
    byte[] qualifierOf(Expression value) {
        for (Column column : columns) {
            if (column.value.equals(value)) {
                return column.qualifier;
            }
        }
        FieldPath path = value.path().orElse(null);
        for (Wildcard wildcard : wildcards) {
            if (path == null || path.hasFallbacks()) {
                break; // a wildcard keeps each leaf under its own name: only an explicit column holds a fallback's value
            }
            String under = wildcard.path == null ? "" : wildcard.path.text() + ".";
            if (path.text().startsWith(under) && path.text().length() > under.length()
                    && path.steps().stream().allMatch(step -> step instanceof String)
                    && !namedByAColumn(columns, path.text())) { // cellsOf skips such leaves
                return bytes(wildcard.prefix + path.text().substring(under.length()));
            }
        }
        return null;
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
                    if (other.path() == null || !wouldBe.equals(other.path().text())) {
                        throw new IllegalArgumentException("columns '" + wildcard.spec() + "' and '" + other.spec()
                                + "' could both write qualifier '" + other.qualifier() + "' (a field " + wouldBe
                                + "); give the wildcard a prefix of its own, e.g. " + (wildcard.path() == null ? "*"
                                : wildcard.path().text() + ".*") + "=f.*");
                    }
                }
            }
        }
    }

    /** Whether an explicit column names {@code path} or a path above it (any of a fallback's paths). */
    private static boolean namedByAColumn(List<Column> columns, String path) {
        for (Column column : columns) {
            if (column.path == null) {
                continue; // an expression: a wildcard still writes the leaves it reads
            }
            for (FieldPath alternative : column.path.alternatives()) {
                String named = alternative.text();
                if (path.equals(named) || (path.startsWith(named) && path.charAt(named.length()) == '.')) {
                    return true;
                }
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
        Set<ByteBuffer> seen = new HashSet<>();
        for (Iterator<Cell> i = cells.listIterator(from); i.hasNext(); ) {
            if (!seen.add(ByteBuffer.wrap(i.next().qualifier()))) {
                i.remove();
            }
        }
    }

    private byte[] cellBytes(String path, Object value) {
        byte[] bytes = RecordTree.cellBytes(value);
        EventRules.cellWithin(path, bytes.length, maxCellBytes, "the input's max.cell.bytes");
        return bytes;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
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
        private final ConcurrentHashMap<String, Leaf> children = new ConcurrentHashMap<>();
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
                Leaf[] more = Arrays.copyOf(known, known.length + 1);
                more[known.length] = child;
                this.known = more;
            }
            return child;
        }
    }

    /** @param name the qualifier as written, for the reason a mismatched value is refused with */
    /** @param path the value's path, or null where the value is another expression */
    private record Column(FieldPath path, Expression value, byte[] qualifier, ValueType type, boolean noCellOnMismatch,
                          String name) {
    }

    /** A wildcard column; {@code root} is the node of its path, set once the mapping is built. */
    private static final class Wildcard {
        final FieldPath path;
        final String prefix;
        final String spec;
        final AtomicInteger leaves = new AtomicInteger();
        Leaf root;

        Wildcard(FieldPath path, String prefix, String spec) {
            this.path = path;
            this.prefix = prefix;
            this.spec = spec;
        }
    }
}
