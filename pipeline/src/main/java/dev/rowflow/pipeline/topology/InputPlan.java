package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.format.Change;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.mapping.RecordSource;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One declared input, compiled at start: which records of its topic it takes, which delete, which
 * its preset refuses, and the mapping that makes the rows of the others. {@link #decide} is the
 * one place a record is judged: the pipeline's writers carry its {@link Decision} out,
 * {@code mapping check} counts it, {@code mapping suggest} verifies with it; no other code decides
 * what a record becomes.
 *
 * <p>Immutable and thread-safe (the mapping's and the deletes' counters are adders), shared by
 * every stream thread.
 *
 * @param topic    the topic it reads, named in a tombstone's refusal
 * @param where    the records it takes, or null for every record
 * @param deletes  which of its records delete their row
 * @param refusals records its preset sets aside although the mapping could make rows of them
 */
public record InputPlan(String topic, String input, Expression where, EventMapping mapping, Deletes deletes,
                        List<Refusal> refusals) {

    public InputPlan {
        refusals = List.copyOf(refusals);
    }

    /**
     * A record a preset sets aside although its mapping could make rows of it: when {@code when}
     * holds, as {@code invalid <field> '<value>': <reason>}.
     */
    public record Refusal(Expression when, String field, Expression value, String reason) {
    }

    /**
     * What this input makes of {@code read} -- null for a tombstone -- read from its topic at
     * {@code source}.
     *
     * @param store refuses a row the store would refuse ({@code RowSink#check}): its refusal sets
     *              the whole record aside before any of its rows is written
     */
    public Decision decide(ReadRecord read, RecordSource source, Consumer<Row> store) {
        try {
            return read == null ? tombstone(source) : decideRecord(read, source, store);
        } catch (InvalidEventException e) {
            return new Decision.SetAside(e);
        }
    }

    private Decision tombstone(RecordSource source) {
        return switch (deletes.tombstones()) {
            case DEAD_LETTER -> new Decision.SetAside(EventRules.tombstone(topic, "input " + input + " takes its "
                    + "records as events (tombstones=dead-letter; ignore and delete are the other choices)"));
            case IGNORE -> new Decision.Ignored();
            case DELETE -> new Decision.Delete(mapping.dataKeyOf(Map.of(), source), null);
        };
    }

    private Decision decideRecord(ReadRecord read, RecordSource source, Consumer<Row> store) {
        Map<String, Object> tree = read.tree();
        if (where != null && !where.test(tree, source)) {
            return new Decision.NotTaken();
        }
        Change change = read.change();
        if (change != null && change.op() == Change.Op.DELETE
                || deletes.when() != null && deletes.when().test(tree, source)) {
            return new Decision.Delete(mapping.dataKeyOf(tree, source), change);
        }
        for (Refusal refusal : refusals) {
            if (refusal.when().test(tree, source)) {
                throw new InvalidEventException(dev.rowflow.keying.Refusal.PRESET_RULE, refusal.field(),
                        refusal.value().evaluate(tree, source), refusal.reason());
            }
        }
        EventMapping.Mapped mapped = mapping.apply(tree, source, read.canonical());
        mapped.rows().forEach(store);
        return new Decision.Write(mapped, change, change == null ? null : keyBefore(change, source,
                mapped.rows().get(0).key()));
    }

    /**
     * The data key of an update's before image where it differs from {@code key}, or null: none,
     * or the mapping makes no key of it (the stored row is then replaced where it is).
     */
    private byte[] keyBefore(Change change, RecordSource source, byte[] key) {
        if (change.op() != Change.Op.UPDATE || change.before() == null) {
            return null;
        }
        try {
            byte[] before = mapping.dataKeyOf(change.before(), source);
            return java.util.Arrays.equals(before, key) ? null : before;
        } catch (InvalidEventException e) {
            return null;
        }
    }

    /** The same plan with a mapping whose counters are its own: a dry run's records are not the pipeline's. */
    public InputPlan uncounted() {
        return new InputPlan(topic, input, where, mapping.uncounted(), deletes, refusals);
    }
}
