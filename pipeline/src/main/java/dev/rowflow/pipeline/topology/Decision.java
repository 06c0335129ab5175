package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.format.Change;
import dev.rowflow.keying.mapping.EventMapping;

/**
 * What one declared input makes of one record, as {@link InputPlan#decide} judges it: the only
 * judgement of a record there is. The pipeline's writers carry it out, {@code mapping check}
 * counts it, {@code mapping suggest} verifies its declaration with it.
 */
public sealed interface Decision {

    /** The input's {@code where} does not take the record: the inputs after it may. */
    record NotTaken() implements Decision {
    }

    /** A tombstone the input ignores ({@code tombstones=ignore}). */
    record Ignored() implements Decision {
    }

    /**
     * Deletes the data row under {@code dataKey} and its index rows.
     *
     * @param change the change event that deletes, or null (a tombstone, {@code delete.when})
     */
    record Delete(byte[] dataKey, Change change) implements Decision {
    }

    /**
     * Writes the rows of {@code mapped} (the data row first, then its index rows) and counts its
     * counter. Of a change event ({@code change} not null) the data row becomes the image: cells
     * of columns it lacks and index rows it no longer has go.
     *
     * @param movedFrom the data key of an update's before image where a key part changed (the row
     *                  under it goes), else null
     */
    record Write(EventMapping.Mapped mapped, Change change, byte[] movedFrom) implements Decision {
    }

    /**
     * Set aside on the dead-letter topic; the inputs after it do not see the record.
     *
     * @param reason the field, the value and why, as the dead letter's headers carry them
     */
    record SetAside(InvalidEventException reason) implements Decision {
    }

    /** Whether the record goes on to the next input of its topic. */
    default boolean goesOn() {
        return !(this instanceof SetAside);
    }
}
