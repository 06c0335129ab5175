package dev.rowflow.keying.mapping;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a sample of records says of each field ({@code rowflow mapping suggest}): by dotted path
 * (objects descended, an array one leaf; a flat key with a dot in it is the same path, so
 * {@code "log.level":"warn"} and {@code "log":{"level":"warn"}} are one field), how many records
 * have it, of which kinds, how many distinct values (counted up to {@value #DISTINCT_CAP}), the
 * longest text, whether text holds NUL or blanks (free text), the least and greatest number.
 *
 * <p>Not thread-safe.
 */
final class SampleStats {
    /** Distinct values counted per field; past it the count is a lower bound. */
    static final int DISTINCT_CAP = 10_000;

    long present;
    final Map<String, Long> kinds = new TreeMap<>();
    final Map<Object, Long> counts = new HashMap<>();
    boolean capped;
    int longestText;
    boolean nul;
    /** Whether some text value holds a blank: a message, not a name. */
    boolean freeText;
    BigDecimal min;
    BigDecimal max;

    /** The kind most of its values have. */
    String dominantKind() {
        return kinds.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse("");
    }

    /** Values of another kind than the dominant one. */
    long ofOtherKinds() {
        return present - kinds.getOrDefault(dominantKind(), 0L);
    }

    /** Whether its values name things a key can part records by: text or whole numbers. */
    boolean keyable() {
        return Set.of("text", "a whole number").contains(dominantKind());
    }

    /** The stats of every field of {@code records}, by path, in the order first met. */
    static Map<String, SampleStats> of(List<Map<String, Object>> records) {
        Map<String, SampleStats> stats = new LinkedHashMap<>();
        records.forEach(record -> walk("", record, stats));
        return stats;
    }

    /** Adds the fields of one record to {@code into}. */
    static void walk(String prefix, Map<?, ?> object, Map<String, SampleStats> into) {
        for (Map.Entry<?, ?> entry : object.entrySet()) {
            String step = MappingSuggestion.step(entry.getKey().toString());
            String path = prefix.isEmpty() ? step : prefix + "." + step;
            Object value = entry.getValue();
            if (value instanceof Map<?, ?> nested && !nested.isEmpty()) {
                walk(path, nested, into);
                continue;
            }
            if (value == null || value == RecordTree.NULL) {
                continue;
            }
            into.computeIfAbsent(path, k -> new SampleStats()).count(value);
        }
    }

    void count(Object value) {
        present++;
        kinds.merge(RecordTree.kind(value), 1L, Long::sum);
        String text = RecordTree.isScalar(value) ? RecordTree.scalarText(value)
                : new String(RecordTree.compactJson(value), StandardCharsets.UTF_8);
        Object comparable = RecordTree.isScalar(value) ? value : text;
        if (counts.size() < DISTINCT_CAP || counts.containsKey(comparable)) {
            counts.merge(comparable, 1L, Long::sum);
        } else {
            capped = true;
        }
        if (value instanceof String string) {
            longestText = Math.max(longestText, string.length());
            nul |= string.indexOf('\0') >= 0;
            freeText |= string.chars().anyMatch(Character::isWhitespace);
        }
        if (value instanceof Number number) {
            try {
                BigDecimal decimal = number instanceof BigDecimal d ? d : new BigDecimal(number.toString());
                min = min == null || decimal.compareTo(min) < 0 ? decimal : min;
                max = max == null || decimal.compareTo(max) > 0 ? decimal : max;
            } catch (NumberFormatException e) {
                // NaN or an infinity: no bound
            }
        }
    }

    /** The stats of a fallback over {@code records}: the first alternative's value each has. */
    static SampleStats union(List<Map<String, Object>> records, String fallback) {
        List<FieldPath> paths = List.of(fallback.split(" \\| ")).stream().map(FieldPath::parse).toList();
        SampleStats union = new SampleStats();
        for (Map<String, Object> record : records) {
            paths.stream().map(path -> path.resolve(record)).filter(SampleStats::leaf).findFirst()
                    .ifPresent(union::count);
        }
        return union;
    }

    /**
     * Pairs of keyable fields that never occur in one record and together occur in at least
     * {@code least} records, each in more than {@code outliers} (a field only outliers have is no
     * shape of the topic), as fallbacks, the more frequent first.
     */
    static Map<String, SampleStats> fallbacks(Map<String, SampleStats> stats, List<Map<String, Object>> records,
                                              long least, long outliers) {
        List<String> partial = new ArrayList<>();
        stats.forEach((path, s) -> {
            if (s.present < least && s.present > outliers && s.keyable()) {
                partial.add(path);
            }
        });
        Map<String, SampleStats> found = new LinkedHashMap<>();
        for (int i = 0; i < partial.size(); i++) {
            for (int j = i + 1; j < partial.size(); j++) {
                SampleStats a = stats.get(partial.get(i));
                SampleStats b = stats.get(partial.get(j));
                if (a.present + b.present < least || a.present + b.present > records.size()) {
                    continue;
                }
                FieldPath first = FieldPath.parse(partial.get(i));
                FieldPath second = FieldPath.parse(partial.get(j));
                // A leaf of one is no leaf of the other: {"host":{"name":..}} has host, but as an object.
                boolean apart = records.stream().noneMatch(record -> leaf(first.resolve(record))
                        && leaf(second.resolve(record)));
                if (apart) {
                    boolean aFirst = a.present > b.present || a.present == b.present
                            && partial.get(i).length() >= partial.get(j).length();
                    String fallback = aFirst ? partial.get(i) + " | " + partial.get(j)
                            : partial.get(j) + " | " + partial.get(i);
                    found.put(fallback, union(records, fallback));
                }
            }
        }
        return found;
    }

    /** Whether {@code value} is a value of a field: neither absent, null nor an object. */
    static boolean leaf(Object value) {
        return value != null && value != RecordTree.NULL && !(value instanceof Map);
    }
}
