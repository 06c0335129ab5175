package dev.rowflow.keying.mapping;

import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.mapping.MappingException.Piece;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Checks a {@link MappingSpec} and compiles it into an {@link EventMapping}, once, at start: the
 * time path, the columns, every key layout over the paths the format can yield, the indexes (each
 * part kept in a column, so index verify and backfill can rebuild the index row), the summary,
 * the TTL, the rows per array element. Every refusal is a {@link MappingException} naming the
 * piece of the declaration at fault.
 */
final class MappingCompiler {
    private MappingCompiler() {
    }

    /**
     * Checks a mapping and compiles it, its layouts parsed by {@code layouts} (which binds the uid
     * parts to a UID store).
     *
     * @throws MappingException naming the piece at fault and the value
     */
    static EventMapping compile(MappingSpec spec, Function<String, RowKeyLayout> layouts,
                                       Function<FieldPath, Optional<String>> yield) {
        Expression timePath;
        try {
            timePath = KeyPlan.parse("the time path", spec.timePath());
            KeyPlan.checkYield(yield, timePath, "the time path");
        } catch (IllegalArgumentException e) {
            throw new MappingException(Piece.TIME, null, e.getMessage(), e);
        }
        Columns columns;
        try {
            columns = Columns.compile(spec.columns(), EventMapping.bytes(spec.family()), spec.maxCellBytes(), yield);
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
        if (spec.timeBucketMillis() == 0 && columns.isEmpty()) {
            throw new MappingException(Piece.COLUMNS, "no columns: a data row needs at least one cell");
        }
        List<EventMapping.Index> indexes = new ArrayList<>();
        for (MappingSpec.IndexSpec index : spec.indexes()) {
            KeyPlan plan = KeyPlan.of(Piece.INDEX_KEY, index.name(), "index " + index.name() + " key", index.keyLayout(),
                    layouts, timePath, yield);
            byte[][] storedAs = new byte[plan.paths.length][];
            ValueType[] storedTypes = new ValueType[plan.paths.length];
            for (int i = 0; i < plan.paths.length; i++) {
                if (plan.paths[i] == null) {
                    continue; // the event time: the data row's cell timestamp
                }
                storedAs[i] = columns.qualifierOf(plan.paths[i]);
                storedTypes[i] = columns.typeOf(plan.paths[i]);
                if (storedAs[i] == null) {
                    throw new MappingException(Piece.INDEX_KEY, index.name(), "index " + index.name() + " key '"
                            + index.keyLayout() + "': part " + plan.paths[i] + " is in no column of the data row, so "
                            + "index verify and backfill could not rebuild the index row from it; add " + plan.paths[i]
                            + " to the columns", null);
                }
            }
            indexes.add(new EventMapping.Index(index.name(), index.table(), plan, storedAs, storedTypes, index.skipWhenMissing(),
                    new java.util.concurrent.atomic.LongAdder()));
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
        Expression ttl = null;
        if (spec.ttl() != null && !spec.ttl().isBlank()) {
            try {
                ttl = KeyPlan.parse("the TTL", spec.ttl());
                KeyPlan.checkYield(yield, ttl, "the TTL");
                if (ttl.kind() != Expression.Kind.ANY && ttl.kind() != Expression.Kind.LONG) {
                    throw new IllegalArgumentException("the TTL '" + ttl + "' is " + ttl.kind().name().toLowerCase(
                            java.util.Locale.ROOT) + ", where a whole number of ms is expected (convert with long(...))");
                }
            } catch (IllegalArgumentException e) {
                throw new MappingException(Piece.TTL, null, e.getMessage(), e);
            }
        }
        List<ElementRows> elementRows = new ArrayList<>();
        for (MappingSpec.ElementRowsSpec rows : spec.elementRows()) {
            if (spec.timeBucketMillis() > 0) {
                throw new MappingException(Piece.TIME_BUCKET, "rows as columns keep a record in one cell: it makes no "
                        + "rows per array element (rows " + rows.name() + ")");
            }
            elementRows.add(ElementRows.compile(rows, EventMapping.bytes(spec.family()), spec.maxCellBytes(), layouts, timePath,
                    yield));
        }
        // $ordinal is also what a record one of several in its Kafka record has (an export request's log
        // records): whether the input's records are such, the input's compiler checks.
        for (Expression read : data.paths) {
            if (read != null && read.elementSources().stream().anyMatch(alias -> !alias.isEmpty())) {
                throw new MappingException(Piece.DATA_KEY, "data key '" + spec.keyLayout() + "': " + read + " reads "
                        + "what only a row made per array element has ($position)");
            }
        }
        for (ColumnSpec column : spec.columns()) {
            if (!column.wildcard() && column.value().elementSources().stream().anyMatch(alias -> !alias.isEmpty())) {
                throw new MappingException(Piece.COLUMNS, "column '" + column.spec() + "' reads what only a row made "
                        + "per array element has ($position)");
            }
        }
        return new EventMapping(spec, timePath, data, columns,
                List.copyOf(indexes), summary, ttl, List.copyOf(elementRows));
    }
}
