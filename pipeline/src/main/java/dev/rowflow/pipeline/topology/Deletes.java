package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.expression.Expression;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * Which records of a declared input delete their row ({@code input.<name>.tombstones},
 * {@code delete.when}, change events), and how many did. A delete removes the data row whose key
 * the mapping makes of the record, and its index rows ({@link dev.rowflow.sinks.RowSink#delete});
 * nothing else deletes.
 *
 * @param tombstones what a record with a null value does
 * @param when       the records with a value that delete instead of writing, or null for none
 * @param changes    whether the records are change events, whose deletes delete and whose other
 *                   operations replace the row with its new image
 * @param fullBefore whether change events carry every column's old value, so that the before
 *                   image of an update or delete stands for the stored row, which is then not read
 */
public record Deletes(Tombstones tombstones, Expression when, boolean changes, boolean fullBefore, LongAdder deleted,
                      LongAdder absent, LongAdder ignored) {

    /** What a tombstone does. */
    public enum Tombstones {
        /** Set aside as an error: the topic's records are events, which no tombstone should follow. */
        DEAD_LETTER,
        /** Counted and dropped. */
        IGNORE,
        /** Deletes the row of the record key. */
        DELETE;

        /** @throws IllegalArgumentException for a value other than dead-letter, ignore or delete */
        public static Tombstones of(String value) {
            return valueOf(value.toUpperCase(Locale.ROOT).replace('-', '_'));
        }
    }

    /** Tombstones set aside, no record deletes. */
    public static Deletes none() {
        return of(Tombstones.DEAD_LETTER, null, false, false);
    }

    public static Deletes of(Tombstones tombstones, Expression when, boolean changes, boolean fullBefore) {
        return new Deletes(tombstones, when, changes, fullBefore, new LongAdder(), new LongAdder(), new LongAdder());
    }

    /** Whether any record may delete a row (or cells of one). */
    public boolean any() {
        return tombstones == Tombstones.DELETE || when != null || changes;
    }

    /**
     * {@code rowflow_deletes_total{input,outcome=deleted|absent}} when records may delete, and
     * {@code rowflow_tombstones_ignored_total{input}} when tombstones are ignored.
     */
    public void bindTo(MeterRegistry meters, String input) {
        if (any()) {
            String description = "Records that deleted their row with its index rows (outcome=deleted), or found "
                    + "no row to delete: already deleted, or never written (outcome=absent)";
            FunctionCounter.builder("rowflow.deletes", deleted, LongAdder::sum).description(description)
                    .tag("input", input).tag("outcome", "deleted").register(meters);
            FunctionCounter.builder("rowflow.deletes", absent, LongAdder::sum).description(description)
                    .tag("input", input).tag("outcome", "absent").register(meters);
        }
        if (tombstones == Tombstones.IGNORE) {
            FunctionCounter.builder("rowflow.tombstones.ignored", ignored, LongAdder::sum)
                    .description("Records with a null value the input ignored (tombstones=ignore)")
                    .tag("input", input).register(meters);
        }
    }
}
