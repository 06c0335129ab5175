package dev.rowflow.keying.mapping;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;

import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;

/**
 * What the time formats share when reading a value: the epoch milliseconds of a parsed date and
 * time, and the wording of the {@link InvalidEventException} a value that does not fit becomes, so
 * every format's dead-letter reason reads alike.
 */
final class TimeValues {
    private TimeValues() {
    }

    static long epochMillis(String path, Object value, TemporalAccessor parsed, String expected) {
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

    static InvalidEventException invalid(String path, Object value, String reason) {
        // byte[]'s toString is an identity hash: useless in a dead-letter header.
        Object shown = value instanceof byte[] bytes ? "<" + bytes.length + " bytes>" : value;
        return new InvalidEventException(Refusal.UNREAD_TIME, path, shown, reason);
    }

    /** java.time repeats the whole text in its message; the value is in ours already. */
    static String shortReason(DateTimeParseException e) {
        Throwable cause = e.getCause();
        String reason = cause != null && cause.getMessage() != null
                ? cause.getMessage()
                : "could not be parsed at index " + e.getErrorIndex();
        return reason.length() > 100 ? reason.substring(0, 100) + "..." : reason;
    }

    /** The value goes into the exception whole (shortened there); a reason stays one line. */
    static String shortQuote(String text) {
        return text.length() > 40 ? "'" + text.substring(0, 40) + "...'" : "'" + text + "'";
    }
}
