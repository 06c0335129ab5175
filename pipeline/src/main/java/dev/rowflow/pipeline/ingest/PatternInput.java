package dev.rowflow.pipeline.ingest;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.format.DebeziumEnvelope;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.keying.mapping.RecordKeyFields;
import dev.rowflow.keying.mapping.TimestampPolicy;
import dev.rowflow.pipeline.config.InputConfig;
import dev.rowflow.pipeline.config.TopicPattern;
import dev.rowflow.pipeline.registry.RegistryFormat;
import dev.rowflow.pipeline.topology.InputTopology;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * An input of every topic a regex matches ({@link TopicPattern}): one declaration for a whole
 * database. Its topics are read as one stream, picked up as they appear; the first record of a
 * topic makes that topic's input ({@link TopicPattern#forTopic}), compiled as any declared input
 * is -- the key of its table from the record key's fields where the layout says
 * {@value RecordKeyFields#ALL} -- and its table ready ({@link Wiring.Tables}) before its rows are
 * written. What each topic's input decides of a record is what a declared input of that topic
 * would decide.
 *
 * <p>Topics other inputs read, every dead-letter topic and Kafka Streams' own topics are left out
 * of the subscription ({@link #subscribe}); so are the topics of the pattern inputs declared before it.
 */
public final class PatternInput implements Ingest {
    private static final Pattern NAMED_GROUP = Pattern.compile("\\(\\?<(?![=!])[a-zA-Z][a-zA-Z0-9]*>");
    private final InputConfig input;
    private final TopicPattern topics;
    private final RecordFormat format;
    private final UidResolver uids;
    private final TimestampPolicy timestamps;
    /** The declaration compiled over a topic of none's: what start-up refuses; its deletes and key checks. */
    private final DeclaredInput probe;
    private final Map<String, InputTopology.Routing> byTopic = new ConcurrentHashMap<>();
    private final LongAdder filtered = new LongAdder();
    private final LongAdder unrouted = new LongAdder();
    private Pattern subscribed;
    private Set<String> otherTables = Set.of();
    private volatile MeterRegistry meters;

    private PatternInput(InputConfig input, TopicPattern topics, RecordFormat format, UidResolver uids,
                         TimestampPolicy timestamps, DeclaredInput probe) {
        this.input = input;
        this.topics = topics;
        this.format = format;
        this.uids = uids;
        this.timestamps = timestamps;
        this.probe = probe;
        this.subscribed = topics.pattern();
    }

    /**
     * The input {@code input} declares over its {@code topic.pattern}, everything of its
     * declaration but the record key's parts compiled now.
     *
     * @throws ConfigException naming the input's key of whatever is refused
     */
    static PatternInput compile(InputConfig input, RecordFormat format, UidResolver uids, TimestampPolicy timestamps) {
        TopicPattern topics = input.topicPattern().orElseThrow();
        DeclaredInput probe = InputCompiler.compile(topics.probe(), format, uids, timestamps);
        return new PatternInput(input, topics, format, uids, timestamps, probe);
    }

    /**
     * Leaves out of its subscription the topics {@code taken} (read by other inputs, dead-letter
     * topics), those {@code earlier} pattern inputs match, and the topics of Kafka Streams'
     * application {@code applicationId}; {@code tables} are other inputs' tables, which no topic's
     * table may be.
     */
    void subscribe(Collection<String> taken, List<PatternInput> earlier, String applicationId, Set<String> tables) {
        StringBuilder regex = new StringBuilder("^(?!").append(Pattern.quote(applicationId + "-")).append(")");
        if (!taken.isEmpty()) {
            regex.append("(?!(?:").append(taken.stream().map(Pattern::quote).collect(Collectors.joining("|")))
                    .append(")$)");
        }
        for (PatternInput other : earlier) {
            regex.append("(?!(?:").append(other.topics.pattern().pattern()).append(")$)");
        }
        // Named groups as plain ones: Kafka Streams joins every source's regex into one, which names a group
        // once; the table templates read the declared regex, not this one.
        subscribed = Pattern.compile(NAMED_GROUP.matcher(regex.append("(?:").append(topics.pattern().pattern())
                .append(")$")).replaceAll("(?:"));
        otherTables = Set.copyOf(tables);
    }

    /** The topics it reads: the pattern less what {@link #subscribe} left out. */
    public Pattern subscribed() {
        return subscribed;
    }

    /** How its topics are declared. */
    public TopicPattern topics() {
        return topics;
    }

    /** Where its records that cannot become rows go. */
    public String deadLetterTopic() {
        return input.deadLetterTopic();
    }

    /**
     * The input compiled at start over a probe topic: every topic's input but for the key's parts,
     * so its columns and mapping are those of every table the pattern makes.
     */
    public DeclaredInput probe() {
        return probe;
    }

    @Override
    public String name() {
        return input.name();
    }

    /** None known at start: its topics are matched while it runs. */
    @Override
    public List<Source> sources() {
        return List.of();
    }

    /** None known at start: each topic's table is made at its first record. */
    @Override
    public List<IngestTable> tables() {
        return List.of();
    }

    @Override
    public void checkKeyLayout(RowKeyLayout layout) {
        probe.checkKeyLayout(layout);
    }

    @Override
    public boolean deletes() {
        return probe.deletes();
    }

    @Override
    public void addTo(StreamsBuilder builder, Wiring wiring) {
        InputTopology.addTo(InputTopology.source(builder, subscribed, format, name()),
                (topic, key) -> routing(topic, key, wiring.tables()), name(), wiring.sinks(),
                wiring.flushBeforeCommit());
    }

    /**
     * The input of {@code topic}, made at its first record (whose {@code key} gives the key parts)
     * and its tables made ready.
     *
     * @throws InvalidEventException NO_TABLE where the topic's table cannot take its rows; the
     *                               record key's refusal where the key makes no layout
     * @throws UncheckedIOException  if the store cannot be reached (the task processes it again)
     */
    InputTopology.Routing routing(String topic, byte[] key, Wiring.Tables tables) {
        InputTopology.Routing known = byTopic.get(topic);
        if (known != null) {
            return known;
        }
        synchronized (this) {
            known = byTopic.get(topic);
            if (known != null) {
                return known;
            }
            DeclaredInput declared = inputOf(topic, key);
            for (IngestTable table : declared.tables()) {
                String name = table.definition().name().getNameAsString();
                if (otherTables.contains(name)) {
                    throw new InvalidEventException(Refusal.NO_TABLE, "$topic", topic, "makes table " + name
                            + " (" + input.key(InputConfig.TABLE) + "), which another input writes");
                }
                try {
                    tables.ready(table, declared.deletes());
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot make table " + name + " of topic " + topic + " ready", e);
                } catch (IllegalStateException e) {
                    throw new InvalidEventException(Refusal.NO_TABLE, "$topic", topic, e.getMessage());
                }
            }
            if (meters != null) {
                declared.bindDeletes(meters);
            }
            InputTopology.Routing routing = new InputTopology.Routing(declared.topicPlan(),
                    List.of(new InputTopology.Route(declared.plan(), filtered)), unrouted);
            byTopic.put(topic, routing);
            return routing;
        }
    }

    /**
     * The input of {@code topic}, its key's parts from {@code key} if the layout takes the record
     * key's fields -- what the pipeline makes at the topic's first record, without its tables.
     *
     * @throws InvalidEventException where the key makes no layout, or the topic no input
     */
    public DeclaredInput inputOf(String topic, byte[] key) {
        String layout = input.getString(InputConfig.KEY);
        if (RecordKeyFields.in(layout)) {
            // TopicPattern refused $key.* on any input but one of change events.
            layout = RecordKeyFields.expand(layout, ((DebeziumEnvelope) format).readKey(key));
        }
        try {
            return InputCompiler.compile(topics.forTopic(topic, layout), format, uids, timestamps);
        } catch (ConfigException e) {
            throw new InvalidEventException(Refusal.NO_TABLE, "$topic", topic, "its input cannot be made: "
                    + e.getMessage());
        }
    }

    @Override
    public void bindTo(MeterRegistry meters) {
        RecordFormat read = format instanceof DebeziumEnvelope envelope ? envelope.inner() : format;
        if (read instanceof RegistryFormat<?> registry) {
            registry.bindTo(meters, name());
        }
        if (!input.where().isEmpty()) {
            FunctionCounter.builder("rowflow.records.filtered", filtered, LongAdder::sum)
                    .description("Records of the input's topic its where did not take (not dead-lettered)")
                    .tag("input", name()).register(meters);
            FunctionCounter.builder("rowflow.records.unrouted", unrouted, LongAdder::sum)
                    .description("Records of the topic that no input's where took")
                    .tag("topic", topics.pattern().pattern()).register(meters);
        }
        this.meters = meters;
    }

    @Override
    public void close() {
        format.close();
    }
}
