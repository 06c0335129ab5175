package dev.rowflow.keying.mapping;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.Locale;
import java.util.Objects;

/**
 * The {@code pattern:<p>} time format: a {@link DateTimeFormatter} pattern (English month and day
 * names), {@code formatter} carrying the configured zone as its override (java.time lets an offset
 * or zone in the text win over it). Its job is compiling the pattern, refusing one that yields no
 * instant, and reading strings in it into epoch milliseconds.
 */
record PatternTimeFormat(String spec, DateTimeFormatter formatter) implements TimeFormat {
    static final String PREFIX = "pattern:";

    /** Written and read back once in {@link #compile} to find patterns that yield no instant. */
    private static final ZonedDateTime SAMPLE = ZonedDateTime.of(2001, 2, 3, 4, 5, 6, 789_000_000, ZoneId.of("UTC"));

    public PatternTimeFormat {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(formatter, "formatter");
    }

    static PatternTimeFormat compile(String spec, ZoneId zone) {
        String pattern = spec.substring(PREFIX.length());
        if (pattern.isEmpty()) {
            throw TimeFormatSpec.badSpec(spec, "has an empty pattern");
        }
        DateTimeFormatter formatter;
        try {
            // English: access logs write Nov, not the host locale's month name.
            formatter = DateTimeFormatter.ofPattern(pattern, Locale.ENGLISH).withZone(zone);
        } catch (IllegalArgumentException e) {
            throw TimeFormatSpec.badSpec(spec, "has a bad pattern (" + e.getMessage() + ")");
        }
        // A pattern without a full date and time (HH:mm, or YYYY-MM-dd, the week-based year)
        // would reject every event; say so now instead.
        try {
            if (!formatter.parse(formatter.format(SAMPLE)).isSupported(ChronoField.INSTANT_SECONDS)) {
                throw TimeFormatSpec.badSpec(spec, "has a pattern that gives no complete date and time");
            }
        } catch (DateTimeException e) {
            throw TimeFormatSpec.badSpec(spec, "has a pattern that cannot read the times it writes (" + e.getMessage() + ")");
        }
        return new PatternTimeFormat(spec, formatter);
    }

    @Override
    public long millis(String path, Object value) {
        if (!(value instanceof String text)) {
            throw TimeValues.invalid(path, value, RecordTree.kind(value) + ", where a time in pattern '" + pattern() + "' is expected");
        }
        TemporalAccessor parsed;
        try {
            parsed = formatter.parse(text);
        } catch (DateTimeParseException e) {
            throw TimeValues.invalid(path, value, "does not match pattern '" + pattern() + "': " + TimeValues.shortReason(e));
        }
        return TimeValues.epochMillis(path, value, parsed, "a time in pattern '" + pattern() + "'");
    }

    private String pattern() {
        return spec.substring(PREFIX.length());
    }

    /** By spec and zone, as DateTimeFormatter has no equals of its own. */
    @Override
    public boolean equals(Object o) {
        return o instanceof PatternTimeFormat p && spec.equals(p.spec) && Objects.equals(formatter.getZone(), p.formatter.getZone());
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
