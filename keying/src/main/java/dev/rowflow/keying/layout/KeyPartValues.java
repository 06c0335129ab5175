package dev.rowflow.keying.layout;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;

import java.time.Instant;

/**
 * How a field value is taken as a key part's text or number before an encoding writes it (or a
 * query bound is compared), and the {@link InvalidEventException} of a value that is neither, for
 * the dead-letter topic.
 */
final class KeyPartValues {
    private KeyPartValues() {
    }

    static String text(Object value) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof CharSequence cs) {
            return cs.toString();
        }
        throw new InvalidEventException(Refusal.WRONG_KIND, "text key part", value, "must be a string");
    }

    static long number(Object value, String token) {
        if (value instanceof Long l) {
            return l;
        }
        if (value instanceof Instant instant) {
            return instant.toEpochMilli();
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        throw new InvalidEventException(Refusal.WRONG_KIND,
                token + " key part", value, "must be a whole number or a time");
    }
}
