package dev.rowflow.pipeline.ingest;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.format.DebeziumEnvelope;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.keying.mapping.ColumnSpec;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.MappingException;
import dev.rowflow.keying.mapping.MappingSpec;
import dev.rowflow.keying.mapping.TimestampPolicy;
import dev.rowflow.pipeline.config.InputConfig;
import dev.rowflow.pipeline.registry.RegistryFormat;
import dev.rowflow.pipeline.topology.Deletes;
import dev.rowflow.pipeline.topology.InputTopology;
import dev.rowflow.pipeline.topology.JoinTopology;
import dev.rowflow.sinks.hbase.TableDefinition;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.hadoop.hbase.TableName;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * A topic, a format and a mapping: records read in the format become the rows and counters the
 * mapping makes ({@link InputTopology}). Every {@code input.<name>.*} declaration is one, and so is
 * the log pipeline ({@link LogIngest}: the {@code LogMapping} preset over {@code LogEvent}).
 */
public final class DeclaredInput implements Ingest {
    private final String name;
    private final Source source;
    private final RecordFormat format;
    private final EventMapping mapping;
    private final EventMapping indexMapping;
    private final List<IngestTable> tables;
    private final Consumer<RowKeyLayout> keyCheck;
    private final Expression where;
    private final boolean unroutedToDeadLetter;
    private final Deletes deletes;
    private final LongAdder filtered = new LongAdder();
    private final LongAdder unrouted = new LongAdder();
    /** The inputs of its topic, in declaration order, this one among them: the first adds the topology. */
    private List<DeclaredInput> topicInputs = List.of(this);
    /** What it joins ({@code join.*}), or null. */
    private final Join join;
    /** Records it sets aside before making rows (a preset's own rules). */
    private final List<InputTopology.Refusal> refusals;
    /** The input it joins, once {@link PipelinePlan} has linked them. */
    private DeclaredInput joined;
    /** The builder its topology was last added to, its records there, and its rows by key field for joins. */
    private StreamsBuilder builtIn;
    private KStream<byte[], ReadRecord> stream;
    private final Map<String, KTable<String, Map<String, Object>>> rowsBy = new java.util.HashMap<>();

    /**
     * A join by foreign key ({@code join.*}).
     *
     * @param input the joined input's name
     * @param on    the foreign key's path in this input's row
     * @param field the path in the joined row the foreign key equals
     * @param as    the name the joined row's fields appear under
     */
    record Join(String input, FieldPath on, FieldPath field, String as) {
    }

    /**
     * @param keyCheck refuses a key layout the input's records cannot make (see {@link #checkKeyLayout})
     * @param where    the records it takes, or null for every record
     * @param deletes  which of its records delete their row
     */
    DeclaredInput(String name, Source source, RecordFormat format, EventMapping mapping, EventMapping indexMapping,
                  List<IngestTable> tables, Consumer<RowKeyLayout> keyCheck, Expression where,
                  boolean unroutedToDeadLetter, Deletes deletes) {
        this(name, source, format, mapping, indexMapping, tables, keyCheck, where, unroutedToDeadLetter, deletes, null,
                List.of());
    }

    /**
     * A preset's input: its records as events, none of which deletes, each set aside that one of
     * {@code refusals} holds for; joining another if {@code join} is not null (link it with
     * {@link #joinWith}).
     */
    DeclaredInput(String name, Source source, RecordFormat format, EventMapping mapping, List<IngestTable> tables,
                  Consumer<RowKeyLayout> keyCheck, Join join, List<InputTopology.Refusal> refusals) {
        this(name, source, format, mapping, mapping, tables, keyCheck, null, false, Deletes.none(), join, refusals);
    }

    private DeclaredInput(String name, Source source, RecordFormat format, EventMapping mapping,
                          EventMapping indexMapping, List<IngestTable> tables, Consumer<RowKeyLayout> keyCheck,
                          Expression where, boolean unroutedToDeadLetter, Deletes deletes, Join join,
                          List<InputTopology.Refusal> refusals) {
        this.refusals = List.copyOf(refusals);
        this.join = join;
        this.deletes = deletes;
        this.name = name;
        this.where = where;
        this.unroutedToDeadLetter = unroutedToDeadLetter;
        this.keyCheck = keyCheck;
        this.source = source;
        this.format = format;
        this.mapping = mapping;
        this.indexMapping = indexMapping;
        this.tables = List.copyOf(tables);
    }

    /**
     * The input {@code input.<name>.*} declares, its mapping compiled against {@code format}.
     *
     * @throws ConfigException naming the key of the piece of the mapping at fault
     */
    static DeclaredInput of(InputConfig input, RecordFormat format, UidResolver uids, TimestampPolicy timestamps) {
        if (!input.changeEvents()) {
            forEachExpression(input, (key, value, expression) -> expression.changeSource().ifPresent(source -> {
                throw new ConfigException(input.key(key), value, source + " is a source of change events, and "
                        + input.key(InputConfig.ENVELOPE) + " is none: no record of this input has it");
            }));
        }
        MappingSpec spec = input.mappingSpec().withTimestamps(timestamps);
        EventMapping mapping;
        try {
            mapping = EventMapping.compile(spec, uids, format::cannotYield);
        } catch (MappingException e) {
            String key = input.keyOf(e.piece(), e.index());
            throw new ConfigException(input.key(key), input.getString(key), e.getMessage());
        }
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
                input.deadLetterTopic(), "no such topic"), format, mapping, mapping, tables,
                layout -> layout.parts().forEach(part -> Expression.parse(part.field()).cannotYield(format::cannotYield)
                        .ifPresent(why -> {
                            throw new IllegalArgumentException("part '" + part.spec() + "' of layout '"
                                    + layout.spec() + "': " + why);
                        })), where, input.unroutedToDeadLetter(), deletes, join(input), List.of());
    }

    /**
     * The join {@code join.*} declares, or null.
     *
     * @throws ConfigException naming the key, for a missing or bad path, a setting a joining input
     *                         does not use, or, of an input of events, a key over the joined fields
     *                         or a source of the Kafka record other than {@code $timestamp} and
     *                         {@code $value}
     */
    private static Join join(InputConfig input) {
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
        return new Join(joined.get(), joinPath(input, InputConfig.JOIN_ON), joinPath(input, InputConfig.JOIN_FIELD),
                as);
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

    /** The name of the input it joins, if it joins one. */
    Optional<String> joins() {
        return join == null ? Optional.empty() : Optional.of(join.input());
    }

    /** Links it to the input it joins ({@link PipelinePlan#build} checked they may be). */
    void joinWith(DeclaredInput joined) {
        this.joined = joined;
    }

    /** Whether it reads its topic alone (no other input shares the read). */
    boolean readsTopicAlone() {
        return topicInputs.size() == 1;
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

    @Override
    public String name() {
        return name;
    }

    @Override
    public List<Source> sources() {
        return List.of(source);
    }

    /** The topic it reads. */
    public String topic() {
        return source.topic();
    }

    @Override
    public List<IngestTable> tables() {
        return tables;
    }

    /** The format its records are read in. */
    public RecordFormat format() {
        return format;
    }

    /** The mapping the pipeline writes with. */
    public EventMapping mapping() {
        return mapping;
    }

    /**
     * The mapping with every declared index, also one the pipeline does not dual-write (the log
     * index with {@code index.log.enabled=false}): what {@code rowflow index verify} and
     * {@code backfill} rebuild index rows with (seed 002, 1.9.2).
     */
    public EventMapping indexMapping() {
        return indexMapping;
    }

    /** The names of its indexes, in declaration order, with the role of each index table. */
    public Map<String, TableRole> indexes() {
        Map<String, TableRole> indexes = new java.util.LinkedHashMap<>();
        indexMapping.spec().indexes().forEach(index -> indexes.put(index.name(), index.table()));
        return indexes;
    }

    /** Its table of {@code role}. */
    public Optional<TableDefinition> table(TableRole role) {
        return tables.stream().filter(table -> table.role().equals(role)).map(IngestTable::definition).findFirst();
    }

    @Override
    public void checkKeyLayout(RowKeyLayout layout) {
        keyCheck.accept(layout);
    }

    /**
     * Makes {@code inputs} (declaration order, this one among them) the inputs of this one's
     * topic: the first reads it for all ({@link PipelinePlan#build} checked they read it alike).
     */
    void readsTopicWith(List<DeclaredInput> inputs) {
        this.topicInputs = List.copyOf(inputs);
    }

    /** Whether {@code other} reads this one's topic in the same read. */
    boolean sharesTopicWith(DeclaredInput other) {
        return topicInputs.contains(other);
    }

    /** Whether some of its records delete rows: its tables must order deletes by when they were written. */
    @Override
    public boolean deletes() {
        return deletes.any();
    }

    /** What a record of it with a null value does. */
    Deletes.Tombstones tombstones() {
        return deletes.tombstones();
    }

    /** Its delete condition ({@code delete.when}), if records that say so delete their row. */
    Optional<Expression> deletesWhen() {
        return Optional.ofNullable(deletes.when());
    }

    /**
     * Sets a record aside that one of its preset's refusals holds for, as its writer does.
     *
     * @throws dev.rowflow.keying.InvalidEventException with the refusal's reason
     */
    void check(Map<String, Object> tree, dev.rowflow.keying.mapping.RecordSource source) {
        route().check(tree, source);
    }

    private InputTopology.Route route() {
        return new InputTopology.Route(name, where, mapping, filtered, deletes, refusals);
    }

    /** Its condition ({@code where}), if it takes only some records of its topic. */
    public Optional<Expression> where() {
        return Optional.ofNullable(where);
    }

    /** Adds the topology of its topic's inputs, if it is the first of them (the topic is read once). */
    @Override
    public void addTo(StreamsBuilder builder, Wiring wiring) {
        if (topicInputs.get(0) != this || builtIn == builder) {
            return;
        }
        if (joined != null) {
            joined.addTo(builder, wiring); // the joined rows are read from its records
        }
        builtIn = builder;
        rowsBy.clear();
        stream = InputTopology.source(builder, source.topic(), format, name);
        List<InputTopology.Route> routes = topicInputs.stream().map(DeclaredInput::route).toList();
        if (joined == null) {
            InputTopology.addTo(stream, source.topic(), routes, unroutedToDeadLetter, unrouted, wiring.sinks(),
                    wiring.flushBeforeCommit());
        } else {
            JoinTopology.addTo(builder, stream, joined.rowsBy(join.field()), join.on(), join.as(), routes.get(0),
                    wiring.sinks(), wiring.flushBeforeCommit());
        }
    }

    /** Its present rows by the text of {@code field}, for an input that joins it; made once per topology. */
    private KTable<String, Map<String, Object>> rowsBy(FieldPath field) {
        return rowsBy.computeIfAbsent(field.text(), text -> JoinTopology.rowsBy(stream, name, field));
    }

    /** A joining input's records fail in its writer after the join's internal topics: their dead letters come from there. */
    @Override
    public Map<String, String> internalDeadLetterTopics(String applicationId) {
        Map<String, String> topics = new java.util.LinkedHashMap<>();
        if (join != null) {
            JoinTopology.internalTopics(applicationId, name).forEach(topic -> topics.put(topic,
                    source.deadLetterTopic()));
        }
        return topics;
    }

    /** The registry's requests, if it reads through one, and each sparse index's records without a row in it. */
    @Override
    public void bindTo(MeterRegistry meters) {
        RecordFormat read = format instanceof DebeziumEnvelope envelope ? envelope.inner() : format;
        if (read instanceof RegistryFormat<?> registry) {
            registry.bindTo(meters, name);
        }
        deletes.bindTo(meters, name);
        if (where != null) {
            FunctionCounter.builder("rowflow.records.filtered", filtered, LongAdder::sum)
                    .description("Records of the input's topic its where did not take (not dead-lettered)")
                    .tag("input", name).register(meters);
        }
        if (topicInputs.get(0) == this && (where != null || topicInputs.size() > 1)) {
            FunctionCounter.builder("rowflow.records.unrouted", unrouted, LongAdder::sum)
                    .description("Records of the topic that no input's where took")
                    .tag("topic", source.topic()).register(meters);
        }
        for (String index : indexes().keySet()) {
            FunctionCounter.builder("rowflow.index.rows.skipped", mapping, m -> m.indexRowsSkipped(index))
                    .description("Records written without a row in this sparse index: a part of its key had no value")
                    .tag("input", name).tag("index", index).register(meters);
        }
    }

    @Override
    public void close() {
        format.close();
    }
}
