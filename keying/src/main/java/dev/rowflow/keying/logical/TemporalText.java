package dev.rowflow.keying.logical;

import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;

/**
 * The text forms of {@link LogicalType}'s temporal values: ISO-8601 with a fixed number of digits
 * after the second -- never fewer when the fraction is zero, as {@link Instant#toString()} and
 * {@link java.time.LocalTime#toString()} print -- and in UTC, so that text order is time order.
 */
final class TemporalText {
    private static final DateTimeFormatter[] TIMESTAMPS = new DateTimeFormatter[10];
    private static final DateTimeFormatter[] TIMES = new DateTimeFormatter[10];
    private static final DateTimeFormatter DATE = new DateTimeFormatterBuilder()
            .appendValue(ChronoField.YEAR, 4, 10, java.time.format.SignStyle.EXCEEDS_PAD)
            .appendPattern("-MM-dd").toFormatter();

    static {
        for (int digits : new int[] {3, 6, 9}) {
            TIMESTAMPS[digits] = new DateTimeFormatterBuilder().append(DATE).appendPattern("'T'HH:mm:ss")
                    .appendFraction(ChronoField.NANO_OF_SECOND, digits, digits, true)
                    .appendLiteral('Z').toFormatter().withZone(ZoneOffset.UTC);
            TIMES[digits] = new DateTimeFormatterBuilder().appendPattern("HH:mm:ss")
                    .appendFraction(ChronoField.NANO_OF_SECOND, digits, digits, true).toFormatter();
        }
    }

    private TemporalText() {
    }

    /** {@code 2024-02-29}. */
    static String date(LocalDate date) {
        return DATE.format(date);
    }

    /** {@code 12:00:00.000000} for 6 digits; the end of the day, {@code 24:00:00.000000}. */
    static String time(long nanoOfDay, int digits) {
        if (nanoOfDay == 86_400_000_000_000L) {
            return "24:00:00." + "0".repeat(digits);
        }
        return TIMES[digits].format(java.time.LocalTime.ofNanoOfDay(nanoOfDay));
    }

    /** The time in UTC, 9 digits, {@code 11:00:00.000000000Z}. */
    static String utcTime(OffsetTime time) {
        return TIMES[9].format(time.withOffsetSameInstant(ZoneOffset.UTC)) + "Z";
    }

    /** {@code 2024-02-29T12:00:00.000000Z} for 6 digits; a fraction finer than {@code digits} is refused. */
    static String timestamp(Instant instant, int digits) {
        long unit = digits == 3 ? 1_000_000L : digits == 6 ? 1_000L : 1L;
        if (instant.getNano() % unit != 0) {
            throw new IllegalArgumentException("it has more than " + digits + " digits after the second");
        }
        return TIMESTAMPS[digits].format(instant);
    }
}
