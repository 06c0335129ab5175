package dev.rowflow.pipeline.registry;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import dev.rowflow.keying.mapping.RecordTree;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the bytes of a Protobuf message straight into its record tree ({@link RecordTree}), as
 * the proto3 JSON mapping shapes a message, with exact numbers:
 * <table>
 *   <caption>Protobuf values in a record tree</caption>
 *   <tr><th>Protobuf</th><th>value</th></tr>
 *   <tr><td>message</td><td>object of its fields by their {@code .proto} names, in field order</td></tr>
 *   <tr><td>int32, sint32, sfixed32, int64, sint64, sfixed64, uint32, fixed32</td><td>{@link Long}</td></tr>
 *   <tr><td>uint64, fixed64</td><td>{@link Long}, {@link BigInteger} above 2<sup>63</sup>-1 (unsigned, exact)</td></tr>
 *   <tr><td>float, double</td><td>{@link Double}</td></tr>
 *   <tr><td>bool, string, bytes</td><td>{@link Boolean}, {@link String}, {@code byte[]}</td></tr>
 *   <tr><td>enum</td><td>the value's name; a number the schema does not name, as a {@link Long}</td></tr>
 *   <tr><td>repeated</td><td>array (packed or not)</td></tr>
 *   <tr><td>map</td><td>object by the key's text</td></tr>
 *   <tr><td>{@code google.protobuf.Timestamp}</td><td>RFC 3339 text in UTC, {@code 2026-11-23T08:00:00.250Z}</td></tr>
 *   <tr><td>{@code google.protobuf.Duration}</td><td>seconds as exact decimal text with {@code s}, {@code 1.5s}</td></tr>
 *   <tr><td>wrappers ({@code Int64Value}, {@code StringValue}, ...)</td><td>the wrapped value</td></tr>
 *   <tr><td>{@code Struct}, {@code Value}, {@code ListValue}</td><td>the JSON tree they hold</td></tr>
 * </table>
 * Fields are present as the message has them: a field with presence (a message, {@code optional},
 * a {@code oneof} member, any proto2 field) only when set; a proto3 scalar without presence always,
 * with its default when not written (the reader cannot tell 0 from unset); a repeated or map field
 * always, empty when it has no entries. The wire's rules hold: a field written twice keeps its
 * last value (a message field merges the two), a field of another wire type than the schema's and
 * a field number the schema does not have are skipped as unknown fields.
 *
 * <p>Read directly rather than through a {@code DynamicMessage}: no field set, no boxing into
 * the message's own objects and back, a quarter of the time per record.
 */
final class ProtobufTree {
    private ProtobufTree() {
    }

    /**
     * The tree of a message of type {@code type} whose bytes are all of {@code in} (or up to its
     * current limit).
     *
     * @throws IOException if the bytes are not such a message (cut short, a bad varint, a string
     *                     that is not UTF-8 in a proto3 file, a group)
     */
    static Map<String, Object> read(Descriptor type, CodedInputStream in) throws IOException {
        return tree(type, values(type, in));
    }

    /** A message as read: its type and its values by field index, nested messages as messages. */
    private record Message(Descriptor type, Object[] values) {
    }

    /** The values of a message of {@code type} by field index, as written (no defaults, nothing converted). */
    private static Object[] values(Descriptor type, CodedInputStream in) throws IOException {
        Object[] values = new Object[type.getFields().size()];
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                break;
            }
            FieldDescriptor field = type.findFieldByNumber(WireFormat.getTagFieldNumber(tag));
            int wireType = WireFormat.getTagWireType(tag);
            if (field == null) {
                in.skipField(tag);
                continue;
            }
            int index = field.getIndex();
            boolean packed = field.isRepeated() && field.isPackable()
                    && wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED;
            if (!packed && wireType != field.getLiteType().getWireType()) {
                in.skipField(tag);
                continue;
            }
            if (field.isRepeated()) {
                @SuppressWarnings("unchecked")
                List<Object> list = values[index] == null ? new ArrayList<>() : (List<Object>) values[index];
                values[index] = list;
                if (packed) {
                    int limit = in.pushLimit(in.readRawVarint32());
                    while (in.getBytesUntilLimit() > 0) {
                        list.add(value(field, in));
                    }
                    in.popLimit(limit);
                } else {
                    list.add(value(field, in));
                }
            } else if (values[index] instanceof Message first) {
                values[index] = merge(first, (Message) value(field, in));
            } else {
                values[index] = value(field, in);
            }
        }
        return values;
    }

    /** A message field written twice: the second merged into the first, as parsing the two one after the other does. */
    private static Message merge(Message first, Message second) {
        Object[] merged = first.values().clone();
        for (int i = 0; i < merged.length; i++) {
            Object later = second.values()[i];
            if (later == null) {
                continue;
            }
            if (merged[i] instanceof List<?> earlier) {
                List<Object> all = new ArrayList<>(earlier);
                all.addAll((List<?>) later);
                merged[i] = all;
            } else if (merged[i] instanceof Message earlier) {
                merged[i] = merge(earlier, (Message) later);
            } else {
                merged[i] = later;
            }
        }
        return new Message(first.type(), merged);
    }

    /** The tree of a message of {@code type} with these values by field index. */
    private static Map<String, Object> tree(Descriptor type, Object[] values) {
        List<FieldDescriptor> fields = type.getFields();
        Map<String, Object> tree = new LinkedHashMap<>(Math.max(4, fields.size() * 2));
        for (int i = 0; i < values.length; i++) {
            FieldDescriptor field = fields.get(i);
            Object value = values[i];
            if (field.isRepeated()) {
                List<?> list = value == null ? List.of() : (List<?>) value;
                if (field.isMapField()) {
                    tree.put(field.getName(), map(list));
                } else {
                    List<Object> converted = new ArrayList<>(list.size());
                    for (Object element : list) {
                        converted.add(converted(element));
                    }
                    tree.put(field.getName(), converted);
                }
            } else if (value != null) {
                tree.put(field.getName(), converted(value));
            } else if (!field.hasPresence() || type.getOptions().getMapEntry()) {
                // A map entry without its value has the value's default, as an unset value of a map would.
                tree.put(field.getName(), defaultOf(field));
            }
        }
        return tree;
    }

    /** A value as the tree holds it: a nested message as its tree, or its well-known type's JSON value. */
    private static Object converted(Object value) {
        return value instanceof Message message
                ? wellKnown(message.type(), tree(message.type(), message.values())) : value;
    }

    /** A map field's entries, each a message {key, value}, as an object by the key's text. */
    private static Map<String, Object> map(List<?> entries) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (Object entry : entries) {
            Map<?, ?> pair = (Map<?, ?>) converted(entry);
            map.put(RecordTree.scalarText(pair.get("key")), pair.get("value"));
        }
        return map;
    }

    private static Object value(FieldDescriptor field, CodedInputStream in) throws IOException {
        return switch (field.getType()) {
            case DOUBLE -> in.readDouble();
            case FLOAT -> (double) in.readFloat();
            case INT64 -> in.readInt64();
            case UINT64 -> unsigned(in.readUInt64());
            case INT32 -> (long) in.readInt32();
            case FIXED64 -> unsigned(in.readFixed64());
            case FIXED32 -> Integer.toUnsignedLong(in.readFixed32());
            case BOOL -> in.readBool();
            // proto3 (and editions with utf8_validation=VERIFY) require valid UTF-8; proto2 does not.
            case STRING -> field.needsUtf8Check() ? in.readStringRequireUtf8() : in.readString();
            case BYTES -> in.readByteArray();
            case UINT32 -> Integer.toUnsignedLong(in.readUInt32());
            case ENUM -> {
                int number = in.readEnum();
                EnumValueDescriptor symbol = field.getEnumType().findValueByNumber(number);
                yield symbol == null ? (Object) (long) number : symbol.getName();
            }
            case SFIXED32 -> (long) in.readSFixed32();
            case SFIXED64 -> in.readSFixed64();
            case SINT32 -> (long) in.readSInt32();
            case SINT64 -> in.readSInt64();
            case MESSAGE -> {
                int limit = in.pushLimit(in.readRawVarint32());
                Object[] values = values(field.getMessageType(), in);
                in.popLimit(limit);
                yield new Message(field.getMessageType(), values);
            }
            case GROUP -> throw new InvalidProtocolBufferException("field " + field.getFullName()
                    + " is a group (proto2's deprecated encoding), which is not read");
        };
    }

    private static Object unsigned(long value) {
        return value < 0 ? new BigInteger(Long.toUnsignedString(value)) : (Object) value;
    }

    /** The value a proto3 scalar without presence has when it was not written. */
    private static Object defaultOf(FieldDescriptor field) {
        return switch (field.getJavaType()) {
            case INT, LONG -> 0L;
            case FLOAT, DOUBLE -> 0.0;
            case BOOLEAN -> false;
            case STRING -> "";
            case BYTE_STRING -> new byte[0];
            case ENUM -> field.getEnumType().getValues().get(0).getName();
            case MESSAGE -> wellKnown(field.getMessageType(), tree(field.getMessageType(),
                    new Object[field.getMessageType().getFields().size()]));
        };
    }

    /** A nested message: a well-known type as its JSON mapping, any other as it is. */
    private static Object wellKnown(Descriptor type, Map<String, Object> message) {
        switch (type.getFullName()) {
            case "google.protobuf.Timestamp" -> {
                return Instant.ofEpochSecond((Long) message.get("seconds"), (Long) message.get("nanos")).toString();
            }
            case "google.protobuf.Duration" -> {
                BigDecimal seconds = BigDecimal.valueOf((Long) message.get("seconds"))
                        .add(BigDecimal.valueOf((Long) message.get("nanos"), 9));
                return seconds.stripTrailingZeros().toPlainString() + "s";
            }
            case "google.protobuf.DoubleValue", "google.protobuf.FloatValue", "google.protobuf.Int64Value",
                 "google.protobuf.UInt64Value", "google.protobuf.Int32Value", "google.protobuf.UInt32Value",
                 "google.protobuf.BoolValue", "google.protobuf.StringValue", "google.protobuf.BytesValue" -> {
                return message.get("value");
            }
            case "google.protobuf.Struct" -> {
                return message.get("fields");
            }
            case "google.protobuf.ListValue" -> {
                return message.get("values");
            }
            case "google.protobuf.Value" -> {
                // Its kinds are a oneof: whichever is set, already converted; none set reads as null.
                for (Map.Entry<String, Object> kind : message.entrySet()) {
                    return switch (kind.getKey()) {
                        case "null_value" -> RecordTree.NULL;
                        case "number_value" -> number((Double) kind.getValue());
                        default -> kind.getValue(); // string_value, bool_value, struct_value, list_value
                    };
                }
                return RecordTree.NULL;
            }
            default -> {
                return message;
            }
        }
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
}
