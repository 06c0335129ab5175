package dev.rowflow.pipeline.registry;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import dev.rowflow.keying.mapping.RecordTree;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The record tree ({@link RecordTree}) of a Protobuf message, as the proto3 JSON mapping shapes a
 * message, with exact numbers:
 * <table>
 *   <caption>Protobuf values in a record tree</caption>
 *   <tr><th>Protobuf</th><th>value</th></tr>
 *   <tr><td>message</td><td>object of its fields by their {@code .proto} names, in field order</td></tr>
 *   <tr><td>int32, sint32, sfixed32, int64, sint64, sfixed64, uint32, fixed32</td><td>{@link Long}</td></tr>
 *   <tr><td>uint64, fixed64</td><td>{@link Long}, {@link BigInteger} above 2<sup>63</sup>-1 (unsigned, exact)</td></tr>
 *   <tr><td>float, double</td><td>{@link Double}</td></tr>
 *   <tr><td>bool, string, bytes</td><td>{@link Boolean}, {@link String}, {@code byte[]}</td></tr>
 *   <tr><td>enum</td><td>the value's name; a number the schema does not name, as a {@link Long}</td></tr>
 *   <tr><td>repeated</td><td>array</td></tr>
 *   <tr><td>map</td><td>object by the key's text</td></tr>
 *   <tr><td>{@code google.protobuf.Timestamp}</td><td>RFC 3339 text in UTC, {@code 2026-11-23T08:00:00.250Z}</td></tr>
 *   <tr><td>{@code google.protobuf.Duration}</td><td>seconds as exact decimal text with {@code s}, {@code 1.5s}</td></tr>
 *   <tr><td>wrappers ({@code Int64Value}, {@code StringValue}, ...)</td><td>the wrapped value</td></tr>
 *   <tr><td>{@code Struct}, {@code Value}, {@code ListValue}</td><td>the JSON tree they hold</td></tr>
 * </table>
 * Fields are present as the message has them: a field with presence (a message, {@code optional},
 * a {@code oneof} member, any proto2 field) only when set; a proto3 scalar without presence always,
 * with its default when not written (the reader cannot tell 0 from unset); a repeated or map field
 * always, empty when it has no entries.
 */
final class ProtobufTree {
    private ProtobufTree() {
    }

    static Map<String, Object> of(Message message) {
        Descriptor type = message.getDescriptorForType();
        Map<String, Object> tree = new LinkedHashMap<>();
        for (FieldDescriptor field : type.getFields()) {
            if (field.isRepeated()) {
                tree.put(field.getName(), field.isMapField() ? map(message, field) : list(message, field));
            } else if (!field.hasPresence() || message.hasField(field)) {
                tree.put(field.getName(), value(field, message.getField(field)));
            }
        }
        return tree;
    }

    private static List<Object> list(Message message, FieldDescriptor field) {
        int count = message.getRepeatedFieldCount(field);
        List<Object> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            values.add(value(field, message.getRepeatedField(field, i)));
        }
        return values;
    }

    private static Map<String, Object> map(Message message, FieldDescriptor field) {
        Descriptor entry = field.getMessageType();
        FieldDescriptor key = entry.findFieldByNumber(1);
        FieldDescriptor value = entry.findFieldByNumber(2);
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < message.getRepeatedFieldCount(field); i++) {
            Message pair = (Message) message.getRepeatedField(field, i);
            map.put(RecordTree.scalarText(value(key, pair.getField(key))), value(value, pair.getField(value)));
        }
        return map;
    }

    private static Object value(FieldDescriptor field, Object value) {
        return switch (field.getJavaType()) {
            case INT -> field.getType() == FieldDescriptor.Type.UINT32 || field.getType() == FieldDescriptor.Type.FIXED32
                    ? Integer.toUnsignedLong((Integer) value) : (long) (Integer) value;
            case LONG -> unsigned(field) && (Long) value < 0
                    ? new BigInteger(Long.toUnsignedString((Long) value)) : value;
            case FLOAT -> (double) (Float) value;
            case DOUBLE, BOOLEAN, STRING -> value;
            case BYTE_STRING -> ((ByteString) value).toByteArray();
            case ENUM -> {
                EnumValueDescriptor symbol = (EnumValueDescriptor) value;
                yield symbol.getIndex() < 0 ? (Object) (long) symbol.getNumber() : symbol.getName();
            }
            case MESSAGE -> message((Message) value);
        };
    }

    private static boolean unsigned(FieldDescriptor field) {
        return field.getType() == FieldDescriptor.Type.UINT64 || field.getType() == FieldDescriptor.Type.FIXED64;
    }

    /** A nested message: a well-known type as its JSON mapping, any other as an object. */
    private static Object message(Message message) {
        Descriptor type = message.getDescriptorForType();
        switch (type.getFullName()) {
            case "google.protobuf.Timestamp" -> {
                return Instant.ofEpochSecond((Long) field(message, "seconds"), (Integer) field(message, "nanos"))
                        .toString();
            }
            case "google.protobuf.Duration" -> {
                BigDecimal seconds = BigDecimal.valueOf((Long) field(message, "seconds"))
                        .add(BigDecimal.valueOf((Integer) field(message, "nanos"), 9));
                return seconds.stripTrailingZeros().toPlainString() + "s";
            }
            case "google.protobuf.DoubleValue", "google.protobuf.FloatValue", "google.protobuf.Int64Value",
                 "google.protobuf.UInt64Value", "google.protobuf.Int32Value", "google.protobuf.UInt32Value",
                 "google.protobuf.BoolValue", "google.protobuf.StringValue", "google.protobuf.BytesValue" -> {
                FieldDescriptor value = type.findFieldByName("value");
                return value(value, message.getField(value));
            }
            case "google.protobuf.Struct" -> {
                return structFields(message);
            }
            case "google.protobuf.Value" -> {
                return jsonValue(message);
            }
            case "google.protobuf.ListValue" -> {
                return listValues(message);
            }
            default -> {
                return of(message);
            }
        }
    }

    private static Object field(Message message, String name) {
        return message.getField(message.getDescriptorForType().findFieldByName(name));
    }

    private static Map<String, Object> structFields(Message struct) {
        FieldDescriptor fields = struct.getDescriptorForType().findFieldByName("fields");
        Map<String, Object> object = new LinkedHashMap<>();
        for (int i = 0; i < struct.getRepeatedFieldCount(fields); i++) {
            Message pair = (Message) struct.getRepeatedField(fields, i);
            Descriptor entry = pair.getDescriptorForType();
            object.put((String) pair.getField(entry.findFieldByNumber(1)),
                    jsonValue((Message) pair.getField(entry.findFieldByNumber(2))));
        }
        return object;
    }

    private static List<Object> listValues(Message list) {
        FieldDescriptor values = list.getDescriptorForType().findFieldByName("values");
        List<Object> array = new ArrayList<>();
        for (int i = 0; i < list.getRepeatedFieldCount(values); i++) {
            array.add(jsonValue((Message) list.getRepeatedField(values, i)));
        }
        return array;
    }

    /** A JSON number held as a double, as the JSON reader would have it: whole ones as longs, others exact. */
    private static Object number(double value) {
        if (!Double.isFinite(value)) {
            return value;
        }
        if (value == Math.rint(value) && Math.abs(value) < 0x1p53) {
            return (long) value;
        }
        return new BigDecimal(Double.toString(value));
    }

    /** A {@code google.protobuf.Value}: whichever of its kinds is set; none set reads as null. */
    private static Object jsonValue(Message value) {
        Descriptor type = value.getDescriptorForType();
        FieldDescriptor kind = value.getOneofFieldDescriptor(type.getOneofs().get(0));
        if (kind == null) {
            return RecordTree.NULL;
        }
        Object set = value.getField(kind);
        return switch (kind.getName()) {
            case "null_value" -> RecordTree.NULL;
            case "number_value" -> number((Double) set);
            case "struct_value" -> structFields((Message) set);
            case "list_value" -> listValues((Message) set);
            default -> set; // string_value, bool_value
        };
    }
}
