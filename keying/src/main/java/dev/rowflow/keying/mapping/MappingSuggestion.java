package dev.rowflow.keying.mapping;


import java.math.BigDecimal;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A declaration inferred from a sample of a topic's records ({@code rowflow mapping suggest}):
 * the fields with their kinds, presence and cardinality; the event time and the formats that
 * read every sampled value; a salted, time-led data key with the fewest further fields that keep
 * every sampled record apart; a host-led index where the records have a host; every field as a
 * column.
 *
 * <h2>How</h2>
 * <ul>
 *   <li><b>Fields</b>: each leaf of each record, objects descended, arrays one leaf, by dotted
 *       path ({@code host.name}; a key with a dot in it is found by the same path). Two fields
 *       that never occur in one record and together occur in every one are a fallback, the more
 *       frequent first ({@code host.name | host}), and count as present in every record.</li>
 *   <li><b>Time</b>: of the fields present in every record, those whose every value reads as a
 *       time between 2000 and 2100 in one of {@code iso8601}, {@code epoch-s}, {@code epoch-ms},
 *       {@code epoch-us}, {@code epoch-ns} (epoch units told apart by magnitude, as Druid's
 *       loader does); the formats are listed by the share of values they read, most first. A
 *       field named like a time ({@code @timestamp}, {@code time}, {@code ts}) wins a tie.</li>
 *   <li><b>Key</b>: {@code bucket(N) | <time>:ts, ...}, N the larger of 8 and the topic's
 *       partitions; then, while two sampled records with different values share a key, the
 *       field present in every record that parts the most of them is added -- an identity field
 *       (an id, an offset, a file, a sequence, a host) where one parts any, so the key stays
 *       unique beyond the sample; long text is hashed ({@code md5}), whole numbers {@code long}.</li>
 * </ul>
 *
 * <p>Not thread-safe; pure: no I/O.
 */
public final class MappingSuggestion {
    private static final List<String> EPOCHS = List.of("epoch-s", "epoch-ms", "epoch-us", "epoch-ns");
    private static final long YEAR_2000 = 946_684_800_000L;
    private static final long YEAR_2100 = 4_102_444_800_000L;
    /** Text longer than this in a key is hashed. */
    private static final int LONG_TEXT = 32;

    /** What the sample says of one field. */
    public record Field(String path, long present, Set<String> kinds, long distinct, boolean distinctCapped,
                        List<String> examples) {
    }

    /**
     * The suggestion.
     *
     * @param timePath    the event time's field, or null if no field reads as a time in every record
     * @param timeFormats the formats, in order, with the share of values each reads first
     * @param key         the data key layout
     * @param collisions  sampled records (with different values) that still share a key
     * @param index       the host-led index layout, or null
     */
    public record Suggestion(String input, String topic, long records, List<Field> fields, String timePath,
                             Map<String, Double> timeFormats, String key, long collisions, String index,
                             String columns) {

        /** The declaration as properties, commented, that {@code rowflow run} takes as it is. */
        public String properties() {
            StringBuilder s = new StringBuilder();
            String p = "input." + input + ".";
            s.append("# Suggested from ").append(records).append(" records of topic ").append(topic).append('\n');
            s.append("inputs=").append(input).append('\n');
            s.append(p).append("topic=").append(topic).append('\n');
            s.append(p).append("format=json\n");
            if (timePath != null) {
                s.append("# ").append(String.join(", ", timeFormats.entrySet().stream().map(e -> e.getKey() + " "
                        + Math.round(e.getValue() * 100) + " %").toList())).append(" of the sampled times\n");
                s.append(p).append("time=").append(timePath).append('\n');
                s.append(p).append("time.format=").append(String.join(", ", timeFormats.keySet())).append('\n');
            } else {
                s.append("# No field reads as a time in every record: rows take the Kafka record's timestamp\n");
                s.append(p).append("time=$timestamp\n");
                s.append(p).append("time.format=epoch-ms\n");
            }
            s.append("# ").append(collisions == 0 ? "Keeps every sampled record apart"
                    : collisions + " sampled records still share a key with another").append('\n');
            s.append(p).append("key=").append(key).append('\n');
            s.append(p).append("columns=").append(columns).append('\n');
            if (index != null) {
                s.append(p).append("indexes=host\n");
                s.append(p).append("index.host.key=").append(index).append('\n');
            }
            return s.toString();
        }
    }

    private final Map<String, Stats> stats = new LinkedHashMap<>();
    private final List<Map<String, Object>> records = new ArrayList<>();

    private static final class Stats {
        long present;
        final Set<String> kinds = new java.util.TreeSet<>();
        final Set<Object> distinct = new HashSet<>();
        boolean capped;
        final List<String> examples = new ArrayList<>();
    }

    /** Adds one sampled record (its tree as its format read it). */
    public void add(Map<String, Object> record) {
        records.add(record);
        walk("", record);
    }

    private void walk(String prefix, Map<?, ?> object) {
        for (Map.Entry<?, ?> entry : object.entrySet()) {
            String step = step(entry.getKey().toString());
            String path = prefix.isEmpty() ? step : prefix + "." + step;
            Object value = entry.getValue();
            if (value instanceof Map<?, ?> nested && !nested.isEmpty()) {
                walk(path, nested);
                continue;
            }
            if (value == null || value == RecordTree.NULL) {
                continue;
            }
            Stats s = stats.computeIfAbsent(path, k -> new Stats());
            s.present++;
            s.kinds.add(RecordTree.kind(value));
            Object comparable = RecordTree.isScalar(value) ? value : RecordTree.scalarText(
                    new String(RecordTree.compactJson(value), java.nio.charset.StandardCharsets.UTF_8));
            if (s.distinct.size() < 10_000) {
                s.distinct.add(comparable);
            } else {
                s.capped = true;
            }
            if (s.examples.size() < 3) {
                String text = RecordTree.isScalar(value) ? RecordTree.scalarText(value)
                        : new String(RecordTree.compactJson(value), java.nio.charset.StandardCharsets.UTF_8);
                if (!s.examples.contains(text)) {
                    s.examples.add(text.length() > 60 ? text.substring(0, 60) + "..." : text);
                }
            }
        }
    }

    /**
     * The suggestion for the records added so far.
     *
     * @param partitions the topic's partitions
     */
    public Suggestion suggest(String input, String topic, int partitions) {
        stats.keySet().removeIf(path -> path.contains(" | ")); // made again by each suggest
        List<Field> fields = new ArrayList<>();
        stats.forEach((path, s) -> fields.add(new Field(path, s.present, Set.copyOf(s.kinds), s.distinct.size(),
                s.capped, List.copyOf(s.examples))));
        List<String> always = new ArrayList<>();
        stats.forEach((path, s) -> {
            if (s.present == records.size()) {
                always.add(path);
            }
        });
        always.addAll(fallbacks());
        String timePath = null;
        Map<String, Double> formats = Map.of();
        int best = -1;
        for (String path : always) {
            Map<String, Double> read = timeFormats(path);
            if (read == null) {
                continue;
            }
            int score = timeName(path) ? 1 : 0;
            if (score > best) {
                best = score;
                timePath = path;
                formats = read;
            }
        }
        int buckets = Math.max(8, partitions);
        List<String> parts = new ArrayList<>();
        parts.add(timePath == null ? "$timestamp:ts" : timePath + ":ts");
        List<String> chosen = new ArrayList<>();
        long collisions = collisions(timePath, chosen);
        List<String> candidates = new ArrayList<>(always);
        candidates.remove(timePath);
        candidates.removeIf(path -> !stats.get(path).kinds.stream().allMatch(k -> k.equals("text")
                || k.equals("a whole number")));
        while (collisions > 0 && !candidates.isEmpty()) {
            // Identity fields first: a key of them stays unique beyond the sample; other fields
            // (a message) only where no identity field parts any more records.
            String pick = null;
            long fewest = collisions;
            candidates.sort(Comparator.comparing((String path) -> path));
            for (boolean identity : new boolean[] {true, false}) {
                for (String candidate : candidates) {
                    if (identityName(candidate) != identity) {
                        continue;
                    }
                    List<String> with = new ArrayList<>(chosen);
                    with.add(candidate);
                    long left = collisions(timePath, with);
                    if (left < fewest) {
                        fewest = left;
                        pick = candidate;
                    }
                }
                if (pick != null) {
                    break;
                }
            }
            if (pick == null) {
                break;
            }
            chosen.add(pick);
            candidates.remove(pick);
            collisions = fewest;
        }
        for (String path : chosen) {
            parts.add(path + ":" + encoding(path));
        }
        String key = "bucket(" + buckets + ") | " + String.join(", ", parts);
        String host = always.stream().filter(path -> List.of(path.split(" \\| ")).stream().allMatch(
                alternative -> alternative.equals("host.name") || alternative.equals("host")
                        || alternative.equals("hostname"))).findFirst().orElse(null);
        String index = null;
        if (host != null && stats.get(host).kinds.equals(Set.of("text"))) {
            List<String> indexParts = new ArrayList<>();
            indexParts.add(host + ":text");
            indexParts.add(timePath == null ? "$timestamp:rts" : timePath + ":rts");
            for (String path : chosen) {
                if (!path.equals(host)) {
                    indexParts.add(path + ":" + encoding(path));
                }
            }
            index = String.join(", ", indexParts);
        }
        // An index part must be a column of the data row; a wildcard keeps no fallback's value.
        List<String> columns = new ArrayList<>();
        if (index != null) {
            List.of(index.split(", ")).stream().map(part -> part.substring(0, part.lastIndexOf(':')))
                    .filter(part -> part.contains(" | ")).forEach(columns::add);
        }
        columns.add("*=f.*");
        return new Suggestion(input, topic, records.size(), fields, timePath, formats, key, collisions, index,
                String.join(", ", columns));
    }

    /**
     * Pairs of scalar fields that never occur in one record and together occur in every one, as
     * fallbacks, the more frequent first ({@code host.name | host}: newer agents write
     * {@code host.name}, older ones a {@code host} string).
     */
    private List<String> fallbacks() {
        List<String> partial = new ArrayList<>();
        stats.forEach((path, s) -> {
            if (s.present < records.size() && s.kinds.stream().allMatch(k -> k.equals("text")
                    || k.equals("a whole number"))) {
                partial.add(path);
            }
        });
        List<String> found = new ArrayList<>();
        for (int i = 0; i < partial.size(); i++) {
            for (int j = i + 1; j < partial.size(); j++) {
                Stats a = stats.get(partial.get(i));
                Stats b = stats.get(partial.get(j));
                if (a.present + b.present != records.size()) {
                    continue;
                }
                FieldPath first = FieldPath.parse(partial.get(i));
                FieldPath second = FieldPath.parse(partial.get(j));
                // A leaf of one is no leaf of the other: {"host":{"name":..}} has host, but as an object.
                boolean apart = records.stream().allMatch(record -> leaf(first.resolve(record))
                        != leaf(second.resolve(record)));
                if (apart) {
                    boolean aFirst = a.present > b.present || a.present == b.present
                            && partial.get(i).length() >= partial.get(j).length();
                    String fallback = aFirst ? partial.get(i) + " | " + partial.get(j)
                            : partial.get(j) + " | " + partial.get(i);
                    Stats union = new Stats();
                    union.present = records.size();
                    union.kinds.addAll(a.kinds);
                    union.kinds.addAll(b.kinds);
                    union.examples.addAll(a.examples);
                    union.examples.addAll(b.examples);
                    stats.putIfAbsent(fallback, union);
                    found.add(fallback);
                }
            }
        }
        return found;
    }

    private static boolean leaf(Object value) {
        return value != null && value != RecordTree.NULL && !(value instanceof Map);
    }

    /** The formats that read every value of {@code path} as a plausible time, with their shares; null if none do. */
    private Map<String, Double> timeFormats(String path) {
        FieldPath field = FieldPath.parse(path);
        Map<String, Long> counts = new LinkedHashMap<>();
        for (Map<String, Object> record : records) {
            Object value = field.resolve(record);
            String format = timeFormatOf(path, value);
            if (format == null) {
                return null;
            }
            counts.merge(format, 1L, Long::sum);
        }
        Map<String, Double> shares = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> shares.put(e.getKey(), e.getValue() / (double) records.size()));
        return shares;
    }

    /** The first format that reads {@code value} as a time between 2000 and 2100, or null. */
    static String timeFormatOf(String path, Object value) {
        List<String> tries = new ArrayList<>();
        if (value instanceof String) {
            tries.add("iso8601");
        }
        BigDecimal number = number(value);
        if (number != null) {
            double magnitude = number.abs().doubleValue();
            tries.add(magnitude < 1e11 ? "epoch-s" : magnitude < 1e14 ? "epoch-ms" : magnitude < 1e17 ? "epoch-us"
                    : "epoch-ns");
        }
        for (String format : tries) {
            try {
                long millis = TimeFormat.parse(format, ZoneOffset.UTC).millis(path, value);
                if (millis >= YEAR_2000 && millis < YEAR_2100) {
                    return format;
                }
            } catch (IllegalArgumentException e) { // InvalidEventException among them
                // not this format
            }
        }
        return null;
    }

    private static BigDecimal number(Object value) {
        if (value instanceof Number n) {
            return n instanceof BigDecimal d ? d : new BigDecimal(n.toString());
        }
        if (value instanceof String text && text.matches("[0-9]{9,19}(\\.[0-9]+)?")) {
            return new BigDecimal(text);
        }
        return null;
    }

    /** Sampled records with different values that share the key of the time and {@code fields} with an earlier one. */
    private long collisions(String timePath, List<String> fields) {
        List<FieldPath> paths = new ArrayList<>();
        if (timePath != null) {
            paths.add(FieldPath.parse(timePath));
        }
        fields.forEach(field -> paths.add(FieldPath.parse(field)));
        Map<List<Object>, Map<String, Object>> seen = new HashMap<>();
        long collisions = 0;
        for (Map<String, Object> record : records) {
            List<Object> key = new ArrayList<>(paths.size());
            for (FieldPath path : paths) {
                key.add(path.resolve(record));
            }
            Map<String, Object> earlier = seen.putIfAbsent(key, record);
            if (earlier != null && !Objects.equals(earlier, record)) {
                collisions++;
            }
        }
        return collisions;
    }

    private String encoding(String path) {
        Stats s = stats.get(path);
        if (s.kinds.equals(Set.of("a whole number"))) {
            return "long";
        }
        boolean longText = s.examples.stream().anyMatch(example -> example.length() > LONG_TEXT);
        return longText ? "md5" : "text";
    }

    private static boolean timeName(String path) {
        String last = path.substring(path.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        return last.equals("@timestamp") || last.contains("time") || last.equals("ts") || last.equals("date");
    }

    private static boolean identityName(String path) {
        String last = path.toLowerCase(Locale.ROOT);
        return last.endsWith("id") || last.endsWith("offset") || last.endsWith("file.path") || last.endsWith("seq")
                || last.endsWith("sequence") || last.endsWith("host.name") || last.endsWith("host");
    }

    /**
     * A name as a path step: as it is where {@link FieldPath} takes it unquoted (a dot in it is
     * found by the dotted-key lookup), quoted where it holds other characters a path cannot, is a
     * number or a keyword, or starts with {@code $}.
     */
    static String step(String name) {
        boolean plain = !name.isEmpty() && !name.startsWith("$") && !name.matches("[0-9]+")
                && !List.of("and", "or", "not", "in", "matches", "true", "false", "null").contains(name);
        for (int i = 0; plain && i < name.length(); i++) {
            char c = name.charAt(i);
            plain = c == '.' || !Character.isWhitespace(c) && "[]\",|:=*+()'".indexOf(c) < 0;
        }
        return plain ? name : '"' + name.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
