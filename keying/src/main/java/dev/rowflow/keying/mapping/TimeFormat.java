package dev.rowflow.keying.mapping;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.chrono.IsoChronology;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How an event-time value becomes epoch milliseconds (UTC). Sub-millisecond parts are floored,
 * before 1970 too, so an event never moves into the next millisecond (or row) of its time.
 *
 * <table>
 *   <caption>Time formats</caption>
 *   <tr><th>spec</th><th>takes</th><th>example value</th><th>epoch ms</th></tr>
 *   <tr><td>{@code epoch-ms}</td><td>whole or decimal number, or a string of one</td>
 *       <td>{@code 1795334400123}</td><td>{@code 1795334400123}</td></tr>
 *   <tr><td>{@code epoch-s}</td><td>the same, a fraction being common (Fluent Bit)</td>
 *       <td>{@code 1795334400.123456}</td><td>{@code 1795334400123}</td></tr>
 *   <tr><td>{@code epoch-us}</td><td>the same</td>
 *       <td>{@code 1795334400123456}</td><td>{@code 1795334400123}</td></tr>
 *   <tr><td>{@code epoch-ns}</td><td>the same</td>
 *       <td>{@code 1795334400123456789}</td><td>{@code 1795334400123}</td></tr>
 *   <tr><td>{@code iso8601}</td><td>an ISO-8601 / RFC 3339 string with an offset
 *       ({@code Z}, {@code +01:00}, {@code +0100} or {@code +01}), 0 to 9 fraction digits,
 *       {@code T}, {@code t} or a space between date and time (Filebeat, Logstash, Vector)</td>
 *       <td>{@code 2026-11-22T09:00:00.123456789+01:00}</td><td>{@code 1795334400123}</td></tr>
 *   <tr><td>{@code pattern:<p>}</td><td>a string in {@link DateTimeFormatter} pattern {@code p}
 *       (English month and day names); the configured zone applies where {@code p} has no
 *       offset or zone</td>
 *       <td>{@code 22/Nov/2026:08:00:00 +0000} with {@code pattern:dd/MMM/yyyy:HH:mm:ss Z}</td>
 *       <td>{@code 1795334400000}</td></tr>
 *   <tr><td>{@code f1, f2, ...}</td><td>what any of the formats takes, tried in order: the
 *       first that reads the value wins (a topic whose producers, or whose producer's versions,
 *       write the time differently)</td>
 *       <td>{@code 1795334400.5} or {@code 2026-11-22T08:00:00Z} with {@code epoch-s, iso8601}</td>
 *       <td>{@code 1795334400500}, {@code 1795334400000}</td></tr>
 * </table>
 *
 * Epoch formats also take Avro {@code double}/{@code float} values, floored after scaling: a
 * double holds about a microsecond at today's epoch nanoseconds, so milliseconds are exact.
 * Whatever does not fit (an object, a boolean, a number beyond 64 bits, a millisecond count
 * beyond 64 bits, a string that is not a time) is an {@link InvalidEventException} naming the
 * path, the value and what was expected, for the dead-letter topic.
 *
 * <p>Parsed once per input; immutable and thread-safe. Converting allocates nothing for epoch
 * numbers and only java.time's own parse state for strings.
 */
public sealed interface TimeFormat permits TimeFormat.Epoch, TimeFormat.Iso8601, TimeFormat.Pattern, TimeFormat.FirstOf {

    /** The spec as configured, e.g. {@code "epoch-ms"} or {@code "pattern:yyyy-MM-dd HH:mm:ss"}. */
    String spec();

    /**
     * Epoch ms of {@code value} (the value found at the time path), flooring sub-millisecond parts.
     *
     * @param path  the time path as written, for the error
     * @param value a record-tree value, never {@link RecordTree#NULL} or null
     * @throws InvalidEventException (path, value, reason) when the value does not fit
     */
    long millis(String path, Object value);

    /**
     * Parses a spec.
     *
     * @param zone used by patterns without an offset or zone
     * @throws IllegalArgumentException naming the spec and listing the valid forms
     */
    static TimeFormat parse(String spec, ZoneId zone) {
        Objects.requireNonNull(zone, "zone");
        if (spec == null) {
            throw new IllegalArgumentException("time format is missing; valid forms: " + validForms());
        }
        String[] list = FirstOf.SEPARATOR.split(spec);
        return list.length == 1 ? parseOne(spec, zone) : FirstOf.of(spec, list, zone);
    }

    private static TimeFormat parseOne(String spec, ZoneId zone) {
        for (Epoch epoch : Epoch.values()) {
            if (epoch.spec.equals(spec)) {
                return epoch;
            }
        }
        if (spec.equals(Iso8601.INSTANCE.spec())) {
            return Iso8601.INSTANCE;
        }
        if (spec.startsWith(Pattern.PREFIX)) {
            return Pattern.compile(spec, zone);
        }
        throw badSpec(spec, "is unknown");
    }

    // ---------------------------------------------------------------- epoch numbers

    /** A count of time units since 1970-01-01T00:00:00Z. */
    enum Epoch implements TimeFormat {
        MILLIS("epoch-ms", "epoch milliseconds", 0),
        SECONDS("epoch-s", "epoch seconds", 3),
        MICROS("epoch-us", "epoch microseconds", -3),
        NANOS("epoch-ns", "epoch nanoseconds", -6);

        /** Past this many characters a string is no time, and is not handed to BigDecimal's parser. */
        private static final int MAX_STRING = 64;

        private final String spec;
        private final String unit;
        /** Milliseconds = count * 10^decimalShift. */
        private final int decimalShift;
        /** The same as whole-number arithmetic: at most one of the two is not 1. */
        private final long multiplier;
        private final long divisor;

        Epoch(String spec, String unit, int decimalShift) {
            this.spec = spec;
            this.unit = unit;
            this.decimalShift = decimalShift;
            this.multiplier = decimalShift > 0 ? (long) Math.pow(10, decimalShift) : 1;
            this.divisor = decimalShift < 0 ? (long) Math.pow(10, -decimalShift) : 1;
        }

        @Override
        public String spec() {
            return spec;
        }

        @Override
        public long millis(String path, Object value) {
            if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
                return fromLong(path, value, ((Number) value).longValue());
            }
            if (value instanceof BigDecimal decimal) {
                return fromDecimal(path, value, decimal);
            }
            if (value instanceof Double || value instanceof Float) {
                return fromDouble(path, value, ((Number) value).doubleValue());
            }
            if (value instanceof String text) {
                return fromString(path, text);
            }
            if (value instanceof BigInteger) {
                throw invalid(path, value, "a number beyond 64 bits");
            }
            throw invalid(path, value, RecordTree.kind(value) + ", where " + unit + " are expected");
        }

        private long fromLong(String path, Object value, long count) {
            if (divisor != 1) {
                return Math.floorDiv(count, divisor);
            }
            try {
                return Math.multiplyExact(count, multiplier);
            } catch (ArithmeticException e) {
                throw overflow(path, value);
            }
        }

        private long fromDecimal(String path, Object value, BigDecimal count) {
            // scaleByPowerOfTen only moves the scale; movePointRight would expand 1E+999999999.
            BigDecimal ms = count.scaleByPowerOfTen(decimalShift);
            int wholeDigits = ms.precision() - ms.scale();
            if (wholeDigits > 19) {
                throw overflow(path, value);
            }
            if (wholeDigits <= 0) {
                // |ms| < 1, and setScale could have to divide by a huge power of ten (1E-999999999).
                return ms.signum() < 0 ? -1 : 0;
            }
            try {
                return ms.setScale(0, RoundingMode.FLOOR).longValueExact();
            } catch (ArithmeticException e) {
                throw overflow(path, value);
            }
        }

        private long fromDouble(String path, Object value, double count) {
            if (!Double.isFinite(count)) {
                throw invalid(path, value, "not a finite number, where " + unit + " are expected");
            }
            // Scaled in double arithmetic on purpose: 1700000000.123 is stored as ...122.99990463,
            // and the writer meant .123, which the rounded product gives back.
            double ms = Math.floor(divisor == 1 ? count * multiplier : count / divisor);
            if (!(ms >= -0x1p63 && ms < 0x1p63)) {
                throw overflow(path, value);
            }
            return (long) ms;
        }

        private long fromString(String path, String text) {
            int n = text.length();
            boolean whole = true;
            int i = n > 0 && text.charAt(0) == '-' ? 1 : 0;
            int digitsBefore = 0;
            int digitsAfter = 0;
            for (; i < n; i++) {
                char c = text.charAt(i);
                if (c >= '0' && c <= '9') {
                    if (whole) {
                        digitsBefore++;
                    } else {
                        digitsAfter++;
                    }
                } else if (c == '.' && whole) {
                    whole = false;
                } else {
                    break;
                }
            }
            if (i < n || n > MAX_STRING || digitsBefore == 0 || (!whole && digitsAfter == 0)) {
                throw invalid(path, text, shortQuote(text) + " is not " + unit);
            }
            if (whole && digitsBefore <= 18) {
                return fromLong(path, text, Long.parseLong(text));
            }
            return fromDecimal(path, text, new BigDecimal(text));
        }

        private InvalidEventException overflow(String path, Object value) {
            return invalid(path, value, "beyond the 64-bit range of epoch milliseconds");
        }

        @Override
        public String toString() {
            return spec;
        }
    }

    // ---------------------------------------------------------------- ISO-8601

    /** ISO-8601 / RFC 3339 date and time with an offset. */
    enum Iso8601 implements TimeFormat {
        INSTANCE;

        private static final DateTimeFormatter WITH_T = formatter('T');
        /** RFC 3339 lets applications use a space instead of the {@code T} (PostgreSQL, Python). */
        private static final DateTimeFormatter WITH_SPACE = formatter(' ');

        private static DateTimeFormatter formatter(char separator) {
            return new DateTimeFormatterBuilder()
                    .parseCaseInsensitive() // RFC 3339 allows 't' and 'z'
                    .append(DateTimeFormatter.ISO_LOCAL_DATE)
                    .appendLiteral(separator)
                    .append(DateTimeFormatter.ISO_LOCAL_TIME)
                    // Lenient "+HH" reads +01, +0100 and +01:00 alike, and Z.
                    .parseLenient()
                    .appendOffset("+HH", "Z")
                    .parseStrict()
                    .toFormatter(Locale.ROOT)
                    .withResolverStyle(ResolverStyle.STRICT)
                    .withChronology(IsoChronology.INSTANCE);
        }

        @Override
        public String spec() {
            return "iso8601";
        }

        @Override
        public long millis(String path, Object value) {
            if (!(value instanceof String text)) {
                throw invalid(path, value, RecordTree.kind(value) + ", where an ISO-8601 time is expected");
            }
            long fast = fastParse(text);
            if (fast != NOT_FAST) {
                return fast;
            }
            // Choosing by the separator, rather than one formatter with two optional ones, keeps
            // "2026-11-2208:00:00Z" an error.
            DateTimeFormatter formatter = text.indexOf(' ') >= 0 ? WITH_SPACE : WITH_T;
            TemporalAccessor parsed;
            try {
                parsed = formatter.parse(text);
            } catch (DateTimeParseException e) {
                throw invalid(path, value, "not an ISO-8601 time with an offset: " + shortReason(e));
            }
            return epochMillis(path, value, parsed, "an ISO-8601 time");
        }

        @Override
        public String toString() {
            return spec();
        }

        private static final long NOT_FAST = Long.MIN_VALUE;

        /**
         * The common shape every shipper writes, {@code YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|+HHMM)},
         * read digit by digit: java.time's parser costs about a microsecond a record. Anything
         * else (no seconds, a leap second, an invalid date, a space) returns {@link #NOT_FAST} and
         * goes to the formatter, which also words the errors.
         */
        static long fastParse(String t) {
            int n = t.length();
            if (n < 20 || t.charAt(4) != '-' || t.charAt(7) != '-' || (t.charAt(10) != 'T' && t.charAt(10) != 't')
                    || t.charAt(13) != ':' || t.charAt(16) != ':') {
                return NOT_FAST;
            }
            int year = digits(t, 0, 4);
            int month = digits(t, 5, 2);
            int day = digits(t, 8, 2);
            int hour = digits(t, 11, 2);
            int minute = digits(t, 14, 2);
            int second = digits(t, 17, 2);
            if (year < 0 || month < 1 || month > 12 || day < 1 || day > 28 + (month == 2 ? (isLeap(year) ? 1 : 0) : 3)
                    || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
                return NOT_FAST;
            }
            if (day > 30 && (month == 4 || month == 6 || month == 9 || month == 11)) {
                return NOT_FAST;
            }
            int i = 19;
            int millis = 0;
            if (i < n && t.charAt(i) == '.') {
                int start = ++i;
                while (i < n && t.charAt(i) >= '0' && t.charAt(i) <= '9') {
                    if (i - start < 3) {
                        millis = millis * 10 + (t.charAt(i) - '0');
                    }
                    i++;
                }
                int count = i - start;
                if (count == 0 || count > 9) {
                    return NOT_FAST;
                }
                for (int k = count; k < 3; k++) {
                    millis *= 10;
                }
            }
            int offsetSeconds;
            if (i == n - 1 && (t.charAt(i) == 'Z' || t.charAt(i) == 'z')) {
                offsetSeconds = 0;
            } else if (i < n && (t.charAt(i) == '+' || t.charAt(i) == '-')) {
                int sign = t.charAt(i) == '-' ? -1 : 1;
                int hh = digits(t, i + 1, 2);
                int mm;
                if (n - i == 6 && t.charAt(i + 3) == ':') {
                    mm = digits(t, i + 4, 2);
                } else if (n - i == 5) {
                    mm = digits(t, i + 3, 2);
                } else {
                    return NOT_FAST;
                }
                if (hh < 0 || hh > 18 || mm < 0 || mm > 59) {
                    return NOT_FAST;
                }
                offsetSeconds = sign * (hh * 3600 + mm * 60);
            } else {
                return NOT_FAST;
            }
            long epochDay = java.time.LocalDate.of(year, month, day).toEpochDay();
            long seconds = epochDay * 86_400L + hour * 3600L + minute * 60L + second - offsetSeconds;
            return seconds * 1000L + millis;
        }

        private static int digits(String t, int from, int count) {
            int value = 0;
            for (int i = from; i < from + count; i++) {
                char c = t.charAt(i);
                if (c < '0' || c > '9') {
                    return -1;
                }
                value = value * 10 + (c - '0');
            }
            return value;
        }

        private static boolean isLeap(int year) {
            return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        }
    }

    // ---------------------------------------------------------------- DateTimeFormatter patterns

    /**
     * A {@link DateTimeFormatter} pattern, {@code formatter} carrying the configured zone as its
     * override (java.time lets an offset or zone in the text win over it).
     */
    record Pattern(String spec, DateTimeFormatter formatter) implements TimeFormat {
        static final String PREFIX = "pattern:";

        /** Written and read back once in {@link #compile} to find patterns that yield no instant. */
        private static final ZonedDateTime SAMPLE = ZonedDateTime.of(2001, 2, 3, 4, 5, 6, 789_000_000, ZoneId.of("UTC"));

        public Pattern {
            Objects.requireNonNull(spec, "spec");
            Objects.requireNonNull(formatter, "formatter");
        }

        static Pattern compile(String spec, ZoneId zone) {
            String pattern = spec.substring(PREFIX.length());
            if (pattern.isEmpty()) {
                throw badSpec(spec, "has an empty pattern");
            }
            DateTimeFormatter formatter;
            try {
                // English: access logs write Nov, not the host locale's month name.
                formatter = DateTimeFormatter.ofPattern(pattern, Locale.ENGLISH).withZone(zone);
            } catch (IllegalArgumentException e) {
                throw badSpec(spec, "has a bad pattern (" + e.getMessage() + ")");
            }
            // A pattern without a full date and time (HH:mm, or YYYY-MM-dd, the week-based year)
            // would reject every event; say so now instead.
            try {
                if (!formatter.parse(formatter.format(SAMPLE)).isSupported(ChronoField.INSTANT_SECONDS)) {
                    throw badSpec(spec, "has a pattern that gives no complete date and time");
                }
            } catch (DateTimeException e) {
                throw badSpec(spec, "has a pattern that cannot read the times it writes (" + e.getMessage() + ")");
            }
            return new Pattern(spec, formatter);
        }

        @Override
        public long millis(String path, Object value) {
            if (!(value instanceof String text)) {
                throw invalid(path, value, RecordTree.kind(value) + ", where a time in pattern '" + pattern() + "' is expected");
            }
            TemporalAccessor parsed;
            try {
                parsed = formatter.parse(text);
            } catch (DateTimeParseException e) {
                throw invalid(path, value, "does not match pattern '" + pattern() + "': " + shortReason(e));
            }
            return epochMillis(path, value, parsed, "a time in pattern '" + pattern() + "'");
        }

        private String pattern() {
            return spec.substring(PREFIX.length());
        }

        /** By spec and zone, as DateTimeFormatter has no equals of its own. */
        @Override
        public boolean equals(Object o) {
            return o instanceof Pattern p && spec.equals(p.spec) && Objects.equals(formatter.getZone(), p.formatter.getZone());
        }

        @Override
        public int hashCode() {
            return 31 * spec.hashCode() + Objects.hashCode(formatter.getZone());
        }

        @Override
        public String toString() {
            return spec;
        }
    }

    // ---------------------------------------------------------------- several

    /**
     * Several formats tried in order; the first that reads the value gives its time. A format is
     * tried only on values of a kind it takes (numbers and numeric text for epoch formats, text
     * for the others), so the usual mix -- numbers from one producer, ISO-8601 text from another
     * -- costs no failed parse.
     *
     * @param formats two or more, none of them a list, each reachable
     */
    record FirstOf(String spec, List<TimeFormat> formats) implements TimeFormat {
        /**
         * A comma before a format name: commas inside a pattern ({@code pattern:EEE, dd MMM yyyy})
         * are followed by pattern letters, never by a format name.
         */
        static final java.util.regex.Pattern SEPARATOR =
                java.util.regex.Pattern.compile("\\s*,\\s*(?=epoch-|iso8601|pattern:)");

        public FirstOf {
            formats = List.copyOf(formats);
        }

        static FirstOf of(String spec, String[] specs, ZoneId zone) {
            List<TimeFormat> formats = new java.util.ArrayList<>();
            for (String one : specs) {
                TimeFormat format;
                try {
                    format = parseOne(one, zone);
                } catch (IllegalArgumentException e) {
                    String problem = e.getMessage().substring(("time format '" + one + "' ").length(),
                            e.getMessage().indexOf("; valid forms"));
                    throw badSpec(spec, "has '" + one + "', which " + problem);
                }
                for (TimeFormat earlier : formats) {
                    if (earlier.equals(format)) {
                        throw badSpec(spec, "names " + one + " twice");
                    }
                    if (earlier instanceof Epoch && format instanceof Epoch) {
                        throw badSpec(spec, "has " + format.spec() + " after " + earlier.spec() + ", which takes every "
                                + "number first: one epoch unit per list (a time field's unit cannot be told from "
                                + "its value)");
                    }
                }
                formats.add(format);
            }
            return new FirstOf(spec, formats);
        }

        @Override
        public long millis(String path, Object value) {
            StringBuilder reasons = null;
            for (TimeFormat format : formats) {
                if (!takes(format, value)) {
                    continue;
                }
                try {
                    return format.millis(path, value);
                } catch (InvalidEventException e) {
                    String reason = e.getMessage();
                    // "invalid <path> '<value>': <reason>": the path and value are said once, below.
                    int colon = reason.indexOf("': ");
                    reasons = (reasons == null ? new StringBuilder() : reasons.append("; "))
                            .append(format.spec()).append(": ").append(colon < 0 ? reason : reason.substring(colon + 3));
                }
            }
            throw invalid(path, value, "matches none of the time formats " + spec
                    + (reasons == null ? " (" + RecordTree.kind(value) + ")" : " (" + reasons + ")"));
        }

        /** Whether {@code format} could read a value of this kind at all. */
        private static boolean takes(TimeFormat format, Object value) {
            if (format instanceof Epoch) {
                return value instanceof Number || value instanceof String text && numeric(text);
            }
            return value instanceof String;
        }

        /** Digits with at most one '.', an optional leading '-': text an epoch format reads (a date has '-' and ':'). */
        private static boolean numeric(String text) {
            int n = text.length();
            int i = n > 1 && text.charAt(0) == '-' ? 1 : 0;
            boolean dot = false;
            boolean digit = false;
            for (; i < n; i++) {
                char c = text.charAt(i);
                if (c >= '0' && c <= '9') {
                    digit = true;
                } else if (c == '.' && !dot) {
                    dot = true;
                } else {
                    return false;
                }
            }
            return digit;
        }

        @Override
        public String toString() {
            return spec;
        }
    }

    // ---------------------------------------------------------------- shared

    private static long epochMillis(String path, Object value, TemporalAccessor parsed, String expected) {
        if (!parsed.isSupported(ChronoField.INSTANT_SECONDS)) {
            throw invalid(path, value, "not a complete date and time, where " + expected + " is expected");
        }
        long seconds = parsed.getLong(ChronoField.INSTANT_SECONDS);
        int nanos = parsed.isSupported(ChronoField.NANO_OF_SECOND) ? parsed.get(ChronoField.NANO_OF_SECOND) : 0;
        try {
            // nanos is never negative, so dividing floors.
            return Math.addExact(Math.multiplyExact(seconds, 1000L), nanos / 1_000_000);
        } catch (ArithmeticException e) {
            throw invalid(path, value, "beyond the 64-bit range of epoch milliseconds");
        }
    }

    private static InvalidEventException invalid(String path, Object value, String reason) {
        // byte[]'s toString is an identity hash: useless in a dead-letter header.
        Object shown = value instanceof byte[] bytes ? "<" + bytes.length + " bytes>" : value;
        return new InvalidEventException(Refusal.UNREAD_TIME, path, shown, reason);
    }


    /** java.time repeats the whole text in its message; the value is in ours already. */
    private static String shortReason(DateTimeParseException e) {
        Throwable cause = e.getCause();
        String reason = cause != null && cause.getMessage() != null
                ? cause.getMessage()
                : "could not be parsed at index " + e.getErrorIndex();
        return reason.length() > 100 ? reason.substring(0, 100) + "..." : reason;
    }

    /** The value goes into the exception whole (shortened there); a reason stays one line. */
    private static String shortQuote(String text) {
        return text.length() > 40 ? "'" + text.substring(0, 40) + "...'" : "'" + text + "'";
    }

    private static IllegalArgumentException badSpec(String spec, String problem) {
        return new IllegalArgumentException("time format '" + spec + "' " + problem + "; valid forms: " + validForms());
    }

    private static String validForms() {
        return "epoch-ms, epoch-s, epoch-us, epoch-ns, iso8601, pattern:<java.time DateTimeFormatter pattern>, or "
                + "several of them separated by commas, tried in order";
    }
}
