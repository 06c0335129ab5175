package dev.rowflow.keying.mapping;

import dev.rowflow.keying.InvalidEventException;

import java.time.ZoneId;
import java.util.List;

/**
 * Several formats tried in order; the first that reads the value gives its time. A format is
 * tried only on values of a kind it takes (numbers and numeric text for epoch formats, text
 * for the others), so the usual mix -- numbers from one producer, ISO-8601 text from another
 * -- costs no failed parse.
 *
 * @param formats two or more, none of them a list, each reachable
 */
record FirstOfTimeFormat(String spec, List<TimeFormat> formats) implements TimeFormat {
    /**
     * A comma before a format name: commas inside a pattern ({@code pattern:EEE, dd MMM yyyy})
     * are followed by pattern letters, never by a format name.
     */
    static final java.util.regex.Pattern SEPARATOR =
            java.util.regex.Pattern.compile("\\s*,\\s*(?=epoch-|iso8601|pattern:)");

    public FirstOfTimeFormat {
        formats = List.copyOf(formats);
    }

    static FirstOfTimeFormat of(String spec, String[] specs, ZoneId zone) {
        List<TimeFormat> formats = new java.util.ArrayList<>();
        for (String one : specs) {
            TimeFormat format;
            try {
                format = TimeFormatSpec.parseOne(one, zone);
            } catch (IllegalArgumentException e) {
                String problem = e.getMessage().substring(("time format '" + one + "' ").length(),
                        e.getMessage().indexOf("; valid forms"));
                throw TimeFormatSpec.badSpec(spec, "has '" + one + "', which " + problem);
            }
            for (TimeFormat earlier : formats) {
                if (earlier.equals(format)) {
                    throw TimeFormatSpec.badSpec(spec, "names " + one + " twice");
                }
                if (earlier instanceof EpochTimeFormat && format instanceof EpochTimeFormat) {
                    throw TimeFormatSpec.badSpec(spec, "has " + format.spec() + " after " + earlier.spec() + ", which takes every "
                            + "number first: one epoch unit per list (a time field's unit cannot be told from "
                            + "its value)");
                }
            }
            formats.add(format);
        }
        return new FirstOfTimeFormat(spec, formats);
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
        throw TimeValues.invalid(path, value, "matches none of the time formats " + spec
                + (reasons == null ? " (" + RecordTree.kind(value) + ")" : " (" + reasons + ")"));
    }

    /** Whether {@code format} could read a value of this kind at all. */
    private static boolean takes(TimeFormat format, Object value) {
        if (format instanceof EpochTimeFormat) {
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
