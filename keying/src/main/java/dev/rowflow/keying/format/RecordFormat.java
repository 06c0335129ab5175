package dev.rowflow.keying.format;

import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.SchemaKind;

import java.util.Optional;

/**
 * How the bytes of one input's records become a {@link ReadRecord}: the seam between the wire
 * formats and the format-free mappings. A mapping never sees bytes, so a new format (the Schema
 * Registry wire format, say) slots in here without touching any mapping.
 *
 * <p>Implementations are thread-safe.
 */
public interface RecordFormat {

    /** The name that selects this format in an input declaration, e.g. {@code json}. */
    String name();

    /**
     * Reads one record.
     *
     * @throws dev.rowflow.keying.InvalidEventException if the bytes are not a record of this format
     *                                                   (the record is set aside with the reason)
     * @throws RuntimeException                          for other unreadable bytes, likewise set aside
     */
    ReadRecord read(byte[] bytes);

    /**
     * Why no record of this format can have a value at {@code path} (an Avro schema without such
     * a field), or empty if one can: checked at start, so a mapping over a typo stops start-up
     * instead of setting every record aside.
     */
    Optional<String> cannotYield(FieldPath path);

    /**
     * What every record's value at {@code path} is, by the format's schema; empty where the
     * format has none (JSON), the schema allows several kinds, or a kind a declaration is not
     * checked against (a logical type, bytes): checked at start, so a declaration that can never
     * hold (a long key part over a string field) stops start-up.
     */
    default Optional<SchemaKind> kindAt(FieldPath path) {
        return Optional.empty();
    }

    /**
     * Whether a record of this format holds several records, each of them judged on its own (an
     * OpenTelemetry export request's log records: {@link ReadRecord#holding}). No by default.
     */
    default boolean holdsMany() {
        return false;
    }

    /** Lets go of what the format holds, e.g. ends a wait for a schema registry. Nothing by default. */
    default void close() {
    }
}
