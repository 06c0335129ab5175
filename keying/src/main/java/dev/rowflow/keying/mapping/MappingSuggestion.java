package dev.rowflow.keying.mapping;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A declaration inferred from a sample of a topic's records ({@code rowflow mapping suggest}):
 * the fields with their kinds, presence, cardinality and top values; the event time and the
 * formats that read every sampled value; a salted, time-led data key with the fewest further
 * fields that keep every sampled record apart; indexes led by a host, a service or a customer;
 * columns; and the records it left out of the inference, with the reason. What the declaration
 * writes and sets aside is not its to say: {@code mapping suggest} runs it through the pipeline's
 * own decision over the whole sample and prints that.
 *
 * <h2>How</h2>
 * <ul>
 *   <li><b>Fields</b>: {@link SampleStats}.</li>
 *   <li><b>Time</b>: the field read as a time between 2000 and 2100 in the most records, at least
 *       {@value #TIME_SHARE_PERCENT} % of them ({@link TimeInference}); a field named like a time
 *       ({@code @timestamp}, {@code time}, {@code ts}) wins a near tie. Its formats are listed by
 *       the share of values they read, most first; a format fewer than one in
 *       {@value #RARE_FORMAT_DIVISOR} values (or two) are in is a stray record's, not the topic's.
 *       Records without a time those formats read are left out.</li>
 *   <li><b>The majority shape</b>: of the records with a time, a field in all but at most
 *       {@value #OUTLIER_PERCENT} % of them, of one kind in all but as many, belongs to the
 *       topic's shape; a record without it, or with a value of another kind, is an outlier (a
 *       malformed record, most often): reported, and never used to choose. A record that cannot
 *       be read is never used either. Below {@value #SMALL_SAMPLE} records nothing is an
 *       outlier.</li>
 *   <li><b>In every record</b>: of the majority, present and of one kind in all but at most one
 *       in {@value #TOLERANCE_DIVISOR} (0.2 %, none below 500 records). Two fields that never
 *       occur in one record, each in more records than outliers are, and together in every one
 *       are a fallback, the more frequent first ({@code host.name | host}: newer agents write
 *       {@code host.name}, older a {@code host} string).</li>
 *   <li><b>Key</b>: {@code bucket(N) | <time>:ts, ...}, N the larger of 8 and the topic's
 *       partitions (a salt bucket per partition's worth of writers, at least the 8 regions a
 *       table starts with). Then fields in every record: identity fields (an id, an offset, a
 *       file path, a sequence, a host) that part every sampled record even without the time,
 *       so the key stays unique when the topic is denser than the sample; else up to three
 *       fields of any name (a message) that do; else the fewest fields that part the records
 *       sharing a time. Encodings: {@link KeyInference#encoding} (free text only hashed).</li>
 *   <li><b>Indexes</b>: {@code host}, {@code service}, {@code customer}, each over the fields of
 *       that name that never occur together (a fallback; the shipper's convention first, e.g.
 *       ECS's {@code host.name}), where it is in at least one in
 *       {@value KeyInference#INDEX_SHARE_DIVISOR} of the records (sparse below all of them: a
 *       record without one has no index row) and has two values or more; led by it, then the
 *       time reversed (newest first), then the key's further fields, so index rows are as unique
 *       as data rows.</li>
 *   <li><b>Columns</b>: the fields of the key and indexes and the message by name (their last
 *       step), every other leaf under {@code f.}.</li>
 * </ul>
 *
 * <p>Not thread-safe; pure: no I/O.
 */
public final class MappingSuggestion {
    static final int TIME_SHARE_PERCENT = 90;
    static final int TOLERANCE_DIVISOR = 500;
    /** A field missing (or of another kind) in at most this share of records still makes the shape. */
    static final int OUTLIER_PERCENT = 5;
    /** A time format fewer than one in this many records (or two) are in is no format of the topic's. */
    static final int RARE_FORMAT_DIVISOR = 100;
    /** Samples smaller than this have no outliers: one record is too large a share to tell. */
    static final int SMALL_SAMPLE = 20;
    /** Sampled places reported per reason. */
    private static final int EXAMPLES = 3;

    /** One sampled record and where it was read. */
    private record Sampled(Map<String, Object> tree, String at) {
    }

    /**
     * A change event: the event as read, the row it leaves, its key's field names, its operation,
     * the columns of its before image (null: none).
     */
    private record ChangeEvent(Sampled event, Sampled row, List<String> keyNames, String op, Set<String> before) {
    }

    private final List<Sampled> records = new ArrayList<>();
    private final List<ChangeEvent> changes = new ArrayList<>();
    private final Map<String, List<String>> refused = new LinkedHashMap<>();
    private final Map<String, Long> refusedCounts = new LinkedHashMap<>();
    private final TimeInference times = new TimeInference();

    /** Adds one sampled record (its tree as its format read it). */
    public void add(Map<String, Object> record) {
        add(record, "#" + records.size());
    }

    /** Adds one sampled record read at {@code at} (e.g. {@code partition@offset}), named in the report. */
    public void add(Map<String, Object> record, String at) {
        records.add(new Sampled(record, at));
    }

    /**
     * Adds one change event of a table (Debezium's envelope, as {@code envelope=debezium} reads
     * it).
     *
     * @param row    the row the change leaves: its after image, its before image for a delete
     * @param key    the Kafka record's key (Debezium's: the primary key's columns), or null
     * @param op     the operation, {@code c r u d}
     * @param before the before image, or null
     * @param event  the whole event as read, taken as an event where most of the sample are no
     *               change events
     */
    public void addChange(Map<String, Object> row, Map<String, Object> key, String op, Map<String, Object> before,
                          Map<String, Object> event, String at) {
        List<String> keyNames = key == null ? List.of() : key.keySet().stream().map(MappingSuggestion::step).toList();
        changes.add(new ChangeEvent(new Sampled(event, at), new Sampled(row, at), keyNames, op,
                before == null ? null : Set.copyOf(before.keySet())));
    }

    /** Counts a sampled record the format cannot read (not JSON, not a change event), with the reason. */
    public void addRefused(String reason, String at) {
        refusedCounts.merge(reason, 1L, Long::sum);
        List<String> places = refused.computeIfAbsent(reason, k -> new ArrayList<>());
        if (places.size() < EXAMPLES) {
            places.add(at);
        }
    }

    /** The first format that reads {@code value} as a time between 2000 and 2100, or null. */
    static String timeFormatOf(String path, Object value) {
        return new TimeInference().formatOf(path, value);
    }

    /** At most this many of {@code n} records may lack a field that counts as in every record. */
    static long tolerance(long n) {
        return n / TOLERANCE_DIVISOR;
    }

    /** At most this many of {@code n} records lacking a field, or of another kind in it, are outliers. */
    static long outliers(long n) {
        return n < SMALL_SAMPLE ? 0 : n * OUTLIER_PERCENT / 100;
    }

    /**
     * The suggestion for the records added so far.
     *
     * @param partitions the topic's partitions
     */
    public Suggestion suggest(String input, String topic, int partitions) {
        if (!changes.isEmpty() && changes.size() * 100L >= (long) (changes.size() + records.size())
                * TIME_SHARE_PERCENT) {
            return new ChangeSuggestion(changes.stream().map(c -> new ChangeSuggestion.Change(c.row().tree(),
                    c.keyNames(), c.op(), c.before())).toList()).suggest(input, topic, partitions,
                    records.size(), refusedCount(), withRefused(outliersOf("no op: not a change event",
                            records.stream().map(Sampled::at).toList())));
        }
        List<Sampled> all = new ArrayList<>(records);
        changes.forEach(change -> all.add(change.event())); // a few change events among events are events
        List<String> reasons = new ArrayList<>();
        List<Suggestion.Outlier> outliers = new ArrayList<>();
        int n = all.size();
        Map<String, SampleStats> stats = SampleStats.of(trees(all));

        // The time: over every record, fallbacks included.
        Map<String, SampleStats> allStats = new LinkedHashMap<>(stats);
        allStats.putAll(SampleStats.fallbacks(stats, trees(all), n - n * (100 - TIME_SHARE_PERCENT) / 100,
                outliers(n)));
        String timePath = null;
        Map<String, Long> timeCounts = Map.of();
        long timeRead = 0;
        for (Map.Entry<String, SampleStats> entry : allStats.entrySet()) {
            if (entry.getValue().present * 100 < (long) n * TIME_SHARE_PERCENT) {
                continue;
            }
            Map<String, Long> counts = times.formatsOf(entry.getKey(), trees(all));
            long read = counts.values().stream().mapToLong(Long::longValue).sum();
            if (read * 100 < (long) n * TIME_SHARE_PERCENT) {
                continue;
            }
            boolean better = timePath == null || read > timeRead + tolerance(n)
                    || read >= timeRead - tolerance(n) && TimeInference.timeName(entry.getKey())
                    && !TimeInference.timeName(timePath);
            if (better) {
                timePath = entry.getKey();
                timeCounts = counts;
                timeRead = read;
            }
        }
        Map<String, Double> formats = new LinkedHashMap<>();
        List<Sampled> timed = new ArrayList<>();
        if (timePath != null) {
            // A format only a stray record or two is in is theirs, not the topic's: they are outliers.
            long rare = n < SMALL_SAMPLE ? 0 : Math.max(2, n / RARE_FORMAT_DIVISOR);
            Map<String, Long> kept = new LinkedHashMap<>(timeCounts);
            kept.values().removeIf(count -> count < rare);
            Map<String, Long> counts = kept.isEmpty() ? timeCounts : kept;
            long read = counts.values().stream().mapToLong(Long::longValue).sum();
            timeRead = read;
            counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .forEach(e -> formats.put(e.getKey(), e.getValue() / (double) read));
            reasons.add("time " + timePath + ": read as a time in " + timeRead + " of " + n + " records ("
                    + String.join(", ", formats.keySet()) + ")" + (TimeInference.timeName(timePath)
                    ? "; named like a time" : ""));
            timed.addAll(withTime(all, timePath, formats.keySet(), outliers));
        } else {
            timed.addAll(all);
            reasons.add("time: no field reads as a time in " + TIME_SHARE_PERCENT + " % of the records");
        }

        // The majority shape: what the inference chooses from.
        List<Sampled> good = majority(timed, outliers, reasons);
        long g = good.size();
        Map<String, SampleStats> goodStats = SampleStats.of(trees(good));
        goodStats.putAll(SampleStats.fallbacks(goodStats, trees(good), g - tolerance(g), outliers(timed.size())));
        List<String> always = new ArrayList<>();
        goodStats.forEach((path, s) -> {
            if (s.present >= g - tolerance(g) && g > 0) {
                always.add(path);
            }
        });
        always.removeIf(path -> path.contains(" | ") && List.of(path.split(" \\| ")).stream().anyMatch(always::contains));
        String time = timePath == null ? "$timestamp" : timePath;
        List<String> candidates = new ArrayList<>(always);
        candidates.removeIf(path -> path.equals(time) || !goodStats.get(path).keyable()
                || goodStats.get(path).ofOtherKinds() > tolerance(g));
        candidates.sort(Comparator.naturalOrder());

        KeyFields keyFields = keyFields(trees(good), timePath, candidates, reasons);
        List<String> chosen = keyFields.fields();
        boolean unique = keyFields.unique();
        long collisions = KeyInference.collisions(trees(good), time, chosen);
        int buckets = Math.max(8, partitions);
        reasons.add("salt: bucket(" + buckets + "), the larger of the topic's " + partitions
                + " partitions and 8 regions: writes of every time spread over the table");
        List<String> parts = new ArrayList<>();
        parts.add(time + ":ts");
        chosen.forEach(path -> parts.add(path + ":" + KeyInference.encoding(path, goodStats.get(path))));
        String key = "bucket(" + buckets + ") | " + String.join(", ", parts);

        Map<String, String> named = new LinkedHashMap<>(); // path -> the qualifier it would like
        chosen.forEach(path -> named.put(path, KeyInference.lastStep(path)));
        List<Suggestion.Index> indexes = KeyInference.indexes(trees(good), goodStats, time, chosen, named, reasons,
                outliers(timed.size()));
        KeyInference.MESSAGES.stream().filter(always::contains).findFirst().ifPresent(path -> named.putIfAbsent(path,
                KeyInference.lastStep(path)));
        return new Suggestion(input, topic, n + refusedCount(), fields(stats), timePath, formats, key, collisions,
                unique, indexes, KeyInference.columns(named), withRefused(outliers), reasons, null);
    }

    /** The key's fields after the time, and whether they part every sampled record without it. */
    private record KeyFields(List<String> fields, boolean unique) {
    }

    /**
     * The key's fields: identity fields that part every record without the time if the sample
     * allows, else up to {@value KeyInference#MAX_UNIQUE_FIELDS} of any name that do, else the
     * fewest that part the records of one time; why, added to {@code reasons}.
     */
    private static KeyFields keyFields(List<Map<String, Object>> good, String timePath, List<String> candidates,
                                       List<String> reasons) {
        List<String> chosen = KeyInference.greedy(good, null, candidates.stream().filter(KeyInference::identityName)
                .toList(), Integer.MAX_VALUE);
        if (chosen != null) {
            reasons.add("key: identity fields " + chosen + " part every sampled record without the time");
            return new KeyFields(chosen, true);
        }
        chosen = KeyInference.greedy(good, null, candidates, KeyInference.MAX_UNIQUE_FIELDS);
        if (chosen != null) {
            reasons.add("key: " + (chosen.isEmpty() ? "every sampled record is unique"
                    : "fields " + chosen + " part every sampled record without the time")
                    + "; no identity field (an id, an offset, a file path, a host) does");
            return new KeyFields(chosen, true);
        }
        chosen = KeyInference.greedy(good, timePath == null ? "$timestamp" : timePath, candidates, Integer.MAX_VALUE);
        chosen = chosen == null ? List.of() : chosen;
        reasons.add("key: no " + KeyInference.MAX_UNIQUE_FIELDS + " fields part the sampled records without the "
                + "time; " + (chosen.isEmpty() ? "the time alone parts them" : chosen + " part those of one time"));
        return new KeyFields(chosen, false);
    }

    /** The records whose {@code timePath} one of {@code formats} reads; the others are outliers. */
    private List<Sampled> withTime(List<Sampled> all, String timePath, Set<String> formats,
                                   List<Suggestion.Outlier> outliers) {
        FieldPath time = FieldPath.parse(timePath);
        List<Sampled> timed = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        List<String> unread = new ArrayList<>();
        Object firstUnread = null;
        for (Sampled record : all) {
            Object value = time.resolve(record.tree());
            if (value == null || value == RecordTree.NULL) {
                missing.add(record.at());
            } else if (!formats.contains(times.formatOf(timePath, value))) {
                firstUnread = unread.isEmpty() ? value : firstUnread;
                unread.add(record.at());
            } else {
                timed.add(record);
            }
        }
        outliers.addAll(outliersOf("no " + timePath, missing));
        outliers.addAll(outliersOf(timePath + " is no time in " + String.join(", ", formats) + " (e.g. '"
                + (firstUnread == null ? "" : shorten(RecordTree.scalarText(firstUnread))) + "')", unread));
        return timed;
    }

    /**
     * The records of the majority shape: those that have every field nearly all records have
     * (all but {@link #outliers}), and, in each field at least {@value #SMALL_SAMPLE} records have,
     * a value of the kind nearly all of them have there (an object counted as one). The others are
     * outliers, each under the first reason it meets.
     */
    private static List<Sampled> majority(List<Sampled> records, List<Suggestion.Outlier> outliers,
                                          List<String> reasons) {
        long n = records.size();
        if (outliers(n) == 0) {
            return records;
        }
        Map<String, SampleStats> stats = SampleStats.of(trees(records));
        List<FieldPath> fields = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<Boolean> core = new ArrayList<>();
        List<String> kinds = new ArrayList<>(); // the kind nearly every value of the field has, or null
        List<Long> counts = new ArrayList<>(); // records with the field, or with the kind
        stats.forEach((path, s) -> {
            FieldPath field = FieldPath.parse(path);
            Map<String, Long> byKind = new LinkedHashMap<>();
            records.forEach(record -> {
                Object value = field.resolve(record.tree());
                if (value != null && value != RecordTree.NULL) {
                    byKind.merge(RecordTree.kind(value), 1L, Long::sum);
                }
            });
            long present = byKind.values().stream().mapToLong(Long::longValue).sum();
            Map.Entry<String, Long> dominant = byKind.entrySet().stream().max(Map.Entry.comparingByValue()).orElse(null);
            boolean isCore = present >= n - outliers(n);
            String kind = dominant != null && present >= SMALL_SAMPLE && present - dominant.getValue() > 0
                    && present - dominant.getValue() <= outliers(present) ? dominant.getKey() : null;
            if (isCore || kind != null) {
                fields.add(field);
                names.add(path);
                core.add(isCore);
                kinds.add(kind);
                counts.add(kind != null ? dominant.getValue() : present);
            }
        });
        List<Sampled> good = new ArrayList<>();
        Map<String, List<String>> left = new LinkedHashMap<>();
        for (Sampled record : records) {
            String reason = null;
            for (int i = 0; i < fields.size() && reason == null; i++) {
                Object value = fields.get(i).resolve(record.tree());
                boolean present = value != null && value != RecordTree.NULL;
                if (!present && core.get(i)) {
                    reason = "no " + names.get(i) + ", which " + (kinds.get(i) == null ? counts.get(i) + " of " + n
                            : "nearly all of " + n) + " records have";
                } else if (present && kinds.get(i) != null && !RecordTree.kind(value).equals(kinds.get(i))) {
                    reason = names.get(i) + " is " + RecordTree.kind(value) + ", where " + counts.get(i) + " of "
                            + n + " records have " + kinds.get(i);
                }
            }
            if (reason == null) {
                good.add(record);
            } else {
                left.computeIfAbsent(reason, k -> new ArrayList<>()).add(record.at());
            }
        }
        left.forEach((reason, at) -> outliers.addAll(outliersOf(reason, at)));
        if (good.size() < n) {
            reasons.add("shape: " + (n - good.size()) + " of " + n + " records differ from the rest in a field "
                    + "nearly all have, or in the kind of a value (at most " + OUTLIER_PERCENT + " % of them): left out "
                    + "of the choice");
        }
        return good;
    }

    private static List<Map<String, Object>> trees(List<Sampled> records) {
        return records.stream().map(Sampled::tree).toList();
    }

    private long refusedCount() {
        return refusedCounts.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The records the format refuses, then {@code outliers}. */
    private List<Suggestion.Outlier> withRefused(List<Suggestion.Outlier> outliers) {
        List<Suggestion.Outlier> all = new ArrayList<>();
        refused.forEach((reason, at) -> all.add(new Suggestion.Outlier(reason, refusedCounts.get(reason),
                List.copyOf(at))));
        all.addAll(outliers);
        return all;
    }

    static List<Suggestion.Field> fields(Map<String, SampleStats> stats) {
        List<Suggestion.Field> fields = new ArrayList<>();
        stats.forEach((path, s) -> {
            Map<String, Long> top = new LinkedHashMap<>();
            s.counts.entrySet().stream().sorted(Map.Entry.<Object, Long>comparingByValue().reversed()).limit(3)
                    .forEach(e -> top.put(shorten(RecordTree.scalarText(e.getKey())), e.getValue()));
            fields.add(new Suggestion.Field(path, s.present, Map.copyOf(s.kinds), s.counts.size(), s.capped, top,
                    s.min, s.max));
        });
        return fields;
    }

    static List<Suggestion.Outlier> outliersOf(String reason, List<String> at) {
        return at.isEmpty() ? List.of() : List.of(new Suggestion.Outlier(reason, at.size(),
                List.copyOf(at.subList(0, Math.min(EXAMPLES, at.size())))));
    }

    /** {@code text} on one line (control characters escaped as in JSON), cut after 60 characters. */
    private static String shorten(String text) {
        String cut = text.length() > 60 ? text.substring(0, 60) + "..." : text;
        StringBuilder line = new StringBuilder(cut.length());
        for (char c : cut.toCharArray()) {
            switch (c) {
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                default -> line.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return line.toString();
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
