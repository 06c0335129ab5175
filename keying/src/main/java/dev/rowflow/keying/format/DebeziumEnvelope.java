package dev.rowflow.keying.format;

import dev.rowflow.keying.Cell;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.logical.LogicalType;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.SchemaKind;
import dev.rowflow.keying.mapping.RecordTree;
import org.apache.avro.Schema;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * {@code envelope=debezium}: each record is a Debezium change event read in an inner format
 * ({@code json} or {@code avro-registry}), and the mapping's paths address the row image after
 * the change (before it, for a delete). The event's {@link Change} goes with the record.
 *
 * <p>Both shapes of Kafka Connect's {@code JsonConverter} are read, told apart per record: with
 * {@code schemas.enable=true} the event is {@code {"schema": ..., "payload": {...}}} and the
 * schema says which fields carry Connect and Debezium logical types; with {@code false} the event
 * is the payload alone. With a schema, logical types become exact values:
 * <ul>
 *   <li>{@code Decimal} (base64 big-endian two's-complement unscaled bytes, the scale a schema
 *       parameter) and {@code VariableScaleDecimal} ({@code {scale, value}}): the decimal number;</li>
 *   <li>{@code Timestamp}, {@code MicroTimestamp}, {@code NanoTimestamp} (ms, µs, ns since the
 *       epoch, of a column without a time zone taken as UTC): ISO-8601 text to the unit,
 *       {@code 2026-11-22T08:00:00.123456Z}; {@code ZonedTimestamp} is such text already;</li>
 *   <li>{@code Date} (days since the epoch): {@code 2026-11-22}; {@code Time}, {@code MicroTime},
 *       {@code NanoTime} (since midnight): {@code 08:00:00.123456}.</li>
 * </ul>
 * Without a schema they stay as they came (a decimal as its base64 text: set the connector's
 * {@code decimal.handling.mode=string} or enable schemas).
 *
 * <p>Kafka Connect's Avro converters (Confluent's, Apicurio's) keep the same Connect schema in the
 * writer schema: each field's {@code connect.name} and {@code connect.parameters} properties. The
 * envelope reads them from the writer schema of each record and decodes the same logical types to
 * the same values; those Avro already reads ({@code decimal} as a number, {@code date} as text)
 * stay as read.
 */
public final class DebeziumEnvelope implements RecordFormat {
    public static final String NAME = "debezium";

    private final RecordFormat inner;
    private final Function<byte[], Schema> writerSchema;
    private final Map<Schema, Map<String, Object>> connectSchemas = new ConcurrentHashMap<>();
    private final Map<String, LogicalType> declared;
    private static final byte[] UNAVAILABLE_BYTES = Cell.UNAVAILABLE.getBytes(StandardCharsets.UTF_8);
    private static final String UNAVAILABLE_BASE64 = java.util.Base64.getEncoder().encodeToString(UNAVAILABLE_BYTES);

    /** Change events in JSON, as Kafka Connect's {@code JsonConverter} writes them. */
    public DebeziumEnvelope(RecordFormat inner) {
        this(inner, null, Map.of());
    }

    /**
     * Change events in JSON or Avro.
     *
     * @param writerSchema the Avro schema a record was written with; null for JSON
     * @param declared     the logical type of each column (a row image's field) whose schema names none, or that
     *                     comes without a schema ({@code input.<name>.types})
     */
    public DebeziumEnvelope(RecordFormat inner, Function<byte[], Schema> writerSchema, Map<String, LogicalType> declared) {
        this.inner = inner;
        this.writerSchema = writerSchema;
        this.declared = Map.copyOf(declared);
    }

    @Override
    public String name() {
        return inner.name();
    }

    /** The format each change event is read in. */
    public RecordFormat inner() {
        return inner;
    }

    /**
     * @throws InvalidEventException for a record that is not a change event rowflow applies: no
     *                               {@code op}, an operation other than c, r, u and d, a row image
     *                               missing, a logical value that does not decode
     */
    @Override
    public ReadRecord read(byte[] bytes) {
        ReadRecord read = inner.read(bytes);
        Map<String, Object> event = read.tree();
        Map<String, Object> schema = writerSchema == null ? null
                : connectSchemas.computeIfAbsent(writerSchema.apply(bytes), DebeziumEnvelope::connectSchema);
        if (schema == null && event.size() == 2 && event.get("schema") instanceof Map<?, ?> s && event.get("payload") instanceof Map<?, ?> p) {
            schema = cast(s);
            event = cast(p);
        }
        Object code = event.get("op");
        if (!(code instanceof String text)) {
            throw new InvalidEventException(Refusal.NOT_A_CHANGE, "op", describe(code), code == null
                    ? "is missing: the record is not a Debezium change event (a payload with op, before, after, source)"
                    : "is not an operation code");
        }
        Change.Op op = Change.Op.of(text);
        if (op == null) {
            throw new InvalidEventException(Refusal.NOT_A_CHANGE,
                    "op", text, "is not an operation rowflow applies to rows (c, r, u, d): "
                    + "truncates (t) and messages (m) change no single row");
        }
        Map<String, Object> before = image(event, schema, "before");
        Map<String, Object> after = image(event, schema, "after");
        if (op == Change.Op.DELETE && before == null) {
            throw new InvalidEventException(Refusal.NOT_A_CHANGE,
                    "before", null, "is missing: a delete needs the row's key from its before "
                    + "image");
        }
        if (op != Change.Op.DELETE && after == null) {
            throw new InvalidEventException(Refusal.NOT_A_CHANGE, "after", null, "is missing: " + switch (op) {
                case UPDATE -> "an update";
                case CREATE -> "a create";
                default -> "a snapshot read";
            } + " needs the row's after image");
        }
        Object source = event.get("source");
        return new ReadRecord(op == Change.Op.DELETE ? before : after, read.canonical(),
                new Change(op, before, after, source instanceof Map<?, ?> m ? cast(m) : Map.of()));
    }

    /**
     * The record key of a change event, as a tree: Debezium keys each event by its row's primary
     * key, a struct of the key columns in key order, written by the same converter as the value
     * (JSON with a schema: its payload; a registry's Avro: its own schema).
     *
     * @param key the record key's bytes, or null
     * @throws InvalidEventException MISSING for a record without a key (a table without a primary
     *                               key); UNREADABLE for bytes that are no struct in the format
     */
    public Map<String, Object> readKey(byte[] key) {
        if (key == null) {
            throw new InvalidEventException(Refusal.MISSING, "$key", null, "is missing: the table has no primary "
                    + "key (Debezium keys its events by it)");
        }
        Map<String, Object> tree;
        try {
            tree = inner.read(key).tree();
        } catch (RuntimeException e) {
            throw new InvalidEventException(Refusal.UNREADABLE, "$key", new String(key, StandardCharsets.UTF_8),
                    "is no struct of key columns in the input's format: " + e.getMessage());
        }
        if (tree.size() == 2 && tree.get("schema") instanceof Map<?, ?> && tree.get("payload") instanceof Map<?, ?> p) {
            tree = cast(p);
        }
        return tree;
    }

    @Override
    public Optional<String> cannotYield(FieldPath path) {
        return inner.cannotYield(path);
    }

    @Override
    public Optional<SchemaKind> kindAt(FieldPath path) {
        return inner.kindAt(path);
    }

    @Override
    public void close() {
        inner.close();
    }

    /**
     * The Connect schema an Avro schema written by a Connect converter holds, in the shape
     * {@code JsonConverter} writes schemas: a struct's {@code fields} with their {@code field}
     * names, a logical type's {@code name} and {@code parameters}; optional fields' unions as their
     * one other branch.
     */
    static Map<String, Object> connectSchema(Schema avro) {
        Schema schema = avro;
        if (schema.getType() == Schema.Type.UNION) {
            List<Schema> branches = schema.getTypes().stream().filter(s -> s.getType() != Schema.Type.NULL).toList();
            schema = branches.size() == 1 ? branches.get(0) : schema;
        }
        Map<String, Object> connect = new LinkedHashMap<>();
        if (schema.getType() == Schema.Type.RECORD) {
            connect.put("type", "struct");
            List<Map<String, Object>> fields = new ArrayList<>();
            for (Schema.Field field : schema.getFields()) {
                Map<String, Object> fieldSchema = new LinkedHashMap<>(connectSchema(field.schema()));
                fieldSchema.put("field", field.name());
                fields.add(fieldSchema);
            }
            connect.put("fields", fields);
        }
        if (schema.getObjectProp("connect.name") instanceof String name) {
            connect.put("name", name);
        }
        if (schema.getObjectProp("connect.parameters") instanceof Map<?, ?> parameters) {
            connect.put("parameters", parameters);
        }
        return connect;
    }

    /** The row image {@code field} of the event, its logical values decoded where the schema names them; null if none. */
    private Map<String, Object> image(Map<String, Object> event, Map<String, Object> schema, String field) {
        Object value = event.get(field);
        if (!(value instanceof Map<?, ?> row)) {
            if (value != null && value != RecordTree.NULL) {
                throw new InvalidEventException(Refusal.NOT_A_CHANGE,
                        field, describe(value), "is not a row image (an object)");
            }
            return null;
        }
        Map<String, Object> fieldSchema = schema == null ? null : fieldSchema(schema, field);
        Map<String, Object> image = unavailableAsPlaceholder(cast(row));
        return fieldSchema == null && declared.isEmpty() ? image : decode(field, image, fieldSchema, true);
    }

    /**
     * The image with each value Debezium did not have -- {@link Cell#UNAVAILABLE} as text, as the
     * base64 of its bytes (a {@code bytea} column in JSON) or its bytes, or an array of it alone --
     * as that text, the one value the sink keeps the stored cell for; the image itself if it has none.
     */
    private static Map<String, Object> unavailableAsPlaceholder(Map<String, Object> image) {
        Map<String, Object> copy = null;
        for (Map.Entry<String, Object> column : image.entrySet()) {
            Object value = column.getValue();
            boolean unavailable = value instanceof String text ? text.equals(UNAVAILABLE_BASE64)
                    : value instanceof byte[] bytes ? java.util.Arrays.equals(bytes, UNAVAILABLE_BYTES)
                    : value instanceof List<?> list && list.size() == 1 && Cell.UNAVAILABLE.equals(list.get(0));
            if (unavailable) {
                if (copy == null) {
                    copy = new LinkedHashMap<>(image);
                }
                copy.put(column.getKey(), Cell.UNAVAILABLE);
            }
        }
        return copy == null ? image : copy;
    }

    /** The schema of struct field {@code name} in a Connect struct schema, or null. */
    private static Map<String, Object> fieldSchema(Map<String, Object> struct, String name) {
        if (struct.get("fields") instanceof List<?> fields) {
            for (Object field : fields) {
                if (field instanceof Map<?, ?> f && name.equals(f.get("field"))) {
                    return cast(f);
                }
            }
        }
        return null;
    }

    /**
     * A copy of a row image (or a struct in it) with every logical value its schema names decoded,
     * and where it names none (or there is no schema), the type declared for the image's column.
     */
    private Map<String, Object> decode(String path, Map<String, Object> row, Map<String, Object> schema, boolean image) {
        Map<String, Object> decoded = new LinkedHashMap<>(row);
        if (schema != null && schema.get("fields") instanceof List<?> fields) {
            for (Object field : fields) {
                if (field instanceof Map<?, ?> f && f.get("field") instanceof String name && decoded.containsKey(name)) {
                    decoded.put(name, value(path + "." + name, image ? name : null, decoded.get(name), cast(f)));
                }
            }
        }
        if (image) {
            for (Map.Entry<String, LogicalType> column : declared.entrySet()) {
                String name = column.getKey();
                if (decoded.containsKey(name) && (schema == null || fieldSchema(schema, name) == null)
                        && !Cell.UNAVAILABLE.equals(decoded.get(name))) {
                    decoded.put(name, column.getValue().convert(path + "." + name, decoded.get(name)));
                }
            }
        }
        return decoded;
    }

    private Object value(String path, String column, Object value, Map<String, Object> schema) {
        if (value == null || value == RecordTree.NULL || Cell.UNAVAILABLE.equals(value)) {
            return value;
        }
        LogicalType type;
        try {
            type = !(schema.get("name") instanceof String name) ? null
                    : LogicalType.ofConnect(name, schema.get("parameters") instanceof Map<?, ?> p ? p : null);
        } catch (RuntimeException e) {
            throw new InvalidEventException(Refusal.WRONG_KIND, path, describe(value),
                    "has a schema rowflow cannot read: " + e.getMessage());
        }
        if (type == null && column != null) {
            type = declared.get(column);
        }
        if (type != null) {
            return type.convert(path, value);
        }
        return "struct".equals(schema.get("type")) && value instanceof Map<?, ?> nested
                ? decode(path, cast(nested), schema, false) : value;
    }

    private static Object describe(Object value) {
        return value == null || RecordTree.isScalar(value) ? (value == null ? null : RecordTree.scalarText(value))
                : new String(RecordTree.compactJson(value), StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }
}
