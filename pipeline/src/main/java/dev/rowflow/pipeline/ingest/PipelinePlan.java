package dev.rowflow.pipeline.ingest;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.pipeline.config.InputConfig;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.sinks.hbase.TableDefinition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What one start of rowflow runs, built once from the configuration: the ingests in order (the
 * log pipeline, the declared inputs, the orders pipeline's customers and orders), their formats opened and mappings
 * compiled, each registry schema fetched once. It owns what it opened: {@link #close()} closes the
 * formats (a stream thread waiting for a schema registry stops waiting).
 *
 * <p>Building a plan is where a configuration that every key of accepts can still be refused as a
 * whole: a mapping that does not fit its format, two inputs on one topic, two tables of one name.
 * Each refusal is a {@link ConfigException} naming the key.
 */
public final class PipelinePlan implements AutoCloseable {
    private final RowflowConfig config;
    private final List<Ingest> ingests;

    private PipelinePlan(RowflowConfig config, List<Ingest> ingests) {
        this.config = config;
        this.ingests = List.copyOf(ingests);
    }

    /**
     * Opens every input's format and compiles every mapping.
     *
     * @param uids resolves uid key parts (a {@link UidBinding} bound once HBase is connected), or
     *             null where none is needed (parsing, printing)
     * @throws ConfigException naming the key of whatever is refused; what was opened is closed
     */
    public static PipelinePlan build(RowflowConfig config, UidResolver uids) {
        List<Ingest> ingests = new ArrayList<>();
        try {
            if (config.runs(RowflowConfig.LOGS_PIPELINE)) {
                ingests.add(LogIngest.of(config, uids));
            }
            for (InputConfig input : config.inputs()) {
                RecordFormat format = RecordFormats.open(input);
                try {
                    ingests.add(input.topicPattern().isPresent()
                            ? PatternInput.compile(input, format, uids, config.timestampPolicy())
                            : InputCompiler.compile(input, format, uids, config.timestampPolicy()));
                } catch (RuntimeException e) {
                    format.close();
                    throw e;
                }
            }
            if (config.runs(RowflowConfig.ORDERS_PIPELINE)) {
                ingests.addAll(OrderIngest.of(config, uids));
            }
            if (ingests.isEmpty()) {
                throw new ConfigException(RowflowConfig.PIPELINES_CONFIG, "", "nothing to ingest: it names no built-in "
                        + "pipeline (logs, orders) and " + RowflowConfig.INPUTS_CONFIG + " declares no input");
            }
            checkNames(config, ingests);
            PipelinePlan plan = new PipelinePlan(config, ingests);
            plan.shareTopics();
            plan.linkJoins();
            plan.checkJoinGuarantee();
            plan.checkDistinct();
            plan.subscribePatterns();
            return plan;
        } catch (RuntimeException e) {
            ingests.forEach(Ingest::close);
            throw e;
        }
    }

    /** Refuses a declared input named as a pipeline's input: their state stores and metrics would be one. */
    private static void checkNames(RowflowConfig config, List<Ingest> ingests) {
        List<String> names = new ArrayList<>();
        for (Ingest ingest : ingests) {
            if (names.contains(ingest.name())) {
                throw new ConfigException(InputConfig.PREFIX + ingest.name() + "." + InputConfig.TOPIC,
                        config.inputs().stream().filter(input -> input.name().equals(ingest.name())).findFirst()
                                .map(InputConfig::topic).orElse(null), "input " + ingest.name() + " is the name of "
                        + "an input of the pipelines " + config.pipelines()
                        + " run: name it otherwise");
            }
            names.add(ingest.name());
        }
    }

    /**
     * Lets declared inputs of one topic read it once, each taking the records its {@code where}
     * does; they must read it alike (format, schemas, dead-letter topic, unrouted, tombstones), as one read
     * serves them all.
     */
    private void shareTopics() {
        Map<String, List<DeclaredInput>> byTopic = new LinkedHashMap<>();
        Map<String, InputConfig> configs = new LinkedHashMap<>();
        for (InputConfig input : config.inputs()) {
            configs.put(input.name(), input);
            declaredInput(input.name()).ifPresent(declared -> byTopic.computeIfAbsent(input.topic(),
                    topic -> new ArrayList<>()).add(declared));
        }
        for (List<DeclaredInput> inputs : byTopic.values()) {
            if (inputs.size() < 2) {
                continue;
            }
            InputConfig first = configs.get(inputs.get(0).name());
            for (DeclaredInput other : inputs.subList(1, inputs.size())) {
                InputConfig input = configs.get(other.name());
                first.readSettings().forEach((key, value) -> {
                    Object own = input.readSettings().get(key);
                    if (!java.util.Objects.equals(value, own)) {
                        throw new ConfigException(input.key(key), own, "input " + input.name() + " reads topic "
                                + input.topic() + " with input " + first.name() + ", which reads it once for both: "
                                + "they must agree on " + key + " (" + first.key(key) + "=" + value + ")");
                    }
                });
            }
            inputs.forEach(input -> input.readsTopicWith(inputs));
        }
    }

    /**
     * Links each input that joins another ({@code join.input}) to it: the joined input must be
     * declared and, like the joining one, read its topic alone; joins must not go round in a
     * circle.
     */
    private void linkJoins() {
        // Each input that joins another, to the input it joins.
        Map<String, String> joins = new LinkedHashMap<>();
        for (InputConfig input : config.inputs()) {
            Optional<DeclaredInput> joining = declaredInput(input.name());
            if (joining.isEmpty() || joining.get().joins().isEmpty()) {
                continue;
            }
            String name = joining.get().joins().get();
            String key = input.key(InputConfig.JOIN_INPUT);
            InputConfig joinedConfig = config.inputs().stream().filter(other -> other.name().equals(name)).findFirst()
                    .orElseThrow(() -> new ConfigException(key, name, "is no declared input (inputs: "
                            + String.join(", ", config.inputs().stream().map(InputConfig::name).toList()) + ")"));
            if (name.equals(input.name())) {
                throw new ConfigException(key, name, "an input cannot join its own rows");
            }
            DeclaredInput joined = declaredInput(name).orElseThrow(() -> new ConfigException(key, name, "reads a "
                    + InputConfig.TOPIC_PATTERN + ": a join is declared between inputs of one table each"));
            for (DeclaredInput side : List.of(joining.get(), joined)) {
                if (!side.readsTopicAlone()) {
                    throw new ConfigException(key, name, "input " + side.name() + " shares its topic with other "
                            + "inputs; the inputs of a join each read their topic alone");
                }
            }
            joining.get().joinWith(joined);
            joins.put(input.name(), name);
        }
        for (String start : joins.keySet()) {
            List<String> path = new ArrayList<>(List.of(start));
            for (String next = joins.get(start); next != null; next = joins.get(next)) {
                path.add(next);
                if (next.equals(start)) {
                    throw new ConfigException(InputConfig.PREFIX + start + "." + InputConfig.JOIN_INPUT,
                            joins.get(start), "joins go round in a circle: " + String.join(" -> ", path));
                }
            }
        }
    }

    /**
     * Refuses a processing guarantee other than {@code exactly_once_v2} when an ingest joins
     * another -- a declared join or the orders pipeline's: see {@link #hasJoins}.
     */
    private void checkJoinGuarantee() {
        Object guarantee = config.kafkaProperties().get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG);
        Optional<DeclaredInput> joining = joining().findFirst();
        if (joining.isPresent() && guarantee != null && !StreamsConfig.EXACTLY_ONCE_V2.equals(guarantee)) {
            throw new ConfigException(RowflowConfig.KAFKA_PREFIX + StreamsConfig.PROCESSING_GUARANTEE_CONFIG,
                    guarantee, "input " + joining.get().name() + " joins input " + joining.get().joins().orElseThrow()
                    + ": a join's state must be restored to the last commit after a crash, as only "
                    + StreamsConfig.EXACTLY_ONCE_V2 + " does (with " + StreamsConfig.AT_LEAST_ONCE + " it comes back "
                    + "ahead of the rows written, and the changes replayed no longer reach them); leave the key out or "
                    + "set " + StreamsConfig.EXACTLY_ONCE_V2);
        }
    }

    /** The ingests that join another: declared joins, and the orders pipeline's orders joining its customers. */
    private java.util.stream.Stream<DeclaredInput> joining() {
        return ingests.stream().filter(ingest -> ingest instanceof DeclaredInput input && input.joins().isPresent())
                .map(DeclaredInput.class::cast);
    }

    /**
     * Whether an ingest joins another, the orders pipeline's join included. A join keeps state (its
     * tables and subscriptions) in Kafka Streams' stores, which only {@code exactly_once_v2}
     * restores to the last commit -- the point the sinks were flushed at -- after a crash (see
     * {@code StreamsProperties}); and only a join's state depends on the order in which records of
     * different partitions are processed: every other ingest turns each record into rows of its own.
     */
    public boolean hasJoins() {
        return joining().findAny().isPresent();
    }

    /**
     * Refuses a topic read by two ingests other than declared inputs sharing it, and two tables of
     * one name: each would undo the other.
     */
    private void checkDistinct() {
        Map<String, Ingest> topics = new LinkedHashMap<>();
        Map<String, String> keys = new LinkedHashMap<>();
        Map<String, String> tables = new LinkedHashMap<>();
        for (Ingest ingest : ingests) {
            for (Source source : ingest.sources()) {
                Ingest previous = topics.putIfAbsent(source.topic(), ingest);
                keys.putIfAbsent(source.topic(), source.topicKey());
                boolean shared = previous instanceof DeclaredInput first && ingest instanceof DeclaredInput next
                        && first.sharesTopicWith(next);
                if (previous != null && !shared) {
                    throw new ConfigException(source.topicKey(), source.topic(), "already read by "
                            + keys.get(source.topic()) + ": only declared inputs share a topic (each with its where)");
                }
            }
        }
        // In role order, as tables are created: the pipelines' roles sort first, so a declared input's table is
        // the one refused.
        List<IngestTable> all = ingests.stream().flatMap(ingest -> ingest.tables().stream())
                .sorted(java.util.Comparator.comparing(IngestTable::role)).toList();
        for (IngestTable table : all) {
            String name = table.definition().name().getNameAsString();
            String previous = tables.putIfAbsent(name, table.tableKey());
            if (previous != null) {
                throw new ConfigException(table.tableKey(), name, "already the table of " + previous
                        + ": every table has one key layout and one writer");
            }
        }
    }

    /**
     * Leaves out of each pattern input's topics those other inputs read, every dead-letter topic,
     * the topics of pattern inputs declared before it and Kafka Streams' own: a topic is read by
     * one source only (Kafka Streams refuses a topic two sources match when it appears).
     */
    private void subscribePatterns() {
        java.util.Set<String> taken = new java.util.TreeSet<>(deadLetterTopics().keySet());
        taken.addAll(deadLetterTopics().values());
        taken.addAll(deadLetterPatterns().values());
        java.util.Set<String> tables = new java.util.HashSet<>();
        tables().values().forEach(table -> tables.add(table.name().getNameAsString()));
        List<PatternInput> earlier = new ArrayList<>();
        for (Ingest ingest : ingests) {
            if (ingest instanceof PatternInput pattern) {
                pattern.subscribe(taken, earlier, config.getString(RowflowConfig.APPLICATION_ID_CONFIG), tables);
                earlier.add(pattern);
            }
        }
    }

    /** Dead-letter topic by the pattern of the topics of each pattern input, in ingest order. */
    public Map<java.util.regex.Pattern, String> deadLetterPatterns() {
        Map<java.util.regex.Pattern, String> topics = new LinkedHashMap<>();
        ingests.forEach(ingest -> {
            if (ingest instanceof PatternInput pattern) {
                topics.put(pattern.subscribed(), pattern.deadLetterTopic());
            }
        });
        return topics;
    }

    /** The configuration it was built from. */
    public RowflowConfig config() {
        return config;
    }

    /** The ingests, in the order their topologies are built. */
    public List<Ingest> ingests() {
        return ingests;
    }

    /** The ingest named {@code name} ({@code logs}, {@code orders}, a declared input's name). */
    public Optional<Ingest> ingest(String name) {
        return ingests.stream().filter(ingest -> ingest.name().equals(name)).findFirst();
    }

    /** The ingest named {@code name} if it is of {@code kind}. */
    public <T extends Ingest> Optional<T> ingest(String name, Class<T> kind) {
        return ingest(name).filter(kind::isInstance).map(kind::cast);
    }

    /** The declared input named {@code name}, the log pipeline included. */
    public Optional<DeclaredInput> declaredInput(String name) {
        return ingest(name, DeclaredInput.class);
    }

    /** The names of the declared inputs, the log pipeline included, in order. */
    public List<String> declaredInputNames() {
        return ingests.stream().filter(DeclaredInput.class::isInstance).map(Ingest::name).toList();
    }

    /** Every table of every ingest, in role order. */
    public Map<TableRole, TableDefinition> tables() {
        Map<TableRole, TableDefinition> tables = new TreeMap<>();
        ingests.forEach(ingest -> ingest.tables().forEach(table -> tables.put(table.role(), table.definition())));
        return tables;
    }

    /** The table of {@code role} with the keys behind it. */
    public IngestTable table(TableRole role) {
        return ingests.stream().flatMap(ingest -> ingest.tables().stream()).filter(table -> table.role().equals(role))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no table of role " + role));
    }

    /** Whether a key layout of any table has a uid part, so a UID store must be connected. */
    public boolean usesUids() {
        return tables().values().stream().flatMap(table -> table.layout().parts().stream())
                .anyMatch(part -> part.encoding().needsUids());
    }

    /** Dead-letter topic by source topic, in ingest order. */
    public Map<String, String> deadLetterTopics() {
        Map<String, String> topics = new LinkedHashMap<>();
        ingests.forEach(ingest -> ingest.sources().forEach(source -> topics.put(source.topic(), source.deadLetterTopic())));
        return topics;
    }

    /** Dead-letter topic by every topic a record can fail in, internal (repartition) topics included. */
    public Map<String, String> deadLetterTopicsWithInternal(String applicationId) {
        Map<String, String> topics = deadLetterTopics();
        ingests.forEach(ingest -> topics.putAll(ingest.internalDeadLetterTopics(applicationId)));
        return topics;
    }

    /**
     * The one topology rowflow runs: every ingest added in order. A pure function of the plan and
     * {@code wiring}: production runs it, and {@code TopologyTestDriver} tests drive it.
     */
    public Topology topology(Wiring wiring) {
        StreamsBuilder builder = new StreamsBuilder();
        ingests.forEach(ingest -> ingest.addTo(builder, wiring));
        return builder.build();
    }

    /** Closes every ingest's format: a stream thread waiting for a schema registry stops waiting. */
    @Override
    public void close() {
        ingests.forEach(Ingest::close);
    }
}
