package dev.rowflow.embedded.load;

import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.kafka.common.serialization.Serializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/** A Kafka serializer writing Avro's single-object encoding, as rowflow's producers of events do. */
final class SingleObjectBytes {
    private SingleObjectBytes() {
    }

    static <T> Serializer<T> serializer(BinaryMessageEncoder<T> encoder) {
        return (topic, value) -> {
            if (value == null) {
                return null;
            }
            try {
                ByteBuffer buffer = encoder.encode(value);
                byte[] bytes = new byte[buffer.remaining()];
                buffer.get(bytes);
                return bytes;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }
}
