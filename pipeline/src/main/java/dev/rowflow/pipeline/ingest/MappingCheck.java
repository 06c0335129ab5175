package dev.rowflow.pipeline.ingest;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.RecordSource;
import dev.rowflow.pipeline.topology.Decision;
import dev.rowflow.pipeline.serde.RecordSerde;
import dev.rowflow.pipeline.topology.RecordSources;
import dev.rowflow.pipeline.topology.TopicPlan;
import dev.rowflow.sinks.hbase.RowLimits;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A dry run of the declared inputs of one topic over records sampled from it
 * ({@code rowflow mapping check}): what each record would become -- rows, a delete, a dead letter
 * and why, nothing (no input's {@code where} takes it) -- and which different records would make
 * the same data row key, so that one would overwrite the other. Nothing is written and nothing is
 * committed; records are judged as the pipeline judges them (the input's format, its
 * {@code where}, its preset's refusals, its mapping), a joining input without the joined row's
 * fields.
 *
 * <p>Not thread-safe: one check, then its {@link #report()}.
 */
public final class MappingCheck {
    private final String topic;
    private final List<DeclaredInput> inputs;
    private final RecordFormat format;
    /** The pipeline's decision, its mappings with counts of their own: a dry run's records are not the pipeline's. */
    private final TopicPlan plan;
    private final RowLimits limits;
    private final Map<String, InputCounts> counts = new LinkedHashMap<>();
    private final Map<String, Reason> deadLetters = new LinkedHashMap<>();
    /** Key parts' paths no record judged so far has, with where each is declared. */
    private final Map<FieldPath, String> unseen = new LinkedHashMap<>();
    private long records;
    private long unrouted;
    private java.util.function.BiConsumer<TableRole, byte[]> keysMade = (table, key) -> { };

    /** A record as read from the topic. */
    public record Sampled(int partition, long offset, long timestamp, byte[] key, byte[] value, Headers headers) {
        public Sampled(int partition, long offset, long timestamp, byte[] key, byte[] value) {
            this(partition, offset, timestamp, key, value, new RecordHeaders());
        }
    }

    /**
     * Why records would be set aside: one reason (the field and what is wrong, without the value),
     * its kind, and how many records, with the first of them.
     */
    public record Reason(Refusal refusal, String reason, long records, String firstAt, String firstMessage) {
    }

    /**
     * What one input would make of the records it takes.
     *
     * @param collisions  records whose data row key an earlier, different record of the sample
     *                    makes too: one of the two rows would be lost
     * @param duplicates  records equal to an earlier one (key and value): sent again, they write the
     *                    same row again
     * @param ignored     tombstones it ignores ({@code tombstones=ignore}, the tombstone after a
     *                    change event's delete)
     * @param collisionAt where the first collision is, both records, or null
     */
    public record InputReport(String input, long taken, long rows, long dataRows, long deletes, long ignored,
                              long deadLetters, long collisions, long duplicates, String collisionAt) {
    }

    /**
     * The whole report: every record of the sample, once.
     *
     * @param warnings the paths of key parts (data, index and summary keys) no sampled record has:
     *                 a typo, or a shape the sample lacks -- an index over such a path stays empty
     */
    public record Report(String topic, long records, long unrouted, List<InputReport> inputs,
                         List<Reason> deadLetters, List<String> warnings) {
        /** Records that would become rows or deletes: neither set aside nor taken by no input. */
        public long good() {
            return records - unrouted - deadLetters.stream().mapToLong(Reason::records).sum();
        }

        /** Records one input or another would lose to a key collision. */
        public long collisions() {
            return inputs.stream().mapToLong(InputReport::collisions).sum();
        }
    }

    private static final class InputCounts {
        long taken;
        long rows;
        long dataRows;
        long deletes;
        long deadLetters;
        long collisions;
        long duplicates;
        long ignored;
        String collisionAt;
        final Map<ByteBuffer, Sampled> keys = new HashMap<>();
    }

    /**
     * @param inputs the declared inputs reading {@code topic}, in declaration order (they read it
     *               alike: one format)
     * @param limits what the store refuses of a row, as the pipeline's sink is configured
     */
    public MappingCheck(String topic, List<DeclaredInput> inputs, RowLimits limits) {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("no declared input reads topic " + topic);
        }
        this.topic = topic;
        this.inputs = List.copyOf(inputs);
        this.format = inputs.get(0).format();
        this.limits = limits;
        this.plan = new TopicPlan(topic, inputs.stream().map(input -> input.plan().uncounted()).toList(),
                inputs.get(0).topicPlan().unroutedToDeadLetter());
        inputs.forEach(input -> counts.put(input.name(), new InputCounts()));
        for (DeclaredInput input : inputs) {
            input.mapping().tableLayouts().forEach((table, layout) -> layout.parts().forEach(part -> {
                if (!part.field().startsWith("$")) {
                    Expression.parse(part.field()).paths().forEach(path -> unseen.putIfAbsent(path, "input "
                            + input.name() + ", key of " + table + ", part '" + part.spec() + "'"));
                }
            }));
        }
    }

    /**
     * Gives the key of every row and counter a judged record would write, with its table, to
     * {@code keys} as well (to draw a table's split points from them); returns this check.
     */
    public MappingCheck keysTo(java.util.function.BiConsumer<TableRole, byte[]> keys) {
        this.keysMade = keys;
        return this;
    }

    /** The declared inputs of {@code plan} that read {@code topic}, in declaration order. */
    public static List<DeclaredInput> inputsOf(PipelinePlan plan, String topic) {
        return plan.ingests().stream().filter(DeclaredInput.class::isInstance).map(DeclaredInput.class::cast)
                .filter(input -> input.topic().equals(topic)).toList();
    }

    /**
     * The declared inputs of {@code plan} that read {@code topic}; where none does, the input the
     * {@code topic.pattern} that reads it makes of it at its first record, whose key is
     * {@code firstKey} (see {@link PatternInput#inputOf}); none if no input reads it.
     *
     * @throws InvalidEventException where the pattern's input makes no input of the topic with that key
     */
    public static List<DeclaredInput> inputsOf(PipelinePlan plan, String topic, byte[] firstKey) {
        List<DeclaredInput> inputs = inputsOf(plan, topic);
        if (!inputs.isEmpty()) {
            return inputs;
        }
        return plan.ingests().stream().filter(PatternInput.class::isInstance).map(PatternInput.class::cast)
                .filter(input -> input.subscribed().matcher(topic).matches()).findFirst()
                .map(input -> List.of(input.inputOf(topic, firstKey))).orElse(List.of());
    }

    /**
     * What check made of one record: the inputs' judgement, or null where the record cannot be
     * read, and the dead letter's message where it is set aside.
     */
    public record Verdict(TopicPlan.Judgement judgement, String deadLetter, Refusal refusal) {
    }

    /**
     * Judges one record by the pipeline's own decision ({@link TopicPlan#judge}), and counts it:
     * one verdict, or one per record it holds (see {@link ReadRecord#holding}), in order.
     */
    public List<Verdict> add(Sampled record) {
        records++;
        String at = record.partition() + "@" + record.offset();
        ReadRecord read = null;
        if (record.value() != null) {
            try {
                read = format.read(record.value());
            } catch (RuntimeException e) {
                String message = RecordSerde.unreadable(topic, format, record.value(), e);
                Refusal refusal = e instanceof InvalidEventException invalid ? invalid.refusal() : Refusal.UNREADABLE;
                deadLetter(null, at, refusal, e instanceof InvalidEventException invalid ? reason(invalid)
                        : "unreadable: not a record in format " + format.name(), message);
                return List.of(new Verdict(null, message, e instanceof InvalidEventException ? refusal : null));
            }
        }
        if (read == null || read.held() == null) {
            return List.of(judge(record, read, at));
        }
        List<Verdict> verdicts = new java.util.ArrayList<>(read.held().size());
        for (ReadRecord one : read.held()) {
            verdicts.add(judge(record, one, at));
        }
        return verdicts;
    }

    private Verdict judge(Sampled record, ReadRecord read, String at) {
        if (read != null && !unseen.isEmpty()) {
            Map<String, Object> tree = read.tree();
            unseen.keySet().removeIf(path -> {
                Object value = path.resolve(tree);
                return value != null && value != dev.rowflow.keying.mapping.RecordTree.NULL;
            });
        }
        TopicPlan.Judgement judgement = plan.judge(read, source(record, read), limits::check);
        List<Decision> decisions = judgement.decisions();
        for (int i = 0; i < decisions.size(); i++) {
            if (!(decisions.get(i) instanceof Decision.NotTaken)) {
                counts.get(inputs.get(i).name()).taken++;
            }
        }
        if (judgement.setAside() != null) {
            int by = -1;
            for (int i = 0; i < decisions.size() && by < 0; i++) {
                by = decisions.get(i) instanceof Decision.SetAside ? i : -1;
            }
            deadLetter(by < 0 ? null : counts.get(inputs.get(by).name()),
                    at, judgement.setAside().refusal(), reason(judgement.setAside()), judgement.setAside().getMessage());
            return new Verdict(judgement, judgement.setAside().getMessage(), judgement.setAside().refusal());
        }
        if (read != null && judgement.unrouted()) {
            unrouted++;
        }
        for (int i = 0; i < decisions.size(); i++) {
            count(counts.get(inputs.get(i).name()), decisions.get(i), record);
        }
        return new Verdict(judgement, null, null);
    }

    private void count(InputCounts c, Decision decision, Sampled record) {
        if (decision instanceof Decision.Ignored) {
            c.ignored++;
        } else if (decision instanceof Decision.Delete) {
            c.deletes++;
        } else if (decision instanceof Decision.Write write) {
            List<dev.rowflow.keying.Row> rows = write.mapped().rows();
            c.rows += rows.size();
            rows.forEach(row -> keysMade.accept(row.table(), row.key()));
            write.mapped().counter().ifPresent(counter -> keysMade.accept(counter.table(), counter.row()));
            c.dataRows++;
            Sampled earlier = c.keys.putIfAbsent(ByteBuffer.wrap(rows.get(0).key()), record);
            if (earlier != null && write.change() == null) {
                // A row image replaces its row on purpose; two different events under one key lose one.
                if (Arrays.equals(earlier.value(), record.value()) && Arrays.equals(earlier.key(), record.key())) {
                    c.duplicates++;
                } else {
                    c.collisions++;
                    if (c.collisionAt == null) {
                        c.collisionAt = earlier.partition() + "@" + earlier.offset() + " and " + record.partition()
                                + "@" + record.offset();
                    }
                }
            }
        }
    }

    private RecordSource source(Sampled record, ReadRecord read) {
        return RecordSources.of(topic, record.partition(), record.offset(), record.timestamp(), record.key(),
                record.headers(), read);
    }

    private void deadLetter(InputCounts c, String at, Refusal refusal, String reason, String message) {
        if (c != null) {
            c.deadLetters++;
        }
        Reason previous = deadLetters.get(reason);
        deadLetters.put(reason, previous == null ? new Reason(refusal, reason, 1, at, message)
                : new Reason(refusal, reason, previous.records() + 1, previous.firstAt(), previous.firstMessage()));
    }

    /** A refusal without its value: the same for every record refused alike. */
    private static String reason(InvalidEventException e) {
        return "invalid " + e.field() + ": " + (e.reason() == null ? e.getMessage() : e.reason());
    }

    /** What the records added so far would become. */
    public Report report() {
        List<InputReport> reports = new ArrayList<>();
        counts.forEach((name, c) -> reports.add(new InputReport(name, c.taken, c.rows, c.dataRows, c.deletes,
                c.ignored, c.deadLetters, c.collisions, c.duplicates, c.collisionAt)));
        List<String> warnings = new ArrayList<>();
        unseen.forEach((path, where) -> warnings.add(where + ": no sampled record has " + path.text()));
        return new Report(topic, records, unrouted, reports, List.copyOf(deadLetters.values()), warnings);
    }
}
