package dev.rowflow.pipeline.serde;

import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.pipeline.registry.RegistryUnavailableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Reads record values in a declared input's {@link RecordFormat}. Read-only: rowflow never
 * writes an input's records (a dead letter is the raw bytes, not re-serialized).
 *
 * <p>A value the format cannot read fails with a {@link SerializationException} carrying the
 * format's reason (an {@link dev.rowflow.keying.InvalidEventException} naming the path where the
 * format knows it); Kafka Streams' deserialization handler then sets the record aside on the
 * input's dead-letter topic. A null value (a tombstone) deserializes to null.
 */
public final class RecordSerde implements Serde<ReadRecord> {
    private final RecordFormat format;

    public RecordSerde(RecordFormat format) {
        this.format = format;
    }

    @Override
    public Serializer<ReadRecord> serializer() {
        return (topic, value) -> {
            throw new UnsupportedOperationException("rowflow only reads the records of its inputs");
        };
    }

    @Override
    public Deserializer<ReadRecord> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            try {
                return format.read(bytes);
            } catch (RegistryUnavailableException e) {
                throw e; // not the record's fault: never a dead letter (see DeadLetterDeserializationHandler)
            } catch (RuntimeException e) {
                throw new SerializationException(unreadable(topic, format, bytes, e), e);
            }
        };
    }

    /**
     * Why {@code bytes} of {@code topic} cannot be read in {@code format}: the dead letter's
     * message, and {@code mapping check}'s.
     */
    public static String unreadable(String topic, RecordFormat format, byte[] bytes, RuntimeException e) {
        return e instanceof dev.rowflow.keying.InvalidEventException ? e.getMessage()
                : "value of topic " + topic + " (" + bytes.length + " bytes) is not a record in format "
                + format.name() + ": " + e;
    }
}
