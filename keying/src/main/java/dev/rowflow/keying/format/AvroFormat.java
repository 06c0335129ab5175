package dev.rowflow.keying.format;

import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.RecordTree;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code avro}: Avro's single-object encoding ({@code C3 01}, the 8-byte CRC-64-AVRO fingerprint
 * of the writer schema, the binary body), with the user's own schemas and no registry. The
 * writer schema is found by its fingerprint among the known ones; the record is resolved to the
 * reader schema, so records of every known version are read, added fields taking their defaults
 * (Avro's schema evolution). A record naming a schema that is not known is set aside.
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

    private final Schema reader;
    private final BinaryMessageDecoder<GenericRecord> decoder;
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
        this.decoder = new BinaryMessageDecoder<>(MODEL, reader);
        writers.forEach(decoder::addSchema);
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
            record = decoder.decode(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ReadRecord(RecordTree.ofAvro(record), () -> SingleObject.encode(encoder, record));
    }

    @Override
    public Optional<String> cannotYield(FieldPath path) {
        return cannotYield(reader, path);
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
