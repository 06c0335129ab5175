package dev.rowflow.keying.mapping;

import java.time.chrono.IsoChronology;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.TemporalAccessor;
import java.util.Locale;

/**
 * The {@code iso8601} time format: an ISO-8601 / RFC 3339 date and time with an offset ({@code Z},
 * {@code +01:00}, {@code +0100} or {@code +01}), 0 to 9 fraction digits, {@code T}, {@code t} or a
 * space between date and time. Its job is reading such a string into epoch milliseconds: the
 * common shape digit by digit ({@link #fastParse}), anything else through java.time.
 */
enum Iso8601TimeFormat implements TimeFormat {
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
            throw TimeValues.invalid(path, value, RecordTree.kind(value) + ", where an ISO-8601 time is expected");
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
            throw TimeValues.invalid(path, value, "not an ISO-8601 time with an offset: " + TimeValues.shortReason(e));
        }
        return TimeValues.epochMillis(path, value, parsed, "an ISO-8601 time");
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
