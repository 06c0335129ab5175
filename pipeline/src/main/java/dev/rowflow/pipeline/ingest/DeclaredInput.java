package dev.rowflow.pipeline.ingest;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.format.DebeziumEnvelope;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.pipeline.registry.RegistryFormat;
import dev.rowflow.pipeline.topology.Deletes;
import dev.rowflow.pipeline.topology.InputPlan;
import dev.rowflow.pipeline.topology.InputTopology;
import dev.rowflow.pipeline.topology.TopicPlan;
import dev.rowflow.pipeline.topology.JoinTopology;
import dev.rowflow.sinks.hbase.TableDefinition;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;

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
    /** How it judges a record: compiled once, shared by every stream thread and by check. */
    private final InputPlan plan;
    private final LongAdder filtered = new LongAdder();
    private final LongAdder unrouted = new LongAdder();
    /** The inputs of its topic, in declaration order, this one among them: the first adds the topology. */
    private List<DeclaredInput> topicInputs = List.of(this);
    /** What it joins ({@code join.*}), or null. */
    private final Join join;
    /** Records it sets aside before making rows (a preset's own rules). */
    private final List<InputPlan.Refusal> refusals;
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

    /** A declared input that may join another ({@link InputCompiler}). */
    DeclaredInput(String name, Source source, RecordFormat format, EventMapping mapping, List<IngestTable> tables,
                  Consumer<RowKeyLayout> keyCheck, Expression where, boolean unroutedToDeadLetter, Deletes deletes,
                  Join join) {
        this(name, source, format, mapping, mapping, tables, keyCheck, where, unroutedToDeadLetter, deletes, join,
                List.of());
    }

    /**
     * A preset's input: its records as events, none of which deletes, each set aside that one of
     * {@code refusals} holds for; joining another if {@code join} is not null (link it with
     * {@link #joinWith}).
     */
    DeclaredInput(String name, Source source, RecordFormat format, EventMapping mapping, List<IngestTable> tables,
                  Consumer<RowKeyLayout> keyCheck, Join join, List<InputPlan.Refusal> refusals) {
        this(name, source, format, mapping, mapping, tables, keyCheck, null, false, Deletes.none(), join, refusals);
    }

    private DeclaredInput(String name, Source source, RecordFormat format, EventMapping mapping,
                          EventMapping indexMapping, List<IngestTable> tables, Consumer<RowKeyLayout> keyCheck,
                          Expression where, boolean unroutedToDeadLetter, Deletes deletes, Join join,
                          List<InputPlan.Refusal> refusals) {
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
        this.plan = new InputPlan(source.topic(), name, where, mapping, deletes, this.refusals);
    }

    /** The name of the input it joins, if it joins one. */
    public Optional<String> joins() {
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

    /** How it judges each record of its topic: the pipeline's, check's and suggest's one decision. */
    public InputPlan plan() {
        return plan;
    }

    /** How the inputs of its topic judge each record of it, this one among them. */
    public TopicPlan topicPlan() {
        return new TopicPlan(source.topic(), topicInputs.stream().map(DeclaredInput::plan).toList(),
                topicInputs.get(0).unroutedToDeadLetter);
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
        if (joined == null) {
            List<InputTopology.Route> routes = topicInputs.stream()
                    .map(input -> new InputTopology.Route(input.plan(), input.filtered)).toList();
            InputTopology.addTo(stream, topicPlan(), routes, unrouted, wiring.sinks(), wiring.flushBeforeCommit());
        } else {
            JoinTopology.addTo(builder, stream, joined.rowsBy(join.field()), join.on(), join.as(), plan(),
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

    /** Binds only the counts of its deletes: an input of a {@code topic.pattern}'s topic shares the rest. */
    void bindDeletes(MeterRegistry meters) {
        deletes.bindTo(meters, name);
    }

    @Override
    public void close() {
        format.close();
    }
}
