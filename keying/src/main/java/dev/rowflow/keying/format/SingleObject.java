package dev.rowflow.keying.format;

import org.apache.avro.message.BinaryMessageEncoder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * Avro's single-object encoding as a byte array: {@code C3 01}, the 8-byte CRC-64-AVRO
 * fingerprint of the writer schema, then the Avro binary body.
 */
public final class SingleObject {
    private SingleObject() {
    }

    /** The single-object encoding of {@code datum}, in an array of its own. */
    public static <T> byte[] encode(BinaryMessageEncoder<T> encoder, T datum) {
        try {
            // The encoder's buffer is reused by its next call: copy it out.
            ByteBuffer buffer = encoder.encode(datum);
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
