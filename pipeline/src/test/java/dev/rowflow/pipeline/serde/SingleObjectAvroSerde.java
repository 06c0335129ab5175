package dev.rowflow.pipeline.serde;

import dev.rowflow.keying.format.SingleObject;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.io.IOException;

/**
 * Kafka serde for Avro's single-object encoding: {@code C3 01}, the 8-byte CRC-64-AVRO
 * fingerprint of the writer schema, then the Avro binary body. The reader resolves the body from
 * the writer schema the fingerprint names, so records written with an older schema version it
 * knows (see {@link BinaryMessageDecoder#addSchema}) are still read. No schema registry is needed.
 *
 * <p>A value that is not such an encoding, or names a schema the decoder does not know, fails
 * with a {@link SerializationException} whose message says which; Kafka Streams' deserialization
 * handler then sets the record aside on the dead-letter topic. A null value (a tombstone)
 * deserializes to null.
 */
public final class SingleObjectAvroSerde<T extends SpecificRecord> implements Serde<T> {
    private final BinaryMessageEncoder<T> encoder;
    private final BinaryMessageDecoder<T> decoder;

    public SingleObjectAvroSerde(BinaryMessageEncoder<T> encoder, BinaryMessageDecoder<T> decoder) {
        this.encoder = encoder;
        this.decoder = decoder;
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, value) -> value == null ? null : SingleObject.encode(encoder, value);
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            try {
                return decoder.decode(bytes);
            } catch (IOException | RuntimeException e) {
                throw new SerializationException("value of topic " + topic + " (" + bytes.length
                        + " bytes) is not a single-object Avro record of a known schema: " + e, e);
            }
        };
    }
}
