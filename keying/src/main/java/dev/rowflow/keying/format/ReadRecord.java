package dev.rowflow.keying.format;

import java.util.Map;
import java.util.function.Supplier;

/**
 * One record as read: its {@link dev.rowflow.keying.mapping.RecordTree} and the whole record as
 * its format keeps it (the original JSON bytes; Avro re-encoded in single-object encoding with
 * the reader schema), made only when asked for (rows as columns store it).
 */
public record ReadRecord(Map<String, Object> tree, Supplier<byte[]> canonical) {
}
