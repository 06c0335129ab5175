package dev.rowflow.pipeline.ingest;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.keying.mapping.ColumnSpec;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.MappingException;
import dev.rowflow.keying.mapping.MappingSpec;
import dev.rowflow.keying.mapping.SchemaCheck;
import dev.rowflow.keying.mapping.TimestampPolicy;
import dev.rowflow.pipeline.config.InputConfig;
import dev.rowflow.pipeline.topology.Deletes;
import dev.rowflow.sinks.hbase.TableDefinition;
import org.apache.hadoop.hbase.TableName;
import org.apache.kafka.common.config.ConfigException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Compiles an {@code input.<name>.*} declaration into a {@link DeclaredInput}, once, at start:
 * its mapping against its format, its conditions, its deletes, its join, its tables; every
 * declaration that can never hold is refused here, naming the key -- never record by record.
 */
final class InputCompiler {
    private InputCompiler() {
    }

    /**
     * The input {@code input.<name>.*} declares, its mapping compiled against {@code format}.
     *
     * @throws ConfigException naming the key of the piece of the mapping at fault
     */
    static DeclaredInput compile(InputConfig input, RecordFormat format, UidResolver uids,
                                 TimestampPolicy timestamps) {
        if (!input.changeEvents()) {
            forEachExpression(input, (key, value, expression) -> expression.changeSource().ifPresent(source -> {
                throw new ConfigException(input.key(key), value, source + " is a source of change events, and "
                        + input.key(InputConfig.ENVELOPE) + " is none: no record of this input has it");
            }));
        }
        if (!format.holdsMany()) {
            forEachExpression(input, (setting, value, expression) -> {
                if (expression.elementSources().contains("")) {
                    throw new ConfigException(input.key(setting), value, "$ordinal is the number of a row made per "
                            + "array element, or of a record among those its Kafka record holds (formats otlp-proto, "
                            + "otlp-json); a Kafka record of format " + format.name() + " holds one");
                }
            });
        } else if (!input.getString(InputConfig.SUMMARY_KEY).isEmpty()) {
            throw new ConfigException(input.key(InputConfig.SUMMARY_KEY), input.getString(InputConfig.SUMMARY_KEY),
                    "a summary counts each Kafka record once, by its offset, and a record of format " + format.name()
                    + " holds many: count them elsewhere");
        }
        MappingSpec spec = input.mappingSpec().withTimestamps(timestamps);
        EventMapping mapping;
        try {
            mapping = EventMapping.compile(spec, uids, format::cannotYield);
        } catch (MappingException e) {
            String key = input.keyOf(e.piece(), e.index());
            throw new ConfigException(input.key(key), input.getString(key), e.getMessage());
        }
        SchemaCheck.check(mapping, format::kindAt).ifPresent(refused -> {
            throw new ConfigException(refused.table() == null ? input.key(InputConfig.TIME)
                    : input.layoutKey(refused.table()), refused.spec(), refused.why());
        });
        Expression where = condition(input, InputConfig.WHERE, input.where(), format);
        Deletes deletes = Deletes.of(Deletes.Tombstones.of(input.tombstones()),
                condition(input, InputConfig.DELETE_WHEN, input.deleteWhen(), format), input.changeEvents(),
                fullBeforeImages(input, mapping));
        if (deletes.any() && mapping.hasElementRows()) {
            String key = deletes.changes() ? InputConfig.ENVELOPE
                    : deletes.when() != null ? InputConfig.DELETE_WHEN : InputConfig.TOMBSTONES;
            throw new ConfigException(input.key(key), input.getString(key), "a record that deletes (or replaces) its "
                    + "row deletes the row and its index rows, not the rows made per array element ("
                    + input.key(InputConfig.ROWS) + "=" + String.join(",", input.rows()) + "): take the elements' rows "
                    + "from an input of events");
        }
        if (deletes.any() && spec.timeBucketMillis() > 0) {
            String key = deletes.changes() ? InputConfig.ENVELOPE
                    : deletes.when() != null ? InputConfig.DELETE_WHEN : InputConfig.TOMBSTONES;
            throw new ConfigException(input.key(key), input.getString(key), "rows as columns ("
                    + input.key(InputConfig.TIME_BUCKET_SECONDS) + ") keep many records in one row, so one record "
                    + "cannot be deleted");
        }
        Map<TableRole, RowKeyLayout> layouts = mapping.tableLayouts();
        List<IngestTable> tables = new ArrayList<>();
        input.rolesByTableKey().forEach((tableKey, role) -> tables.add(new IngestTable(role, new TableDefinition(
                TableName.valueOf(input.tableName(tableKey)), mapping.familyOf(role), input.familySettings(tableKey),
                layouts.get(role)), input.key(tableKey), input.layoutKey(role))));
        return new DeclaredInput(input.name(), new Source(input.topic(), input.key(InputConfig.TOPIC),
                input.deadLetterTopic(), "no such topic"), format, mapping, tables,
                layout -> layout.parts().forEach(part -> Expression.parse(part.field()).cannotYield(format::cannotYield)
                        .ifPresent(why -> {
                            throw new IllegalArgumentException("part '" + part.spec() + "' of layout '"
                                    + layout.spec() + "': " + why);
                        })), where, input.unroutedToDeadLetter(), deletes, join(input));
    }

    /**
     * The join {@code join.*} declares, or null.
     *
     * @throws ConfigException naming the key, for a missing or bad path, a setting a joining input
     *                         does not use, or, of an input of events, a key over the joined fields
     *                         or a source of the Kafka record other than {@code $timestamp} and
     *                         {@code $value}
     */
    private static DeclaredInput.Join join(InputConfig input) {
        Optional<String> joined = input.joinInput();
        if (joined.isEmpty()) {
            return null;
        }
        String key = input.key(InputConfig.JOIN_INPUT);
        String as = input.joinAs();
        if (!input.changeEvents()) {
            // An event is joined again, after its own record, whenever the joined row changes: only
            // what the event carries is still there then, and its key must stay its own.
            forEachExpression(input, (setting, value, expression) -> {
                for (String source : expression.sources()) {
                    if (!source.equals("$timestamp") && !source.equals("$value")) {
                        throw new ConfigException(input.key(setting), value, source + " is not known when an event "
                                + "is joined again after a change of the joined row (" + key + "=" + joined.get()
                                + "): read the event's fields, $timestamp or $value");
                    }
                }
                if (setting.equals(InputConfig.KEY) && expression.paths().stream()
                        .anyMatch(path -> path.steps().get(0).equals(as))) {
                    throw new ConfigException(input.key(setting), value, "an event keeps the key it was written "
                            + "under: the key of an input of events that joins another (" + key + "=" + joined.get()
                            + ") reads no field of the joined row (" + as + ")");
                }
            });
        }
        for (String setting : List.of(InputConfig.WHERE, InputConfig.DELETE_WHEN)) {
            if (!input.getString(setting).isBlank()) {
                throw new ConfigException(input.key(setting), input.getString(setting), "an input that joins "
                        + "another (" + key + "=" + joined.get() + ") writes every row of its table: leave "
                        + input.key(setting) + " out");
            }
        }
        if (input.fullBeforeImages()) {
            throw new ConfigException(input.key(InputConfig.BEFORE_IMAGE), InputConfig.BEFORE_IMAGE_FULL, "an input "
                    + "that joins another reads each stored row (a change of the joined row changes its rows "
                    + "without a before image): leave " + input.key(InputConfig.BEFORE_IMAGE) + " out");
        }
        return new DeclaredInput.Join(joined.get(), joinPath(input, InputConfig.JOIN_ON),
                joinPath(input, InputConfig.JOIN_FIELD), as);
    }

    private static FieldPath joinPath(InputConfig input, String setting) {
        String path = input.getString(setting).strip();
        if (path.isEmpty()) {
            throw new ConfigException(input.key(setting), path, "is needed with " + input.key(InputConfig.JOIN_INPUT)
                    + (setting.equals(InputConfig.JOIN_ON) ? ": the path of the foreign key in this input's row"
                    : ": the path in the joined input's row that the foreign key equals"));
        }
        try {
            return FieldPath.parse(path);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(input.key(setting), path, e.getMessage());
        }
    }




    /**
     * Whether the input's change events carry whole before images ({@code before.image=full}),
     * which then stand for the stored row.
     *
     * @throws ConfigException naming {@code before.image} if the records are no change events, or
     *                         an index's key holds the time (its row is found only with the time
     *                         it was written at) and the time is not a field of the row
     */
    private static boolean fullBeforeImages(InputConfig input, EventMapping mapping) {
        if (!input.fullBeforeImages()) {
            return false;
        }
        String key = input.key(InputConfig.BEFORE_IMAGE);
        if (!input.changeEvents()) {
            throw new ConfigException(key, InputConfig.BEFORE_IMAGE_FULL, "only change events have before images: "
                    + "set " + input.key(InputConfig.ENVELOPE) + "=debezium, or leave " + key + " out");
        }
        List<String> timed = mapping.indexesKeyedByTime();
        if (!timed.isEmpty() && !mapping.timeFromValue()) {
            throw new ConfigException(key, InputConfig.BEFORE_IMAGE_FULL, "the key of index " + timed.get(0)
                    + " holds the time, so its row is found only with the time the row was written at, and "
                    + input.key(InputConfig.TIME) + " is not a column of the row that a before image would have: set "
                    + key + "=partial (each change reads its row), take the time from a column, or drop it from "
                    + input.key("index." + timed.get(0) + "." + InputConfig.KEY));
        }
        return true;
    }

    /** What {@link #forEachExpression} gives: the key an expression is written under, its value, the expression. */
    @FunctionalInterface
    private interface ExpressionVisitor {
        void visit(String key, String value, Expression expression);
    }

    /**
     * Gives {@code visitor} each expression of the input's declaration that parses (compiling the
     * mapping refuses the others, naming the key): the parts of its key layouts, the time, the
     * TTL, the conditions and the columns.
     */
    private static void forEachExpression(InputConfig input, ExpressionVisitor visitor) {
        List<String> layoutKeys = new ArrayList<>(List.of(InputConfig.KEY, InputConfig.SUMMARY_KEY));
        input.indexes().forEach(index -> layoutKeys.add("index." + index + "." + InputConfig.KEY));
        for (String key : layoutKeys) {
            String layout = input.getString(key);
            for (KeyPart part : layoutParts(layout)) {
                visit(visitor, key, layout, part.field(), false);
            }
        }
        for (String key : List.of(InputConfig.TIME, InputConfig.TTL_MS)) {
            visit(visitor, key, input.getString(key), input.getString(key), false);
        }
        for (String key : List.of(InputConfig.WHERE, InputConfig.DELETE_WHEN)) {
            visit(visitor, key, input.getString(key), input.getString(key), true);
        }
        for (ColumnSpec column : input.mappingSpec().columns()) {
            if (column.value() != null) {
                visitor.visit(InputConfig.COLUMNS, input.getString(InputConfig.COLUMNS), column.value());
            }
        }
    }

    /** The parts of a layout, or none where it is empty or malformed (compiling the mapping says why). */
    private static List<KeyPart> layoutParts(String layout) {
        try {
            return layout.isBlank() ? List.of() : RowKeyLayout.parse(layout, null).parts();
        } catch (IllegalArgumentException e) {
            return List.of();
        }
    }

    private static void visit(ExpressionVisitor visitor, String key, String value, String text, boolean condition) {
        if (text.isBlank()) {
            return;
        }
        Expression expression;
        try {
            expression = condition ? Expression.parseCondition(text) : Expression.parse(text);
        } catch (IllegalArgumentException e) {
            return; // compiling the mapping refuses it, naming the key
        }
        visitor.visit(key, value, expression);
    }

    /** The condition of {@code key}, checked against the format; null if {@code text} is empty. */
    private static Expression condition(InputConfig input, String key, String text, RecordFormat format) {
        if (text.isEmpty()) {
            return null;
        }
        try {
            Expression condition = Expression.parseCondition(text);
            Optional<String> why = condition.cannotYield(format::cannotYield);
            if (why.isPresent()) {
                throw new IllegalArgumentException(why.get());
            }
            return condition;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(input.key(key), text, e.getMessage());
        }
    }
}
