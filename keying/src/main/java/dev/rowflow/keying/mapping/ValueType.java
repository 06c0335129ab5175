package dev.rowflow.keying.mapping;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * What a typed column's value must be ({@code status:long=s}), and for {@code int32} and
 * {@code int64} how it is stored. A value of another kind is the record's fault: no conversion is
 * made silently (text "200" is not a long, 200 is not text).
 *
 * <p>Every type but {@code int32} and {@code int64} stores its value as text, as an untyped column
 * does; those two store it as 4 or 8 bytes, big-endian two's complement -- HBase's
 * {@code Bytes.toBytes(int)} and {@code Bytes.toBytes(long)}, what {@code Bytes.toInt} and
 * {@code Bytes.toLong} read back.
 */
public enum ValueType {
    /** A string. */
    TEXT("text", "text"),
    /** A whole number of at most 64 bits (not one beyond, not text of digits). */
    LONG("long", "a whole number of 64 bits"),
    /** Any number. */
    NUMBER("number", "a number"),
    /** true or false. */
    BOOL("bool", "a boolean"),
    /** An object or an array, stored as compact JSON. */
    JSON("json", "an object or an array"),
    /** A whole number of 32 bits, stored as 4 bytes. */
    INT32("int32", "a whole number of 32 bits"),
    /** A whole number of 64 bits, stored as 8 bytes. */
    INT64("int64", "a whole number of 64 bits");

    private final String token;
    private final String expected;

    ValueType(String token, String expected) {
        this.token = token;
        this.expected = expected;
    }

    /** The type as written after the path. */
    public String token() {
        return token;
    }

    /** What a value must be, for the reason a record is set aside with. */
    public String expected() {
        return expected;
    }

    /** Whether a record-tree value (never null or {@link RecordTree#NULL}) is of this type. */
    public boolean accepts(Object value) {
        return switch (this) {
            case TEXT -> value instanceof String;
            case LONG -> value instanceof Long || value instanceof Integer || value instanceof Short
                    || value instanceof Byte || value instanceof BigDecimal decimal && isWhole64(decimal);
            case NUMBER -> value instanceof Number;
            case BOOL -> value instanceof Boolean;
            case JSON -> value instanceof Map || value instanceof List;
            case INT32 -> LONG.accepts(value) && ((Number) value).longValue() == ((Number) value).intValue();
            case INT64 -> LONG.accepts(value);
        };
    }

    /**
     * The cell of a value this type {@link #accepts}: 4 or 8 big-endian bytes for {@code int32}
     * and {@code int64}, null for the types stored as text.
     */
    public byte[] binary(Object value) {
        return switch (this) {
            case INT32 -> java.nio.ByteBuffer.allocate(Integer.BYTES).putInt(((Number) value).intValue()).array();
            case INT64 -> java.nio.ByteBuffer.allocate(Long.BYTES).putLong(((Number) value).longValue()).array();
            default -> null;
        };
    }

    private static boolean isWhole64(BigDecimal decimal) {
        try {
            decimal.longValueExact();
            return true;
        } catch (ArithmeticException e) {
            return false;
        }
    }

    /** The type a token names, or null. */
    static ValueType of(String token) {
        for (ValueType type : values()) {
            if (type.token.equals(token)) {
                return type;
            }
        }
        return null;
    }

    /** The tokens, for messages. */
    static String tokens() {
        return String.join(", ", java.util.Arrays.stream(values()).map(ValueType::token).toList());
    }
}
