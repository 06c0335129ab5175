package dev.rowflow.pipeline.registry;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.format.AvroFormat;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.RecordTree;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

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
public final class RegistryAvroFormat implements RecordFormat {
    public static final String NAME = "avro-registry";
    private static final byte MAGIC = 0;
    private static final int HEADER = 5;

    private final SchemaRegistryClient registry;
    private final Schema reader;
    private final int cacheCapacity;
    private final ConcurrentHashMap<Integer, Writer> writers = new ConcurrentHashMap<>();
    private final ArrayDeque<Integer> fetchOrder = new ArrayDeque<>();
    private final ThreadLocal<BinaryDecoder> decoders = new ThreadLocal<>();

    /**
     * @param reader the schema records are resolved to, or null to read each as written
     */
    public RegistryAvroFormat(SchemaRegistryClient registry, Schema reader, int cacheCapacity) {
        if (reader != null && reader.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("Avro schema " + reader.getFullName() + " is a " + reader.getType()
                    + ", a record schema is expected");
        }
        if (cacheCapacity < 1) {
            throw new IllegalArgumentException("cache capacity " + cacheCapacity + ": at least 1 schema id");
        }
        this.registry = registry;
        this.reader = reader;
        this.cacheCapacity = cacheCapacity;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ReadRecord read(byte[] bytes) {
        if (bytes.length < HEADER || bytes[0] != MAGIC) {
            throw new InvalidEventException("value", hex(bytes), "is not in the Schema Registry wire format: it "
                    + (bytes.length < HEADER ? "has " + bytes.length + " bytes, fewer than the 5 of its header"
                    : "starts with 0x" + String.format("%02X", bytes[0] & 0xFF) + " where the magic byte 0 is expected"));
        }
        int id = id(bytes);
        Writer writer = writer(id);
        GenericRecord record;
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, HEADER, bytes.length - HEADER,
                decoders.get());
        decoders.set(decoder);
        try {
            record = writer.reader.read(null, decoder);
            if (!decoder.isEnd()) {
                throw new InvalidEventException("value", "(" + bytes.length + " bytes)", "has bytes after the Avro "
                        + "record of schema id " + id + " (" + writer.schema.getFullName() + ")");
            }
        } catch (IOException | AvroRuntimeException | IndexOutOfBoundsException | ClassCastException
                 | NegativeArraySizeException e) {
            throw new InvalidEventException("value", "(" + bytes.length + " bytes)", "does not match its writer schema, "
                    + "id " + id + " (" + writer.schema.getFullName() + "): " + e);
        }
        return new ReadRecord(RecordTree.ofAvro(record), () -> bytes);
    }

    /** The schema a record this format has read was written with. */
    public Schema writerSchema(byte[] bytes) {
        return writer(id(bytes)).schema;
    }

    private static int id(byte[] bytes) {
        return ((bytes[1] & 0xFF) << 24) | ((bytes[2] & 0xFF) << 16) | ((bytes[3] & 0xFF) << 8) | (bytes[4] & 0xFF);
    }

    private Writer writer(int id) {
        Writer writer = writers.get(id);
        if (writer != null) {
            return writer;
        }
        Optional<Schema> fetched;
        try {
            fetched = registry.schemaById(id);
        } catch (IllegalArgumentException notAvro) {
            throw new InvalidEventException("value", "schema id " + id, notAvro.getMessage());
        }
        Schema schema = fetched.orElseThrow(() -> new InvalidEventException("value", "schema id " + id,
                "names a schema the registry does not know (404)"));
        if (schema.getType() != Schema.Type.RECORD) {
            throw new InvalidEventException("value", "schema id " + id, "is a " + schema.getType()
                    + " schema, a record schema is expected");
        }
        writer = new Writer(schema, new GenericDatumReader<>(schema, reader == null ? schema : reader, AvroFormat.MODEL));
        synchronized (fetchOrder) {
            if (writers.putIfAbsent(id, writer) == null) {
                fetchOrder.addLast(id);
                while (fetchOrder.size() > cacheCapacity) {
                    writers.remove(fetchOrder.removeFirst());
                }
            }
        }
        return writer;
    }

    @Override
    public Optional<String> cannotYield(FieldPath path) {
        return reader == null ? Optional.empty() : AvroFormat.cannotYield(reader, path);
    }

    @Override
    public void close() {
        registry.close();
    }

    /**
     * Registers the meters of input {@code input}'s registry client and
     * {@code rowflow_registry_cached_schemas{input}}, the writer schemas held now.
     */
    public void bindTo(io.micrometer.core.instrument.MeterRegistry meters, String input) {
        registry.bindTo(meters, input);
        io.micrometer.core.instrument.Gauge.builder("rowflow.registry.cached.schemas", writers, java.util.Map::size)
                .tag("input", input).description("Writer schemas held, by id (at most registry.cache.ids)")
                .register(meters);
    }

    private static String hex(byte[] bytes) {
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < Math.min(bytes.length, 16); i++) {
            hex.append(String.format("%02X", bytes[i] & 0xFF));
        }
        return hex + (bytes.length > 16 ? "... (" + bytes.length + " bytes)" : "");
    }

    private record Writer(Schema schema, GenericDatumReader<GenericRecord> reader) {
    }
}
