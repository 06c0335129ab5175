package dev.rowflow.embedded.load;

import dev.rowflow.keying.format.SingleObject;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.kafka.common.serialization.Serializer;

/** A Kafka serializer writing Avro's single-object encoding, as rowflow's producers of events do. */
final class SingleObjectBytes {
    private SingleObjectBytes() {
    }

    static <T> Serializer<T> serializer(BinaryMessageEncoder<T> encoder) {
        return (topic, value) -> value == null ? null : SingleObject.encode(encoder, value);
    }
}
