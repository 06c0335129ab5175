package dev.rowflow.keying.format;

import java.util.Map;
import java.util.function.Supplier;

/**
 * One record as read: its {@link dev.rowflow.keying.mapping.RecordTree} and the whole record as
 * its format keeps it (the original JSON bytes; Avro re-encoded in single-object encoding with
 * the reader schema), made only when asked for (rows as columns store it).
 *
 * @param tree   what the mapping's paths address: the record, or a change event's row image
 * @param change the change event the record is, or null for a record that is an event itself
 */
public record ReadRecord(Map<String, Object> tree, Supplier<byte[]> canonical, Change change) {

    /** A record that is an event itself. */
    public ReadRecord(Map<String, Object> tree, Supplier<byte[]> canonical) {
        this(tree, canonical, null);
    }
}
