package dev.rowflow.pipeline.registry;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.format.AvroFormat;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.RecordTree;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

import java.io.IOException;
import java.util.Optional;

/**
 * {@code avro-registry}: Avro in the Schema Registry wire format, as Confluent's and Apicurio's
 * serializers (in their Confluent-compatible mode) write it:
 * <pre>
 * byte 0      magic byte, 0
 * bytes 1-4   schema id, big-endian, as the registry assigned it
 * bytes 5-    the Avro binary body, written with that schema
 * </pre>
 * The writer schema of an id is fetched from the registry once and kept with its resolver (at
 * most {@code cacheCapacity} ids; past that the one fetched first is dropped and fetched again
 * when met). With a reader schema every record is resolved to it (fields added since take their
 * defaults, aliases rename); without one, each record is read as it was written.
 *
 * <p>Set aside with the reason (the record's fault): no magic byte, an id the registry does not
 * know (404), a body that does not match its writer schema or has bytes after it, an id of a
 * schema that is not Avro. Not the record's fault: an unavailable registry, which
 * {@link SchemaRegistryClient} waits out. The record is kept, where kept, as its bytes.
 */
public final class RegistryAvroFormat extends RegistryFormat<RegistryAvroFormat.Writer> {
    public static final String NAME = "avro-registry";

    private final Schema reader;
    private final ThreadLocal<BinaryDecoder> decoders = new ThreadLocal<>();

    /**
     * @param reader the schema records are resolved to, or null to read each as written
     */
    public RegistryAvroFormat(SchemaRegistryClient registry, Schema reader, int cacheCapacity) {
        super(NAME, registry, cacheCapacity);
        if (reader != null && reader.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("Avro schema " + reader.getFullName() + " is a " + reader.getType()
                    + ", a record schema is expected");
        }
        this.reader = reader;
    }

    @Override
    public ReadRecord read(byte[] bytes) {
        int id = schemaId(bytes);
        Writer writer = schema(id);
        GenericRecord record;
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, HEADER, bytes.length - HEADER,
                decoders.get());
        decoders.set(decoder);
        try {
            record = writer.reader.read(null, decoder);
            if (!decoder.isEnd()) {
                throw new InvalidEventException(Refusal.UNREADABLE,
                        "value", "(" + bytes.length + " bytes)", "has bytes after the Avro "
                        + "record of schema id " + id + " (" + writer.schema.getFullName() + ")");
            }
        } catch (IOException | AvroRuntimeException | IndexOutOfBoundsException | ClassCastException
                 | NegativeArraySizeException e) {
            throw new InvalidEventException(Refusal.UNREADABLE,
                    "value", "(" + bytes.length + " bytes)", "does not match its writer schema, "
                    + "id " + id + " (" + writer.schema.getFullName() + "): " + e);
        }
        return new ReadRecord(RecordTree.ofAvro(record), () -> bytes);
    }

    /** The schema a record this format has read was written with. */
    public Schema writerSchema(byte[] bytes) {
        return schema(schemaId(bytes)).schema;
    }

    @Override
    protected Writer build(int id) {
        Optional<Schema> fetched;
        try {
            fetched = registry.schemaById(id);
        } catch (IllegalArgumentException notAvro) {
            throw new InvalidEventException(Refusal.UNREADABLE, "value", "schema id " + id, notAvro.getMessage());
        }
        Schema schema = fetched.orElseThrow(() -> new InvalidEventException(Refusal.UNREADABLE,
                "value", "schema id " + id,
                "names a schema the registry does not know (404)"));
        if (schema.getType() != Schema.Type.RECORD) {
            throw new InvalidEventException(Refusal.UNREADABLE, "value", "schema id " + id, "is a " + schema.getType()
                    + " schema, a record schema is expected");
        }
        return new Writer(schema, new GenericDatumReader<>(schema, reader == null ? schema : reader, AvroFormat.MODEL));
    }

    @Override
    public Optional<String> cannotYield(FieldPath path) {
        return reader == null ? Optional.empty() : AvroFormat.cannotYield(reader, path);
    }

    /** By the reader schema, which every record is read through; none without one. */
    @Override
    public Optional<dev.rowflow.keying.mapping.SchemaKind> kindAt(FieldPath path) {
        return reader == null ? Optional.empty() : AvroFormat.kindAt(reader, path);
    }

    record Writer(Schema schema, GenericDatumReader<GenericRecord> reader) {
    }
}
