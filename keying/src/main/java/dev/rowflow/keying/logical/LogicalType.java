package dev.rowflow.keying.logical;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.mapping.RecordTree;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a temporal or decimal value of a database column becomes in a row: the one rule, applied
 * to Kafka Connect's and Debezium's logical types (named by a change event's schema, see
 * {@link #ofConnect}), to the types a user declares per field for change events without a schema
 * ({@code input.<name>.types}, see {@link #parse}), and by the mapping language's
 * {@code convert(value, 'type')}. Same value, same type: same bytes, whichever of the three read it.
 *
 * <p>Forms (text, UTF-8). Temporal text always carries all of its unit's digits, even where the
 * fraction is zero, and timestamps and zoned times are in UTC, so that within a column its byte
 * order is the values' time order (for years 0000 to 9999: beyond them ISO-8601 prints a sign):
 * <pre>
 * type               read from                                        written as
 * date               days since 1970-01-01, ISO date text             2024-02-29
 * time-millis        ms since midnight, ISO local time text           12:00:00.000
 * time-micros        µs since midnight, ...                           12:00:00.000000
 * time-nanos         ns since midnight, ...                           12:00:00.000000000
 * time-zoned         ISO time with offset                             11:00:00.000000000Z (in UTC)
 * timestamp-millis   ms since the epoch (UTC), ISO text               2024-02-29T12:00:00.000Z
 * timestamp-micros   µs since the epoch, ISO text                     2024-02-29T12:00:00.000000Z
 * timestamp-nanos    ns since the epoch, ISO text                     2024-02-29T12:00:00.000000000Z
 * timestamp-zoned    ISO date-time with offset                        2024-02-29T11:00:00.000000000Z (in UTC)
 * year               a whole number                                   the number, 2024
 * decimal(p,s)       base64 of the big-endian two's-complement        the exact number, always s digits after
 *                    unscaled value (JSON), its bytes (Avro), a number the point: 12.50 (p digits at most)
 * decimal            {scale, value: base64} (VariableScaleDecimal),   the exact number as it came
 *                    a number
 * interval-micros    µs (MicroDuration)                               the number
 * interval           ISO-8601 duration text (Interval)                the text as it came
 * </pre>
 * A time of {@code 24:00:00} (PostgreSQL's end of day) is written {@code 24:00:00.000000}, after
 * every other time of the day. Every form is also what the type reads, so converting twice
 * changes nothing.
 */
public final class LogicalType {
    /** The kinds of logical value. */
    public enum Kind { DATE, TIME, TIME_ZONED, TIMESTAMP, TIMESTAMP_ZONED, YEAR, DECIMAL, VARIABLE_DECIMAL, INTERVAL_MICROS, INTERVAL }

    /** The names a user declares, in the order of the reference. */
    public static final String NAMES = "date, time-millis, time-micros, time-nanos, time-zoned, timestamp-millis, "
            + "timestamp-micros, timestamp-nanos, timestamp-zoned, year, decimal(precision,scale), decimal, "
            + "interval-micros, interval";

    private static final Pattern DECIMAL = Pattern.compile("decimal\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\)");
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    private final String name;
    private final Kind kind;
    /** Digits after the second (time, timestamp), or the scale (decimal). */
    private final int digits;
    /** A decimal's digits at most; 0 where unbounded. */
    private final int precision;

    private LogicalType(String name, Kind kind, int digits, int precision) {
        this.name = name;
        this.kind = kind;
        this.digits = digits;
        this.precision = precision;
    }

    /**
     * The type a user declares: one of {@link #NAMES}.
     *
     * @throws IllegalArgumentException naming the text, for any other
     */
    public static LogicalType parse(String declared) {
        String text = declared.strip().toLowerCase(Locale.ROOT);
        return switch (text) {
            case "date" -> new LogicalType(text, Kind.DATE, 0, 0);
            case "time-millis" -> new LogicalType(text, Kind.TIME, 3, 0);
            case "time-micros" -> new LogicalType(text, Kind.TIME, 6, 0);
            case "time-nanos" -> new LogicalType(text, Kind.TIME, 9, 0);
            case "time-zoned" -> new LogicalType(text, Kind.TIME_ZONED, 9, 0);
            case "timestamp-millis" -> new LogicalType(text, Kind.TIMESTAMP, 3, 0);
            case "timestamp-micros" -> new LogicalType(text, Kind.TIMESTAMP, 6, 0);
            case "timestamp-nanos" -> new LogicalType(text, Kind.TIMESTAMP, 9, 0);
            case "timestamp-zoned" -> new LogicalType(text, Kind.TIMESTAMP_ZONED, 9, 0);
            case "year" -> new LogicalType(text, Kind.YEAR, 0, 0);
            case "decimal" -> new LogicalType(text, Kind.VARIABLE_DECIMAL, 0, 0);
            case "interval-micros" -> new LogicalType(text, Kind.INTERVAL_MICROS, 0, 0);
            case "interval" -> new LogicalType(text, Kind.INTERVAL, 0, 0);
            default -> {
                Matcher m = DECIMAL.matcher(text.replace(" ", ""));
                if (!m.matches()) {
                    throw new IllegalArgumentException("'" + declared.strip() + "' is not a type: the types are " + NAMES);
                }
                int precision = Integer.parseInt(m.group(1));
                int scale = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
                if (precision < 1 || scale > precision) {
                    throw new IllegalArgumentException("'" + declared.strip()
                            + "' is not a decimal type: precision at least 1, scale at most the precision");
                }
                yield decimal(precision, scale);
            }
        };
    }

    /**
     * The types declared per column, {@code column:type, ...} ({@code total:decimal(10,2), created_at:timestamp-micros}),
     * in their order; empty for blank text.
     *
     * @throws IllegalArgumentException naming the entry, for one that is not {@code column:type} of a known type or
     *                                  a column declared twice
     */
    public static Map<String, LogicalType> parseColumns(String declared) {
        Map<String, LogicalType> types = new java.util.LinkedHashMap<>();
        if (declared.isBlank()) {
            return types;
        }
        for (String entry : declared.split(",(?![^(]*\\))")) {
            int colon = entry.lastIndexOf(':');
            String column = colon < 0 ? "" : entry.substring(0, colon).strip();
            if (column.isEmpty()) {
                throw new IllegalArgumentException("'" + entry.strip() + "' is not column:type");
            }
            if (types.put(column, parse(entry.substring(colon + 1))) != null) {
                throw new IllegalArgumentException("column " + column + " is declared twice");
            }
        }
        return types;
    }

    /**
     * The type a Kafka Connect schema names ({@code name} and {@code parameters} of a field's schema,
     * as Debezium and Connect's converters write them), or null for a schema that names none rowflow
     * converts.
     */
    public static LogicalType ofConnect(String connectName, Map<?, ?> parameters) {
        return switch (connectName) {
            case "org.apache.kafka.connect.data.Decimal" -> {
                Object scale = parameters == null ? null : parameters.get("scale");
                Object precision = parameters == null ? null : parameters.get("connect.decimal.precision");
                if (scale == null) {
                    throw new IllegalArgumentException("the Decimal schema gives no scale");
                }
                yield decimal(precision == null ? 0 : Integer.parseInt(precision.toString()),
                        Integer.parseInt(scale.toString()));
            }
            case "io.debezium.data.VariableScaleDecimal" -> parse("decimal");
            case "org.apache.kafka.connect.data.Timestamp", "io.debezium.time.Timestamp" -> parse("timestamp-millis");
            case "io.debezium.time.MicroTimestamp" -> parse("timestamp-micros");
            case "io.debezium.time.NanoTimestamp" -> parse("timestamp-nanos");
            case "io.debezium.time.ZonedTimestamp" -> parse("timestamp-zoned");
            case "org.apache.kafka.connect.data.Date", "io.debezium.time.Date" -> parse("date");
            case "org.apache.kafka.connect.data.Time", "io.debezium.time.Time" -> parse("time-millis");
            case "io.debezium.time.MicroTime" -> parse("time-micros");
            case "io.debezium.time.NanoTime" -> parse("time-nanos");
            case "io.debezium.time.ZonedTime" -> parse("time-zoned");
            case "io.debezium.time.Year" -> parse("year");
            case "io.debezium.time.MicroDuration" -> parse("interval-micros");
            case "io.debezium.time.Interval" -> parse("interval");
            default -> null;
        };
    }

    private static LogicalType decimal(int precision, int scale) {
        return new LogicalType(precision == 0 ? "decimal of scale " + scale : "decimal(" + precision + "," + scale + ")",
                Kind.DECIMAL, scale, precision);
    }

    /** The name it is declared by, {@code timestamp-micros}, {@code decimal(10,2)}. */
    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    /**
     * The value in this type's form (see the class's table).
     *
     * @param field what to name in a refusal: the field's path or the expression
     * @throws InvalidEventException naming {@code field} and the value, for a value this type does not read
     */
    public Object convert(String field, Object value) {
        if (value == null || value == RecordTree.NULL) {
            return value;
        }
        try {
            return switch (kind) {
                case DATE -> TemporalText.date(value instanceof String text ? LocalDate.parse(text.strip())
                        : value instanceof LocalDate date ? date : LocalDate.ofEpochDay(whole(value)));
                case TIME -> TemporalText.time(nanoOfDay(value), digits);
                case TIME_ZONED -> TemporalText.utcTime(OffsetTime.parse(text(value)));
                case TIMESTAMP -> TemporalText.timestamp(instant(value), digits);
                case TIMESTAMP_ZONED -> TemporalText.timestamp(value instanceof Instant i ? i
                        : OffsetDateTime.parse(text(value)).toInstant(), digits);
                case YEAR, INTERVAL_MICROS -> whole(value);
                case DECIMAL -> scaled(field, value);
                case VARIABLE_DECIMAL -> value instanceof Map<?, ?> parts
                        ? new BigDecimal(new BigInteger(unscaled(parts.get("value"))), (int) whole(parts.get("scale")))
                        : number(value);
                case INTERVAL -> {
                    String text = text(value);
                    if (!text.startsWith("P") && !text.startsWith("-P")) {
                        throw new IllegalArgumentException("an ISO-8601 duration (P...) is expected");
                    }
                    yield text;
                }
            };
        } catch (InvalidEventException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new InvalidEventException(Refusal.WRONG_KIND, field, describe(value), "is not a " + name + " value"
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
    }

    private long nanoOfDay(Object value) {
        if (value instanceof String text) {
            String t = text.strip();
            return t.startsWith("24:") && LocalTime.parse("00" + t.substring(2)).toNanoOfDay() == 0 ? NANOS_PER_DAY
                    : LocalTime.parse(t).toNanoOfDay();
        }
        if (value instanceof LocalTime time) {
            return time.toNanoOfDay();
        }
        long nanos = Math.multiplyExact(whole(value), unitNanos());
        if (nanos < 0 || nanos > NANOS_PER_DAY) {
            throw new IllegalArgumentException("a time of day is 0 to 24:00:00");
        }
        return nanos;
    }

    private Instant instant(Object value) {
        if (value instanceof Instant i) {
            return i;
        }
        if (value instanceof String text) {
            String t = text.strip();
            try {
                return OffsetDateTime.parse(t).toInstant();
            } catch (DateTimeException e) {
                return LocalDateTime.parse(t).toInstant(ZoneOffset.UTC); // a column without a zone: UTC, as Debezium
            }
        }
        long units = whole(value);
        long unit = unitNanos();
        return Instant.ofEpochSecond(Math.floorDiv(units, 1_000_000_000L / unit),
                Math.floorMod(units, 1_000_000_000L / unit) * unit);
    }

    private long unitNanos() {
        return digits == 3 ? 1_000_000L : digits == 6 ? 1_000L : 1L;
    }

    private BigDecimal scaled(String field, Object value) {
        BigDecimal number = value instanceof byte[] || value instanceof String
                ? new BigDecimal(new BigInteger(unscaled(value)), digits) : number(value);
        BigDecimal exact;
        try {
            exact = number.setScale(digits, RoundingMode.UNNECESSARY);
        } catch (ArithmeticException e) {
            throw new InvalidEventException(Refusal.OUT_OF_RANGE, field, number.toPlainString(),
                    "has more than " + digits + " digits after the point, where " + name + " keeps " + digits);
        }
        if (precision > 0 && exact.precision() > precision && exact.signum() != 0) {
            throw new InvalidEventException(Refusal.OUT_OF_RANGE, field, exact.toPlainString(),
                    "has more than " + precision + " digits, where " + name + " keeps " + precision);
        }
        return exact;
    }

    /** A decimal's unscaled bytes: base64 text in JSON, bytes in Avro. */
    private static byte[] unscaled(Object value) {
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        if (value instanceof java.nio.ByteBuffer buffer) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes);
            return bytes;
        }
        byte[] bytes = Base64.getDecoder().decode(text(value));
        if (bytes.length == 0) {
            throw new IllegalArgumentException("no bytes of an unscaled value");
        }
        return bytes;
    }

    private static BigDecimal number(Object value) {
        if (value instanceof BigDecimal d) {
            return d;
        }
        if (value instanceof Long || value instanceof Integer) {
            return BigDecimal.valueOf(((Number) value).longValue());
        }
        if (value instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        if (value instanceof Double || value instanceof Float) {
            return new BigDecimal(value.toString()); // the digits the producer wrote, not the binary fraction
        }
        throw new IllegalArgumentException("a number is expected");
    }

    private static long whole(Object value) {
        if (value instanceof Long l) {
            return l;
        }
        if (value instanceof Integer i) {
            return i;
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.longValueExact();
        }
        throw new IllegalArgumentException("a whole number is expected");
    }

    private static String text(Object value) {
        if (value instanceof String text) {
            return text.strip();
        }
        throw new IllegalArgumentException("text is expected");
    }

    private static Object describe(Object value) {
        return RecordTree.isScalar(value) ? RecordTree.scalarText(value)
                : value instanceof byte[] bytes ? Base64.getEncoder().encodeToString(bytes)
                : new String(RecordTree.compactJson(value), java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LogicalType t && t.kind == kind && t.digits == digits && t.precision == precision;
    }

    @Override
    public int hashCode() {
        return (kind.hashCode() * 31 + digits) * 31 + precision;
    }

    @Override
    public String toString() {
        return name;
    }
}
