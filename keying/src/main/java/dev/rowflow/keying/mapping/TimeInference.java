package dev.rowflow.keying.mapping;

import java.math.BigDecimal;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which time format reads a sampled value ({@code rowflow mapping suggest}): {@code iso8601}, an
 * epoch unit told by the number's magnitude (as Druid's loader does), or one of the
 * {@link #PATTERNS common patterns}; a value is a time only between 2000 and 2100.
 *
 * <p>Not thread-safe: one per suggestion (it keeps the formats it parsed).
 */
final class TimeInference {
    private static final long YEAR_2000 = 946_684_800_000L;
    private static final long YEAR_2100 = 4_102_444_800_000L;

    /**
     * Time patterns tried on text that is no ISO-8601 with an offset, in this order: access logs
     * (nginx, Apache), SQL-style and naive ISO local times (read in UTC, the default
     * {@code time.zone}), RFC 1123 mail/HTTP dates.
     */
    static final List<String> PATTERNS = List.of("pattern:dd/MMM/yyyy:HH:mm:ss Z",
            "pattern:yyyy-MM-dd HH:mm:ss[.SSSSSSSSS][.SSSSSS][.SSS]",
            "pattern:yyyy-MM-dd'T'HH:mm:ss[.SSSSSSSSS][.SSSSSS][.SSS]", "pattern:EEE, d MMM yyyy HH:mm:ss Z");

    private final Map<String, TimeFormat> formats = new HashMap<>();

    /** The first format that reads {@code value} as a time between 2000 and 2100, or null. */
    String formatOf(String path, Object value) {
        List<String> tries = new ArrayList<>();
        if (value instanceof String) {
            tries.add("iso8601");
        }
        BigDecimal number = number(value);
        if (number != null) {
            double magnitude = number.abs().doubleValue();
            tries.add(magnitude < 1e11 ? "epoch-s" : magnitude < 1e14 ? "epoch-ms" : magnitude < 1e17 ? "epoch-us"
                    : "epoch-ns");
        } else if (value instanceof String) {
            tries.addAll(PATTERNS);
        }
        for (String format : tries) {
            try {
                long millis = formats.computeIfAbsent(format, spec -> TimeFormat.parse(spec, ZoneOffset.UTC))
                        .millis(path, value);
                if (millis >= YEAR_2000 && millis < YEAR_2100) {
                    return format;
                }
            } catch (IllegalArgumentException e) { // InvalidEventException among them
                // not this format
            }
        }
        return null;
    }

    /** Records per format that reads the value of {@code path} as a time, the first format to. */
    Map<String, Long> formatsOf(String path, List<Map<String, Object>> records) {
        FieldPath field = FieldPath.parse(path);
        Map<String, Long> counts = new java.util.LinkedHashMap<>();
        for (Map<String, Object> record : records) {
            String format = formatOf(path, field.resolve(record));
            if (format != null) {
                counts.merge(format, 1L, Long::sum);
            }
        }
        return counts;
    }

    /** Whether the field is named like a time ({@code @timestamp}, {@code time}, {@code ts}, {@code date}). */
    static boolean timeName(String path) {
        String last = path.substring(path.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        return last.equals("@timestamp") || last.contains("time") || last.equals("ts") || last.equals("date");
    }

    private static BigDecimal number(Object value) {
        if (value instanceof Number n) {
            try {
                return n instanceof BigDecimal d ? d : new BigDecimal(n.toString());
            } catch (NumberFormatException e) {
                return null; // NaN, an infinity
            }
        }
        if (value instanceof String text && text.length() <= 30 && text.matches("[0-9]{9,19}(\\.[0-9]+)?")) {
            return new BigDecimal(text);
        }
        return null;
    }
}
