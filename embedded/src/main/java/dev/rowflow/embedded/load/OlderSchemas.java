package dev.rowflow.embedded.load;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * Records as a producer still on an older schema version writes them: the fields the older
 * version lacks dropped, single-object encoded with the older schema's fingerprint. For the demo
 * (a mix of producer versions, as in any real deployment) and the schema evolution tests.
 */
public final class OlderSchemas {
    private OlderSchemas() {
    }

    /** {@code record} in single-object encoding under {@code older}, e.g. {@code EventSchemas.historic("Order-v1.avsc")}. */
    public static byte[] encode(SpecificRecord record, Schema older) {
        try {
            ByteArrayOutputStream current = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(current, null);
            new SpecificDatumWriter<SpecificRecord>(record.getSchema()).write(record, encoder);
            encoder.flush();
            // Avro's own schema resolution turns the current record into the older shape.
            GenericRecord old = new GenericDatumReader<GenericRecord>(record.getSchema(), older)
                    .read(null, DecoderFactory.get().binaryDecoder(current.toByteArray(), null));
            ByteBuffer buffer = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), older).encode(old);
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
