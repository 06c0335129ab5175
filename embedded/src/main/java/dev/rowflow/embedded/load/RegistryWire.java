package dev.rowflow.embedded.load;

import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Writes records as a Schema Registry serializer does: magic byte 0, the 4-byte big-endian id the
 * registry gave the writer schema, then the body (Avro's binary encoding; Protobuf's message
 * indexes and message; JSON).
 */
public final class RegistryWire {
    private RegistryWire() {
    }

    /** {@code record} (written with its own schema, registered as {@code id}) in the wire format. */
    public static byte[] encode(int id, GenericRecord record) {
        ByteArrayOutputStream out = header(id);
        try {
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
            // A generated class's own model knows its logical-type conversions (an Instant for timestamp-millis).
            GenericData model = record instanceof SpecificRecord ? SpecificData.getForClass(record.getClass())
                    : GenericData.get();
            new GenericDatumWriter<GenericRecord>(record.getSchema(), model).write(record, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The header of schema {@code id}, then the parts of a body already encoded, in order. */
    public static byte[] framed(int id, byte[]... body) {
        ByteArrayOutputStream out = header(id);
        for (byte[] part : body) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /**
     * A Protobuf message of the first message type of schema {@code id}'s file, as Confluent's
     * serializer writes it: the header, the message indexes of the first message (a single 0), the
     * message.
     */
    public static byte[] protobuf(int id, byte[] message) {
        return framed(id, new byte[] {0}, message);
    }

    private static ByteArrayOutputStream header(int id) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        out.write(0);
        out.write(id >>> 24);
        out.write(id >>> 16);
        out.write(id >>> 8);
        out.write(id);
        return out;
    }
}
