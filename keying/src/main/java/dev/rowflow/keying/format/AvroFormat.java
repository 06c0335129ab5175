package dev.rowflow.keying.format;

import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.SchemaKind;
import dev.rowflow.keying.mapping.RecordTree;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.message.BadHeaderException;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.message.MissingSchemaException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code avro}: Avro's single-object encoding ({@code C3 01}, the 8-byte CRC-64-AVRO fingerprint
 * of the writer schema, the binary body), with the user's own schemas and no registry. The
 * writer schema is found by its fingerprint among the known ones; the record is resolved to the
 * reader schema, so records of every known version are read, added fields taking their defaults
 * (Avro's schema evolution). A record naming a schema that is not known is set aside.
 *
 * <p>Read as Avro's {@link BinaryMessageDecoder} reads it -- the same header checks, the same
 * exceptions -- but the body straight from the record's array: Avro's decoder reads it through an
 * {@code InputStream} one byte at a time (a {@code DirectBinaryDecoder} over a
 * {@code ByteArrayInputStream}, whose {@code read()} is synchronized), which made
 * {@code DirectBinaryDecoder.readLong} a stream thread's hottest frame. Thread-safe.
 */
public final class AvroFormat implements RecordFormat {
    public static final String NAME = "avro";

    /**
     * How rowflow reads Avro values, logical types included: {@code decimal} as an exact
     * {@link java.math.BigDecimal}, {@code uuid} and {@code date} as text ({@code 2026-11-23});
     * {@code timestamp-millis}, {@code timestamp-micros} and the {@code local-} and {@code time-}
     * types stay whole numbers in their unit (a time format of {@code epoch-ms} or {@code epoch-us}
     * reads them). See {@link RecordTree} for the tree they become.
     */
    public static final GenericData MODEL = model();

    private static GenericData model() {
        GenericData model = new GenericData();
        model.addLogicalTypeConversion(new Conversions.DecimalConversion());
        model.addLogicalTypeConversion(new Conversions.UUIDConversion());
        model.addLogicalTypeConversion(new TimeConversions.DateConversion());
        return model;
    }

    /** Magic bytes and the writer schema's fingerprint. */
    private static final int HEADER = 10;

    private final Schema reader;
    /** The CRC-64-AVRO fingerprint of the reader schema, and the reader of records written with it. */
    private final long readerFingerprint;
    private final DatumReader<GenericRecord> sameSchema;
    /** Readers of records of the earlier writer schemas, resolving each to the reader schema, by fingerprint. */
    private final Map<Long, DatumReader<GenericRecord>> earlier = new HashMap<>();
    private final ThreadLocal<BinaryDecoder> decoders = new ThreadLocal<>();
    private final BinaryMessageEncoder<GenericRecord> encoder;

    /**
     * @param reader  the schema records are resolved to (and the only one if {@code writers} is empty)
     * @param writers further schemas records may have been written with (earlier versions)
     */
    public AvroFormat(Schema reader, List<Schema> writers) {
        if (reader.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("Avro schema " + reader.getFullName() + " is a " + reader.getType()
                    + ", a record schema is expected");
        }
        this.reader = reader;
        this.readerFingerprint = SchemaNormalization.parsingFingerprint64(reader);
        this.sameSchema = MODEL.createDatumReader(reader, reader);
        for (Schema writer : writers) {
            earlier.put(SchemaNormalization.parsingFingerprint64(writer), MODEL.createDatumReader(writer, reader));
        }
        this.encoder = new BinaryMessageEncoder<>(MODEL, reader);
    }

    @Override
    public String name() {
        return NAME;
    }

    public Schema readerSchema() {
        return reader;
    }

    @Override
    public ReadRecord read(byte[] bytes) {
        GenericRecord record;
        try {
            record = datumReader(bytes).read(null, decoder(bytes));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ReadRecord(RecordTree.ofAvro(record), () -> SingleObject.encode(encoder, record));
    }

    /** The reader of the writer schema {@code bytes} name, after checking their header as Avro's decoder does. */
    private DatumReader<GenericRecord> datumReader(byte[] bytes) {
        if (bytes.length < HEADER) {
            throw new BadHeaderException("Not enough header bytes");
        }
        if (bytes[0] != (byte) 0xC3 || bytes[1] != 0x01) { // the single-object encoding's version 1
            throw new BadHeaderException(String.format("Unrecognized header bytes: 0x%02X 0x%02X", bytes[0], bytes[1]));
        }
        long fingerprint = 0;
        for (int i = HEADER - 1; i >= 2; i--) { // little-endian
            fingerprint = fingerprint << 8 | (bytes[i] & 0xFF);
        }
        if (fingerprint == readerFingerprint) {
            return sameSchema;
        }
        DatumReader<GenericRecord> datumReader = earlier.get(fingerprint);
        if (datumReader == null) {
            throw new MissingSchemaException("Cannot resolve schema for fingerprint: " + fingerprint);
        }
        return datumReader;
    }

    /** A decoder of the body of {@code bytes}, reading the array itself (this thread's, reused). */
    private BinaryDecoder decoder(byte[] bytes) {
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, HEADER, bytes.length - HEADER, decoders.get());
        decoders.set(decoder);
        return decoder;
    }

    @Override
    public Optional<String> cannotYield(FieldPath path) {
        return cannotYield(reader, path);
    }

    @Override
    public Optional<SchemaKind> kindAt(FieldPath path) {
        return kindAt(reader, path);
    }

    /**
     * What every value at {@code path} of a record of schema {@code reader} is, or empty where the
     * path is not in it, its optional field's union has several non-null branches, or it has a
     * logical type or another primitive type.
     */
    public static Optional<SchemaKind> kindAt(Schema reader, FieldPath path) {
        if (cannotYield(reader, path).isPresent()) {
            return Optional.empty();
        }
        Schema schema = reader;
        for (Object step : path.steps()) {
            schema = nonNull(schema);
            if (!(step instanceof String)) {
                schema = schema.getElementType();
            } else if (schema.getType() == Schema.Type.MAP) {
                schema = schema.getValueType();
            } else {
                schema = schema.getField((String) step).schema();
            }
        }
        schema = nonNull(schema);
        if (schema.getLogicalType() != null) {
            return Optional.empty();
        }
        return Optional.ofNullable(switch (schema.getType()) {
            case STRING, ENUM -> SchemaKind.TEXT;
            case INT, LONG -> SchemaKind.WHOLE_NUMBER;
            case BOOLEAN -> SchemaKind.BOOLEAN;
            case RECORD, MAP -> SchemaKind.OBJECT;
            case ARRAY -> SchemaKind.ARRAY;
            default -> null;
        });
    }

    /**
     * Why no record of schema {@code reader} has a value at {@code path}, or empty: walks the
     * schema, record fields by name, map values by any key, array elements by index.
     */
    public static Optional<String> cannotYield(Schema reader, FieldPath path) {
        Schema schema = reader;
        String at = "";
        for (Object step : path.steps()) {
            schema = nonNull(schema);
            if (!(step instanceof String)) { // an index or [*]
                if (schema.getType() != Schema.Type.ARRAY) {
                    return Optional.of(describe(reader, at) + " is no array, so " + path + " has no element there");
                }
                schema = schema.getElementType();
                at = at + (step instanceof Integer ? "[" + step + "]" : step);
                continue;
            }
            String name = (String) step;
            if (schema.getType() == Schema.Type.MAP) {
                schema = schema.getValueType();
            } else if (schema.getType() == Schema.Type.RECORD) {
                Schema.Field field = schema.getField(name);
                if (field == null) {
                    return Optional.of(describe(reader, at) + " has no field '" + name + "' (it has "
                            + schema.getFields().stream().map(Schema.Field::name).collect(Collectors.joining(", ")) + ")");
                }
                schema = field.schema();
            } else {
                return Optional.of(describe(reader, at) + " is a " + schema.getType().getName() + ", so " + path
                        + " has nothing under it");
            }
            at = at.isEmpty() ? name : at + "." + name;
        }
        return Optional.empty();
    }

    private static String describe(Schema reader, String at) {
        return at.isEmpty() ? "Avro record " + reader.getName() : reader.getName() + "." + at;
    }

    /** The one non-null branch of an optional field's union, else the schema itself. */
    private static Schema nonNull(Schema schema) {
        if (schema.getType() != Schema.Type.UNION) {
            return schema;
        }
        List<Schema> branches = schema.getTypes().stream().filter(s -> s.getType() != Schema.Type.NULL).toList();
        return branches.size() == 1 ? branches.get(0) : schema;
    }
}
