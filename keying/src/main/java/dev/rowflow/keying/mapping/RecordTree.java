package dev.rowflow.keying.mapping;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.rowflow.keying.InvalidEventException;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The one shape a record has once read, whatever its format: what {@link FieldPath}s resolve
 * against and what columns are made of.
 *
 * <table>
 *   <caption>Values in a record tree</caption>
 *   <tr><th>value</th><th>Java type</th><th>from JSON</th><th>from Avro</th></tr>
 *   <tr><td>object</td><td>{@code Map<String, Object>}, in document order</td><td>object</td><td>record, map</td></tr>
 *   <tr><td>array</td><td>{@code List<Object>}</td><td>array</td><td>array</td></tr>
 *   <tr><td>text</td><td>{@link String}</td><td>string</td><td>string, enum symbol, uuid, date (ISO-8601 {@code 2026-11-23})</td></tr>
 *   <tr><td>whole number</td><td>{@link Long}; {@link BigInteger} beyond 64 bits</td><td>number without fraction or exponent</td><td>int, long, timestamp-millis/-micros (in their unit), time-millis/-micros</td></tr>
 *   <tr><td>other number</td><td>{@link BigDecimal} (exact)</td><td>number with a fraction or exponent</td><td>decimal as {@link BigDecimal}; float, double as {@link Double}</td></tr>
 *   <tr><td>boolean</td><td>{@link Boolean}</td><td>true, false</td><td>boolean</td></tr>
 *   <tr><td>bytes</td><td>{@code byte[]}</td><td>-</td><td>bytes, fixed</td></tr>
 *   <tr><td>null</td><td>{@link #NULL}</td><td>null</td><td>(absent: an Avro null is left out)</td></tr>
 * </table>
 *
 * <p>JSON is read by {@link #parseJson} ({@link JsonRecordReader}), Avro by {@link #ofAvro}.
 */
public final class RecordTree {
    /** A JSON {@code null}: present, but no value. Writes no cell and never deletes one. */
    public static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    /** Deepest nesting of objects and arrays a JSON record may have. */
    public static final int MAX_DEPTH = 64;

    /** Writes compact JSON; reading is {@link JsonRecordReader}'s. */
    private static final JsonFactory JSON = new JsonFactory();

    private RecordTree() {
    }

    // ---------------------------------------------------------------- JSON

    /**
     * The record tree of one JSON object (see {@link JsonRecordReader}).
     *
     * @throws InvalidEventException (field {@code value}, or the path at fault) if the bytes are
     *                               not one JSON object rowflow reads
     */
    public static Map<String, Object> parseJson(byte[] bytes) {
        return JsonRecordReader.read(bytes);
    }

    // ---------------------------------------------------------------- Avro

    /** The record tree of an Avro record (see the class table). */
    public static Map<String, Object> ofAvro(IndexedRecord record) {
        Map<String, Object> tree = new LinkedHashMap<>();
        for (org.apache.avro.Schema.Field field : record.getSchema().getFields()) {
            Object value = ofAvroValue(record.get(field.pos()));
            if (value != null) {
                tree.put(field.name(), value);
            }
        }
        return tree;
    }

    private static Object ofAvroValue(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof CharSequence text) {
            return text.toString();
        }
        if (value instanceof Long || value instanceof Boolean || value instanceof Double) {
            return value;
        }
        if (value instanceof Integer i) {
            return i.longValue();
        }
        if (value instanceof Float f) {
            return f.doubleValue();
        }
        if (value instanceof IndexedRecord nested) {
            return ofAvro(nested);
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> tree = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                Object v = ofAvroValue(entry.getValue());
                if (v != null) {
                    tree.put(entry.getKey().toString(), v);
                }
            }
            return tree;
        }
        if (value instanceof Collection<?> array) {
            List<Object> list = new ArrayList<>(array.size());
            for (Object element : array) {
                Object v = ofAvroValue(element);
                list.add(v == null ? NULL : v);
            }
            return list;
        }
        if (value instanceof java.util.UUID || value instanceof java.time.LocalDate) {
            return value.toString(); // logical types uuid and date (see AvroFormat.MODEL)
        }
        if (value instanceof java.time.Instant instant) {
            return instant.toEpochMilli(); // timestamp-millis where a generated class converted it
        }
        if (value instanceof GenericEnumSymbol<?> symbol) {
            return symbol.toString();
        }
        if (value instanceof Enum<?> symbol) {
            return symbol.name();
        }
        if (value instanceof ByteBuffer buffer) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes);
            return bytes;
        }
        if (value instanceof GenericFixed fixed) {
            return fixed.bytes().clone();
        }
        return value;
    }

    // ---------------------------------------------------------------- values

    /** What a value is, for messages: "an object", "text", "a whole number"... */
    public static String kind(Object value) {
        if (value instanceof Map) {
            return "an object";
        }
        if (value instanceof List) {
            return "an array";
        }
        if (value instanceof String) {
            return "text";
        }
        if (value instanceof Boolean) {
            return "a boolean";
        }
        if (value instanceof byte[]) {
            return "bytes";
        }
        if (value instanceof Long || value instanceof BigInteger || value instanceof Integer) {
            return "a whole number";
        }
        if (value instanceof Number) {
            return "a number with a fraction";
        }
        return "a " + value.getClass().getSimpleName();
    }

    /** Whether {@code value} is neither an object nor an array. */
    public static boolean isScalar(Object value) {
        return !(value instanceof Map) && !(value instanceof List);
    }

    /**
     * The bytes of a value in a cell, the one encoding rowflow writes and its query side reads:
     * text as UTF-8; numbers and booleans as their text in UTF-8 ({@code 42}, {@code -0.5},
     * {@code true}; a JSON number with a fraction exactly as its digits, without exponent);
     * Avro bytes as they are; objects and arrays as compact JSON in UTF-8.
     */
    public static byte[] cellBytes(Object value) {
        if (value instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        if (value instanceof Map || value instanceof List) {
            return compactJson(value);
        }
        return scalarText(value).getBytes(StandardCharsets.UTF_8);
    }

    /** The text of a scalar as {@link #cellBytes} writes it. */
    public static String scalarText(Object value) {
        if (value instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        if (value instanceof byte[] bytes) {
            return java.util.Base64.getEncoder().encodeToString(bytes);
        }
        return String.valueOf(value);
    }

    /** An object or array as compact JSON (bytes as base64 strings). */
    public static byte[] compactJson(Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator json = JSON.createGenerator(out)) {
            write(json, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void write(JsonGenerator json, Object value) throws IOException {
        if (value instanceof Map<?, ?> object) {
            json.writeStartObject();
            for (Map.Entry<?, ?> entry : object.entrySet()) {
                json.writeFieldName(entry.getKey().toString());
                write(json, entry.getValue());
            }
            json.writeEndObject();
        } else if (value instanceof List<?> array) {
            json.writeStartArray();
            for (Object element : array) {
                write(json, element);
            }
            json.writeEndArray();
        } else if (value == NULL) {
            json.writeNull();
        } else if (value instanceof String text) {
            json.writeString(text);
        } else if (value instanceof Long l) {
            json.writeNumber(l);
        } else if (value instanceof BigInteger i) {
            json.writeNumber(i);
        } else if (value instanceof BigDecimal d) {
            json.writeNumber(d);
        } else if (value instanceof Double d) {
            json.writeNumber(d);
        } else if (value instanceof Boolean b) {
            json.writeBoolean(b);
        } else if (value instanceof byte[] bytes) {
            json.writeBinary(bytes);
        } else {
            json.writeString(String.valueOf(value));
        }
    }

    /**
     * Calls {@code leaf} with every leaf under {@code node} and its dotted path below it: objects
     * are descended into, arrays and scalars are leaves, {@link #NULL}s are skipped.
     */
    public static void forEachLeaf(Object node, String prefix, BiConsumer<String, Object> leaf) {
        if (node instanceof Map<?, ?> object) {
            for (Map.Entry<?, ?> entry : object.entrySet()) {
                String path = prefix.isEmpty() ? entry.getKey().toString() : prefix + "." + entry.getKey();
                forEachLeaf(entry.getValue(), path, leaf);
            }
        } else if (node != NULL && node != null) {
            leaf.accept(prefix, node);
        }
    }
}
