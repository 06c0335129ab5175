package dev.rowflow.pipeline.ingest;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.format.Change;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.RecordSource;
import org.apache.kafka.common.header.Header;
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
    private final Map<String, InputCounts> counts = new LinkedHashMap<>();
    private final Map<String, Reason> deadLetters = new LinkedHashMap<>();
    /** Each input's mapping with counts of its own: a dry run's records are not the pipeline's. */
    private final Map<String, EventMapping> mappings = new java.util.HashMap<>();
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
     * Why records would be set aside: one reason (the field and what is wrong, without the value)
     * and how many records, with the first of them.
     */
    public record Reason(String reason, long records, String firstAt, String firstMessage) {
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

    /** The whole report: every record of the sample, once. */
    public record Report(String topic, long records, long unrouted, List<InputReport> inputs,
                         List<Reason> deadLetters) {
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
     */
    public MappingCheck(String topic, List<DeclaredInput> inputs) {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("no declared input reads topic " + topic);
        }
        this.topic = topic;
        this.inputs = List.copyOf(inputs);
        this.format = inputs.get(0).format();
        inputs.forEach(input -> counts.put(input.name(), new InputCounts()));
        inputs.forEach(input -> mappings.put(input.name(), input.mapping().uncounted()));
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

    /** Judges one record, as the pipeline would. */
    public void add(Sampled record) {
        records++;
        String at = record.partition() + "@" + record.offset();
        if (record.value() == null) {
            for (DeclaredInput input : inputs) {
                InputCounts c = counts.get(input.name());
                c.taken++;
                switch (input.tombstones()) {
                    case DELETE -> c.deletes++;
                    case IGNORE -> c.ignored++;
                    case DEAD_LETTER -> {
                        deadLetter(c, at, new InvalidEventException("value", null, "the " + topic + " topic carries "
                                + "no tombstones (null values): input " + input.name() + " takes its records as events"));
                        return;
                    }
                }
            }
            return;
        }
        ReadRecord read;
        try {
            read = format.read(record.value());
        } catch (RuntimeException e) {
            deadLetter(null, at, e instanceof InvalidEventException invalid ? invalid
                    : new InvalidEventException("value", record.value().length + " bytes", "is not a record in format "
                    + format.name() + " (" + e.getClass().getSimpleName() + ")"));
            return;
        }
        boolean taken = false;
        for (DeclaredInput input : inputs) {
            RecordSource source = source(record, read);
            if (input.where().isPresent() && !input.where().get().test(read.tree(), source)) {
                continue;
            }
            taken = true;
            InputCounts c = counts.get(input.name());
            c.taken++;
            try {
                if (!judge(input, record, read, source, c)) {
                    return; // set aside: the inputs after it do not see it, as in the pipeline
                }
            } catch (InvalidEventException e) {
                deadLetter(c, at, e);
                return;
            }
        }
        if (!taken) {
            unrouted++;
        }
    }

    /** Whether the record goes on to the next input (it made rows or a delete). */
    private boolean judge(DeclaredInput input, Sampled record, ReadRecord read, RecordSource source, InputCounts c) {
        Change change = read.change();
        EventMapping mapping = mappings.get(input.name());
        if (change != null && change.op() == Change.Op.DELETE
                || input.deletesWhen().map(when -> when.test(read.tree(), source)).orElse(false)) {
            mapping.dataKeyOf(read.tree(), source);
            c.deletes++;
            return true;
        }
        input.check(read.tree(), source);
        EventMapping.Mapped mapped = mapping.apply(read.tree(), source, read.canonical());
        List<dev.rowflow.keying.Row> rows = mapped.rows();
        c.rows += rows.size();
        rows.forEach(row -> keysMade.accept(row.table(), row.key()));
        mapped.counter().ifPresent(counter -> keysMade.accept(counter.table(), counter.row()));
        c.dataRows++;
        ByteBuffer key = ByteBuffer.wrap(rows.get(0).key());
        Sampled earlier = c.keys.putIfAbsent(key, record);
        if (earlier != null && change == null) {
            // A row image replaces its row on purpose; two different events under one key lose one.
            if (Arrays.equals(earlier.value(), record.value()) && Arrays.equals(earlier.key(), record.key())) {
                c.duplicates++;
            } else {
                c.collisions++;
                if (c.collisionAt == null) {
                    c.collisionAt = earlier.partition() + "@" + earlier.offset() + " and " + record.partition() + "@"
                            + record.offset();
                }
            }
        }
        return true;
    }

    private RecordSource source(Sampled record, ReadRecord read) {
        Headers headers = record.headers();
        RecordSource source = new RecordSource(topic, record.partition(), record.offset(), record.timestamp(),
                record.key(), name -> {
                    Header header = headers.lastHeader(name);
                    return header == null ? null : header.value();
                });
        Change change = read.change();
        if (change != null) {
            source.withChange(change.op().code(), change.before(), change.after(), change.source());
        }
        return source;
    }

    private void deadLetter(InputCounts c, String at, InvalidEventException e) {
        if (c != null) {
            c.deadLetters++;
        }
        String reason = "invalid " + e.field() + ": " + (e.reason() == null ? e.getMessage() : e.reason());
        Reason previous = deadLetters.get(reason);
        deadLetters.put(reason, previous == null ? new Reason(reason, 1, at, e.getMessage())
                : new Reason(reason, previous.records() + 1, previous.firstAt(), previous.firstMessage()));
    }

    /** What the records added so far would become. */
    public Report report() {
        List<InputReport> reports = new ArrayList<>();
        counts.forEach((name, c) -> reports.add(new InputReport(name, c.taken, c.rows, c.dataRows, c.deletes,
                c.ignored, c.deadLetters, c.collisions, c.duplicates, c.collisionAt)));
        return new Report(topic, records, unrouted, reports, List.copyOf(deadLetters.values()));
    }
}
