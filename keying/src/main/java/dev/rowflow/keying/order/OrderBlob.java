package dev.rowflow.keying.order;

import dev.rowflow.events.Order;
import dev.rowflow.keying.EventSchemas;
import org.apache.avro.message.BinaryMessageDecoder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * The order object BLOB (seed 002, 1.11.3.2.4): the whole Order -> ShippingLocation -> LineItem
 * graph in one cell as Avro single-object encoding, {@code C3 01}, the 8-byte CRC-64-AVRO
 * fingerprint of the writer schema, the Avro binary body. The fingerprint is what keeps old blobs
 * readable after the schema changes (the seed's warning): {@link #decode} resolves a blob written
 * with any released version of Order to the current one.
 */
public final class OrderBlob {
    private static final BinaryMessageDecoder<Order> DECODER = EventSchemas.orders();

    private OrderBlob() {
    }

    public static byte[] encode(Order order) {
        try {
            ByteBuffer buffer = Order.getEncoder().encode(order);
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @throws IllegalArgumentException if {@code blob} is not an order of a known schema version
     */
    public static Order decode(byte[] blob) {
        try {
            return DECODER.decode(blob);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not an order blob of a known schema version (" + blob.length
                    + " bytes): " + e.getMessage(), e);
        }
    }
}
