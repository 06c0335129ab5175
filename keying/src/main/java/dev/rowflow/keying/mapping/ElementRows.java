package dev.rowflow.keying.mapping;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.SpecText;
import dev.rowflow.keying.mapping.MappingException.Piece;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A compiled {@link MappingSpec.ElementRowsSpec}: the rows one record makes per element of its
 * arrays. Each row reads the record with every alias bound to its element (a shallow copy of the
 * record's top level per element, so the record itself is never changed) and a source that
 * answers {@code $position.<alias>} and {@code $ordinal}.
 *
 * <p>Thread-safe, as {@link Columns} is.
 */
final class ElementRows {
    private static final Pattern LEVEL = Pattern.compile("(.*\\S)\\s+as\\s+([^\\s.\\[\\]\"$,|:=*+()]+)");

    /** One array: its path (in the record or under an earlier alias) and the alias of its elements. */
    private record Level(FieldPath array, String alias) {
    }

    private final MappingSpec.ElementRowsSpec spec;
    private final List<Level> levels;
    private final KeyPlan key;
    private final Columns columns;

    private ElementRows(MappingSpec.ElementRowsSpec spec, List<Level> levels, KeyPlan key, Columns columns) {
        this.spec = spec;
        this.levels = levels;
        this.key = key;
        this.columns = columns;
    }

    /**
     * Checks one kind of element rows and compiles it; a refusal is a {@link MappingException} of
     * an {@code ELEMENT_} piece naming the kind.
     */
    static ElementRows compile(MappingSpec.ElementRowsSpec spec, byte[] family, int maxCellBytes,
                               Function<String, RowKeyLayout> layouts, Expression timePath,
                               Function<FieldPath, Optional<String>> yield) {
        String what = "rows " + spec.name();
        List<Level> levels = new ArrayList<>();
        // What each alias stands for in the record's own terms, for the format's yield check:
        // item -> shippingLocations[0].lineItems[0].
        Map<String, String> expansions = new HashMap<>();
        try {
            for (String entry : SpecText.splitTopLevel(spec.each(), ',')) {
                Matcher m = LEVEL.matcher(entry.strip());
                if (!m.matches()) {
                    throw new IllegalArgumentException("'" + entry.strip() + "' is not 'path as alias' (e.g. "
                            + "shippingLocations as location, location.lineItems as item)");
                }
                FieldPath array = FieldPath.parse(m.group(1).strip());
                String alias = m.group(2);
                if (array.hasFallbacks() || array.hasEvery()) {
                    throw new IllegalArgumentException("'" + entry.strip() + "': each takes one array's path, without"
                            + " fallbacks or [*]");
                }
                if (expansions.containsKey(alias)) {
                    throw new IllegalArgumentException("alias '" + alias + "' is given twice");
                }
                String expanded = expand(array, expansions);
                Optional<String> why = yield.apply(FieldPath.parse(expanded));
                if (why.isPresent()) {
                    throw new IllegalArgumentException("'" + entry.strip() + "': " + why.get());
                }
                expansions.put(alias, expanded + "[0]");
                levels.add(new Level(array, alias));
            }
        } catch (IllegalArgumentException e) {
            throw new MappingException(Piece.ELEMENT_EACH, spec.name(), what + " each '" + spec.each() + "': "
                    + e.getMessage(), e);
        }
        if (levels.isEmpty()) {
            throw new MappingException(Piece.ELEMENT_EACH, spec.name(), what + ": each names no array", null);
        }
        Function<FieldPath, Optional<String>> elementYield = path -> {
            Object first = path.steps().get(0);
            String expansion = first instanceof String name ? expansions.get(name) : null;
            return expansion == null ? yield.apply(path)
                    : yield.apply(FieldPath.parse(expansion + path.text().substring(((String) first).length())));
        };
        KeyPlan key = KeyPlan.of(Piece.ELEMENT_KEY, spec.name(), what + " key", spec.keyLayout(), layouts, timePath,
                elementYield);
        Columns columns;
        try {
            columns = Columns.compile(spec.columns(), family, maxCellBytes, elementYield);
            if (columns.isEmpty()) {
                throw new IllegalArgumentException("no columns: a row needs at least one cell");
            }
        } catch (IllegalArgumentException e) {
            throw new MappingException(Piece.ELEMENT_COLUMNS, spec.name(), what + " columns: " + e.getMessage(), e);
        }
        List<Expression> read = new ArrayList<>(java.util.Arrays.asList(key.paths));
        spec.columns().stream().filter(column -> !column.wildcard()).forEach(column -> read.add(column.value()));
        for (Expression expression : read) {
            if (expression == null) {
                continue;
            }
            for (String alias : expression.elementSources()) {
                if (!alias.isEmpty() && !expansions.containsKey(alias)) {
                    String reads = expression.text().equals("$position." + alias) ? ""
                            : " reads $position." + alias;
                    throw new MappingException(Piece.ELEMENT_KEY, spec.name(), what + ": " + expression + reads
                            + ": each gives no alias " + alias + " (aliases: " + String.join(", ", expansions.keySet())
                            + ")", null);
                }
            }
        }
        return new ElementRows(spec, List.copyOf(levels), key, columns);
    }

    /** The path's text with a leading alias replaced by what it stands for. */
    private static String expand(FieldPath path, Map<String, String> expansions) {
        Object first = path.steps().get(0);
        String expansion = first instanceof String name ? expansions.get(name) : null;
        return expansion == null ? path.text() : expansion + path.text().substring(((String) first).length());
    }

    MappingSpec.ElementRowsSpec spec() {
        return spec;
    }

    RowKeyLayout layout() {
        return key.layout;
    }

    /**
     * Adds the rows of one record, in document order: for {@code a as x, x.b as y}, the rows of
     * the first {@code x}'s elements, then the second's.
     *
     * @throws InvalidEventException if an each path holds no array, or a row's key or cells
     *                               cannot be made
     */
    void addRows(Map<String, Object> record, RecordSource source, long eventTime, long ttlMillis, List<Row> rows) {
        expand(0, record, source, new HashMap<>(), new long[1], eventTime, ttlMillis, rows);
    }

    private void expand(int depth, Map<String, Object> scope, RecordSource source, Map<String, Long> positions,
                        long[] ordinal, long eventTime, long ttlMillis, List<Row> rows) {
        if (depth == levels.size()) {
            RecordSource element = source.ofElement(positions, ++ordinal[0]);
            byte[] rowKey = key.layout.encodeParts(key.values(scope, element, eventTime, eventTime));
            List<dev.rowflow.keying.Cell> cells = columns.cellsOf(scope, element);
            if (cells.isEmpty()) {
                throw new InvalidEventException(Refusal.EMPTY,
                        "value", null, "makes a row " + spec.name() + " with none of its "
                        + "columns (" + spec.columns().stream().map(ColumnSpec::spec).toList() + "): a row needs at "
                        + "least one cell");
            }
            rows.add(new Row(spec.table(), rowKey, eventTime, cells, ttlMillis));
            return;
        }
        Level level = levels.get(depth);
        Object array = level.array.resolve(scope);
        if (array == null || array == RecordTree.NULL) {
            return;
        }
        if (!(array instanceof List<?> elements)) {
            throw new InvalidEventException(Refusal.WRONG_KIND, level.array.text(), RecordTree.isScalar(array)
                    ? RecordTree.scalarText(array) : new String(RecordTree.compactJson(array), StandardCharsets.UTF_8),
                    "is " + RecordTree.kind(array) + ", where rows " + spec.name() + " take an array");
        }
        for (int i = 0; i < elements.size(); i++) {
            Object element = elements.get(i);
            if (element == null || element == RecordTree.NULL) {
                continue;
            }
            Map<String, Object> next = new LinkedHashMap<>(scope);
            next.put(level.alias, element);
            positions.put(level.alias, (long) i + 1);
            expand(depth + 1, next, source, positions, ordinal, eventTime, ttlMillis, rows);
        }
    }
}
