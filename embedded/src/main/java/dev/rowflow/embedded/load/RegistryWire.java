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
 * registry gave the writer schema, then the Avro binary body.
 */
public final class RegistryWire {
    private RegistryWire() {
    }

    /** {@code record} (written with its own schema, registered as {@code id}) in the wire format. */
    public static byte[] encode(int id, GenericRecord record) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        out.write(0);
        out.write(id >>> 24);
        out.write(id >>> 16);
        out.write(id >>> 8);
        out.write(id);
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
}
