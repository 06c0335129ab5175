package dev.rowflow.keying.mapping;

import java.time.ZoneId;
import java.util.Objects;

/**
 * Parsing of a time format spec as configured ({@code epoch-ms}, {@code iso8601},
 * {@code pattern:<p>}, or several of them separated by commas) into the {@link TimeFormat} that
 * reads it, and the wording of a spec's refusal: one message naming the spec and listing the valid
 * forms, whichever format refuses it.
 */
final class TimeFormatSpec {
    private TimeFormatSpec() {
    }

    /** See {@link TimeFormat#parse}. */
    static TimeFormat parse(String spec, ZoneId zone) {
        Objects.requireNonNull(zone, "zone");
        if (spec == null) {
            throw new IllegalArgumentException("time format is missing; valid forms: " + validForms());
        }
        String[] list = FirstOfTimeFormat.SEPARATOR.split(spec);
        return list.length == 1 ? parseOne(spec, zone) : FirstOfTimeFormat.of(spec, list, zone);
    }

    /** One format, not a list. */
    static TimeFormat parseOne(String spec, ZoneId zone) {
        for (EpochTimeFormat epoch : EpochTimeFormat.values()) {
            if (epoch.spec().equals(spec)) {
                return epoch;
            }
        }
        if (spec.equals(Iso8601TimeFormat.INSTANCE.spec())) {
            return Iso8601TimeFormat.INSTANCE;
        }
        if (spec.startsWith(PatternTimeFormat.PREFIX)) {
            return PatternTimeFormat.compile(spec, zone);
        }
        throw badSpec(spec, "is unknown");
    }

    /**
     * The refusal of {@code spec}. {@link FirstOfTimeFormat#of} takes the problem of one listed
     * format back out of this wording, so the two change together.
     */
    static IllegalArgumentException badSpec(String spec, String problem) {
        return new IllegalArgumentException("time format '" + spec + "' " + problem + "; valid forms: " + validForms());
    }

    private static String validForms() {
        return "epoch-ms, epoch-s, epoch-us, epoch-ns, iso8601, pattern:<java.time DateTimeFormatter pattern>, or "
                + "several of them separated by commas, tried in order";
    }
}
