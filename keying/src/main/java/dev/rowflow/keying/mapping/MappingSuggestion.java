package dev.rowflow.keying.mapping;


import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A declaration inferred from a sample of a topic's records ({@code rowflow mapping suggest}):
 * the fields with their kinds, presence, cardinality and top values; the event time and the
 * formats that read every sampled value; a salted, time-led data key with the fewest further
 * fields that keep every sampled record apart; indexes led by a host, a service or a customer;
 * columns; and the sampled records the declaration would set aside, with the reason.
 *
 * <h2>How</h2>
 * <ul>
 *   <li><b>Fields</b>: each leaf of each record, objects descended, arrays one leaf, by dotted
 *       path ({@code host.name}; a flat key with a dot in it is found by the same path, so
 *       {@code "log.level":"warn"} and {@code "log":{"level":"warn"}} are one field).</li>
 *   <li><b>Time</b>: the field read as a time between 2000 and 2100 in the most records, at least
 *       {@value #TIME_SHARE_PERCENT} % of them, in {@code iso8601}, an epoch unit told by magnitude
 *       (as Druid's loader does) or one of the {@link #PATTERNS common patterns}; a field named
 *       like a time ({@code @timestamp}, {@code time}, {@code ts}) wins a near tie. Its formats are
 *       listed by the share of values they read, most first. Records without a time it reads are
 *       set aside (reported); the rest of the inference looks at the others only.</li>
 *   <li><b>In every record</b>: present, and of one kind, in all but at most one in
 *       {@value #TOLERANCE_DIVISOR} of the records with a time (0.2 %, none below 500 records). A
 *       record without such a field, or with a value of another kind, is set aside where the
 *       field is part of the key, reported with the reason. Two fields that never occur in one
 *       record and together are in every one are a fallback, the more frequent first
 *       ({@code host.name | host}: newer agents write {@code host.name}, older a {@code host}
 *       string).</li>
 *   <li><b>Key</b>: {@code bucket(N) | <time>:ts, ...}, N the larger of 8 and the topic's
 *       partitions (a salt bucket per partition's worth of writers, at least the 8 regions a
 *       table starts with). Then fields in every record: identity fields (an id, an offset, a
 *       file path, a sequence, a host) that part every sampled record even without the time,
 *       so the key stays unique when the topic is denser than the sample; else up to three
 *       fields of any name (a message) that do; else the fewest fields that part the records
 *       sharing a time. Long text or text holding NUL is hashed ({@code md5}), whole numbers are
 *       {@code long}.</li>
 *   <li><b>Indexes</b>: {@code host}, {@code service}, {@code customer}, each over the fields of
 *       that name that never occur together (a fallback), where it is text in at least one in
 *       {@value #INDEX_SHARE_DIVISOR} of the records (sparse below all of them: a record without one has no index row) and has
 *       two values or more; led by it, then the time reversed (newest first), then the key's
 *       further fields, so index rows are as unique as data rows.</li>
 *   <li><b>Columns</b>: the fields of the key and indexes and the message by name (their last
 *       step), every other leaf under {@code f.}.</li>
 * </ul>
 *
 * <p>Not thread-safe; pure: no I/O.
 */
public final class MappingSuggestion {
    private static final long YEAR_2000 = 946_684_800_000L;
    private static final long YEAR_2100 = 4_102_444_800_000L;
    /** Text longer than this in a key is hashed. */
    private static final int LONG_TEXT = 32;
    static final int TIME_SHARE_PERCENT = 90;
    static final int TOLERANCE_DIVISOR = 500;
    /** Distinct values counted per field; past it the count is a lower bound. */
    private static final int DISTINCT_CAP = 10_000;
    /** Fields of any name a key may take to part records without the time. */
    private static final int MAX_UNIQUE_FIELDS = 3;
    /** An index's lead must be in at least one in this many records. */
    static final int INDEX_SHARE_DIVISOR = 5;
    /** Sampled places reported per reason. */
    private static final int EXAMPLES = 3;

    /**
     * Time patterns tried on text that is no ISO-8601 with an offset, in this order: access logs
     * (nginx, Apache), SQL-style and naive ISO local times (read in UTC, the default
     * {@code time.zone}), RFC 1123 mail/HTTP dates.
     */
    static final List<String> PATTERNS = List.of("pattern:dd/MMM/yyyy:HH:mm:ss Z",
            "pattern:yyyy-MM-dd HH:mm:ss[.SSSSSSSSS][.SSSSSS][.SSS]",
            "pattern:yyyy-MM-dd'T'HH:mm:ss[.SSSSSSSSS][.SSSSSS][.SSS]", "pattern:EEE, d MMM yyyy HH:mm:ss Z");
    private static final Map<String, TimeFormat> FORMATS = new HashMap<>();

    private static final List<String> HOSTS = List.of("host.name", "host", "hostname", "host.hostname",
            "kubernetes.host", "kubernetes.node_name", "agent.hostname");
    private static final List<String> SERVICES = List.of("service.name", "service", "app", "application",
            "kubernetes.labels.app");
    private static final List<String> CUSTOMERS = List.of("customer.id", "customer_id", "customerId", "customer");
    private static final List<String> MESSAGES = List.of("message", "log", "msg", "event.original");

    /**
     * What the sample says of one field.
     *
     * @param kinds  records per kind of value ({@code text}, {@code a whole number}, ...)
     * @param top    the most frequent values with their counts, most first (at most three)
     * @param min    the least number, or null where no value is a number
     */
    public record Field(String path, long present, Map<String, Long> kinds, long distinct, boolean distinctCapped,
                        Map<String, Long> top, BigDecimal min, BigDecimal max) {
    }

    /** Sampled records the declaration sets aside for one reason, with where the first are. */
    public record SetAside(String reason, long records, List<String> at) {
    }

    /**
     * An index table: its name, key layout, and how many of the sampled records with a time have
     * its leading field (and so an index row).
     */
    public record Index(String name, String key, long records, long of) {

        /** Whether some records have no row in it. */
        public boolean sparse() {
            return records < of;
        }
    }

    /**
     * The suggestion.
     *
     * @param records     records sampled (that were objects)
     * @param timePath    the event time's field, or null if none reads as a time often enough
     * @param timeFormats the formats, in order, with the share of read values each reads first
     * @param key         the data key layout
     * @param collisions  sampled records (with different values) that still share a key
     * @param unique      whether the key's fields part every sampled record without the time (of
     *                    change events: whether they are the primary key the records' keys carry)
     * @param setAside    records the declaration sets aside, by reason
     * @param reasons     why each part was chosen, for {@code --explain}
     * @param beforeImage for a topic of change events ({@code envelope=debezium}), {@code full} or
     *                    {@code partial}; null for a topic of events
     */
    public record Suggestion(String input, String topic, long records, List<Field> fields, String timePath,
                             Map<String, Double> timeFormats, String key, long collisions, boolean unique,
                             List<Index> indexes, String columns, List<SetAside> setAside, List<String> reasons,
                             String beforeImage) {

        /** Records the declaration sets aside. */
        public long setAsideRecords() {
            return setAside.stream().mapToLong(SetAside::records).sum();
        }

        /** The declaration of a JSON topic as properties, commented, that {@code rowflow run} takes as it is. */
        public String properties() {
            return properties(List.of("format=json"));
        }

        /**
         * The declaration as properties, commented, that {@code rowflow run} takes as it is.
         *
         * @param format the input's keys that say how its records read, without the input's prefix
         *               ({@code format=avro-registry}, {@code registry.url=...})
         */
        public String properties(List<String> format) {
            StringBuilder s = new StringBuilder();
            String p = "input." + input + ".";
            s.append("# Suggested from ").append(records).append(" records of topic ").append(topic).append('\n');
            s.append("inputs=").append(input).append('\n');
            s.append(p).append("topic=").append(topic).append('\n');
            format.forEach(line -> s.append(p).append(line).append('\n'));
            if (beforeImage != null) {
                s.append("# Change events: each row the table's row as of its last change, at the change's time\n");
                s.append(p).append("envelope=debezium\n");
                s.append("# ").append(beforeImage.equals("full") ? "Every sampled update and delete carries the whole "
                        + "row before it: no change reads its stored row" : "Some sampled updates or deletes carry no "
                        + "whole row before them: each change reads its stored row").append('\n');
                s.append(p).append("before.image=").append(beforeImage).append('\n');
                s.append("# The time of each change in the database\n");
                s.append(p).append("time=").append(timePath).append('\n');
                s.append(p).append("time.format=").append(String.join(", ", timeFormats.keySet())).append('\n');
                s.append("# ").append(unique ? "The table's primary key: each change replaces its row"
                        : "No primary key in the records' keys (a table without one?): the fewest columns that part "
                        + "the sampled rows; or give the connector message.key.columns").append('\n');
            } else {
                if (timePath != null) {
                    s.append("# ").append(String.join(", ", timeFormats.entrySet().stream().map(e -> e.getKey() + " "
                            + percent(e.getValue())).toList())).append(" of the sampled times\n");
                    s.append(p).append("time=").append(timePath).append('\n');
                    s.append(p).append("time.format=").append(String.join(", ", timeFormats.keySet())).append('\n');
                } else {
                    s.append("# No field reads as a time in ").append(TIME_SHARE_PERCENT)
                            .append(" % of the records: rows take the Kafka record's timestamp\n");
                    s.append(p).append("time=$timestamp\n");
                    s.append(p).append("time.format=epoch-ms\n");
                }
                s.append("# ").append(collisions > 0 ? collisions + " sampled records still share a key with another"
                        : unique ? "Keeps every sampled record apart, even without the time"
                        : "Keeps every sampled record apart only with the time: records of one millisecond may share a "
                                + "key").append('\n');
            }
            s.append(p).append("key=").append(key).append('\n');
            s.append(p).append("columns=").append(columns).append('\n');
            if (!indexes.isEmpty()) {
                s.append(p).append("indexes=").append(String.join(", ", indexes.stream().map(Index::name).toList()))
                        .append('\n');
                for (Index index : indexes) {
                    if (index.sparse()) {
                        s.append("# Sparse: ").append(index.records()).append(" of ").append(index.of())
                                .append(" sampled records have a row in it\n");
                    }
                    s.append(p).append("index.").append(index.name()).append(".key=").append(index.key()).append('\n');
                }
            }
            return s.toString();
        }

        private static String percent(double share) {
            double value = share * 100;
            return (value >= 1 || value == 0 ? Long.toString(Math.round(value))
                    : String.format(Locale.ROOT, "%.2f", value)) + " %";
        }
    }

    /** One sampled record and where it was read. */
    private record Sampled(Map<String, Object> tree, String at) {
    }

    /**
     * A change event: the event as read, the row it leaves, its key's field names, its operation,
     * the columns of its before image (null: none).
     */
    private record ChangeEvent(Sampled event, Sampled row, List<String> keyNames, String op, Set<String> before) {
    }

    private final Map<String, Stats> stats = new LinkedHashMap<>();
    private final List<Sampled> records = new ArrayList<>();
    private final List<ChangeEvent> changes = new ArrayList<>();
    private final Map<String, List<String>> refused = new LinkedHashMap<>();
    private final Map<String, Long> refusedCounts = new LinkedHashMap<>();

    private static final class Stats {
        long present;
        final Map<String, Long> kinds = new TreeMap<>();
        final Map<Object, Long> counts = new HashMap<>();
        boolean capped;
        int longestText;
        boolean nul;
        BigDecimal min;
        BigDecimal max;

        String dominantKind() {
            return kinds.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse("");
        }

        long ofOtherKinds() {
            return present - kinds.getOrDefault(dominantKind(), 0L);
        }
    }

    /** Adds one sampled record (its tree as its format read it). */
    public void add(Map<String, Object> record) {
        add(record, "#" + records.size());
    }

    /** Adds one sampled record read at {@code at} (e.g. {@code partition@offset}), named in the report. */
    public void add(Map<String, Object> record, String at) {
        records.add(new Sampled(record, at));
        walk("", record, stats);
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

    private long refusedCount() {
        return refusedCounts.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The records the format refuses, then {@code setAside}. */
    private List<SetAside> withRefused(List<SetAside> setAside) {
        List<SetAside> all = new ArrayList<>();
        refused.forEach((reason, at) -> all.add(new SetAside(reason, refusedCounts.get(reason), List.copyOf(at))));
        all.addAll(setAside);
        return all;
    }

    private static void walk(String prefix, Map<?, ?> object, Map<String, Stats> into) {
        for (Map.Entry<?, ?> entry : object.entrySet()) {
            String step = step(entry.getKey().toString());
            String path = prefix.isEmpty() ? step : prefix + "." + step;
            Object value = entry.getValue();
            if (value instanceof Map<?, ?> nested && !nested.isEmpty()) {
                walk(path, nested, into);
                continue;
            }
            if (value == null || value == RecordTree.NULL) {
                continue;
            }
            Stats s = into.computeIfAbsent(path, k -> new Stats());
            count(s, value);
        }
    }

    private static void count(Stats s, Object value) {
        s.present++;
        s.kinds.merge(RecordTree.kind(value), 1L, Long::sum);
        String text = RecordTree.isScalar(value) ? RecordTree.scalarText(value)
                : new String(RecordTree.compactJson(value), StandardCharsets.UTF_8);
        Object comparable = RecordTree.isScalar(value) ? value : text;
        if (s.counts.size() < DISTINCT_CAP || s.counts.containsKey(comparable)) {
            s.counts.merge(comparable, 1L, Long::sum);
        } else {
            s.capped = true;
        }
        if (value instanceof String string) {
            s.longestText = Math.max(s.longestText, string.length());
            s.nul |= string.indexOf('\0') >= 0;
        }
        if (value instanceof Number number) {
            BigDecimal decimal = number instanceof BigDecimal d ? d : new BigDecimal(number.toString());
            s.min = s.min == null || decimal.compareTo(s.min) < 0 ? decimal : s.min;
            s.max = s.max == null || decimal.compareTo(s.max) > 0 ? decimal : s.max;
        }
    }

    /** At most this many of {@code n} records may lack a field that counts as in every record. */
    static long tolerance(long n) {
        return n / TOLERANCE_DIVISOR;
    }

    /**
     * The suggestion for the records added so far.
     *
     * @param partitions the topic's partitions
     */
    public Suggestion suggest(String input, String topic, int partitions) {
        if (changes.size() * 100L >= (long) (changes.size() + records.size()) * TIME_SHARE_PERCENT
                && !changes.isEmpty()) {
            return suggestChanges(input, topic, partitions);
        }
        for (ChangeEvent change : changes) { // a few change events among events are events
            records.add(change.event());
            walk("", change.event().tree(), stats);
        }
        changes.clear();
        List<String> reasons = new ArrayList<>();
        List<SetAside> setAside = new ArrayList<>();
        int n = records.size();

        // The time: over every record, fallbacks included.
        Map<String, Stats> allStats = new LinkedHashMap<>(stats);
        allStats.putAll(fallbacks(stats, records, n - n * (100 - TIME_SHARE_PERCENT) / 100));
        String timePath = null;
        Map<String, Long> timeCounts = Map.of();
        long timeRead = 0;
        for (Map.Entry<String, Stats> entry : allStats.entrySet()) {
            if (entry.getValue().present * 100 < (long) n * TIME_SHARE_PERCENT) {
                continue;
            }
            Map<String, Long> counts = timeFormats(entry.getKey());
            long read = counts.values().stream().mapToLong(Long::longValue).sum();
            if (read * 100 < (long) n * TIME_SHARE_PERCENT) {
                continue;
            }
            boolean better = timePath == null || read > timeRead + tolerance(n)
                    || read >= timeRead - tolerance(n) && timeName(entry.getKey()) && !timeName(timePath);
            if (better) {
                timePath = entry.getKey();
                timeCounts = counts;
                timeRead = read;
            }
        }
        Map<String, Double> formats = new LinkedHashMap<>();
        List<Sampled> good = new ArrayList<>();
        if (timePath != null) {
            long read = timeRead;
            timeCounts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .forEach(e -> formats.put(e.getKey(), e.getValue() / (double) read));
            reasons.add("time " + timePath + ": read as a time in " + timeRead + " of " + n + " records ("
                    + String.join(", ", formats.keySet()) + ")" + (timeName(timePath) ? "; named like a time" : ""));
            FieldPath time = FieldPath.parse(timePath);
            List<String> missing = new ArrayList<>();
            List<String> unread = new ArrayList<>();
            Object firstUnread = null;
            for (Sampled record : records) {
                Object value = time.resolve(record.tree());
                if (value == null || value == RecordTree.NULL) {
                    missing.add(record.at());
                } else if (timeFormatOf(timePath, value) == null) {
                    firstUnread = unread.isEmpty() ? value : firstUnread;
                    unread.add(record.at());
                } else {
                    good.add(record);
                }
            }
            addSetAside(setAside, "no " + timePath, missing);
            addSetAside(setAside, timePath + " is no time in " + String.join(", ", formats.keySet()) + " (e.g. '"
                    + (firstUnread == null ? "" : shorten(RecordTree.scalarText(firstUnread))) + "')", unread);
        } else {
            good.addAll(records);
            reasons.add("time: no field reads as a time in " + TIME_SHARE_PERCENT + " % of the records");
        }

        // Over the records with a time: what is in every one of them.
        long g = good.size();
        long tolerance = tolerance(g);
        Map<String, Stats> goodStats = new LinkedHashMap<>();
        good.forEach(record -> walk("", record.tree(), goodStats));
        goodStats.putAll(fallbacks(goodStats, good, g - tolerance));
        List<String> always = new ArrayList<>();
        goodStats.forEach((path, s) -> {
            if (s.present >= g - tolerance && g > 0) {
                always.add(path);
            }
        });
        always.removeIf(path -> path.contains(" | ") && List.of(path.split(" \\| ")).stream().anyMatch(always::contains));
        String time = timePath;
        List<String> candidates = new ArrayList<>(always);
        candidates.removeIf(path -> path.equals(time) || !(goodStats.get(path).dominantKind().equals("text")
                || goodStats.get(path).dominantKind().equals("a whole number"))
                || goodStats.get(path).ofOtherKinds() > tolerance);
        candidates.sort(Comparator.naturalOrder());

        // The key's fields: unique without the time if the sample allows, else with it.
        List<String> chosen = greedy(good, null, candidates.stream().filter(MappingSuggestion::identityName).toList(),
                Integer.MAX_VALUE);
        boolean unique = chosen != null;
        if (unique) {
            reasons.add("key: identity fields " + chosen + " part every sampled record without the time");
        } else {
            chosen = greedy(good, null, candidates, MAX_UNIQUE_FIELDS);
            unique = chosen != null;
            if (unique) {
                reasons.add("key: " + (chosen.isEmpty() ? "every sampled record is unique"
                        : "fields " + chosen + " part every sampled record without the time")
                        + "; no identity field (an id, an offset, a file path, a host) does");
            }
        }
        if (!unique) {
            chosen = greedy(good, timePath == null ? "$timestamp" : timePath, candidates, Integer.MAX_VALUE);
            if (chosen == null) {
                chosen = List.of();
            }
            reasons.add("key: no " + MAX_UNIQUE_FIELDS + " fields part the sampled records without the time; "
                    + (chosen.isEmpty() ? "the time alone parts them" : chosen + " part those of one time"));
        }
        long collisions = collisions(good, timePath == null ? "$timestamp" : timePath, chosen);
        int buckets = Math.max(8, partitions);
        reasons.add("salt: bucket(" + buckets + "), the larger of the topic's " + partitions
                + " partitions and 8 regions: writes of every time spread over the table");
        List<String> parts = new ArrayList<>();
        parts.add((timePath == null ? "$timestamp" : timePath) + ":ts");
        Map<String, String> required = new LinkedHashMap<>(); // path -> the kind of value it must have
        for (String path : chosen) {
            parts.add(path + ":" + encoding(goodStats.get(path)));
            required.put(path, goodStats.get(path).dominantKind());
        }
        String key = "bucket(" + buckets + ") | " + String.join(", ", parts);

        Map<String, String> named = new LinkedHashMap<>(); // path -> the qualifier it would like
        chosen.forEach(path -> named.put(path, lastStep(path)));
        List<Index> indexes = indexes(good, goodStats, timePath == null ? "$timestamp" : timePath, chosen, named,
                reasons);
        setAside.addAll(refused(good, required, leads(indexes, goodStats, good)));
        MESSAGES.stream().filter(always::contains).findFirst().ifPresent(path -> named.putIfAbsent(path,
                lastStep(path)));
        return new Suggestion(input, topic, n + refusedCount(), fields(stats), timePath, formats, key, collisions, unique,
                indexes, columns(named), withRefused(setAside), reasons, null);
    }

    /**
     * The suggestion for a table's change events: the row key the Kafka records' keys carry (the
     * table's primary key, Debezium's record key) under a salt, the change's time in the database
     * ({@code $source.ts_ms}), indexes as for events but without the time (a row's index row moves
     * with it), every column by name, and {@code before.image=full} where every sampled update
     * and delete carries the whole row before it.
     */
    private Suggestion suggestChanges(String input, String topic, int partitions) {
        List<String> reasons = new ArrayList<>();
        List<Sampled> rows = changes.stream().map(ChangeEvent::row).toList();
        long g = rows.size();
        Map<String, Stats> rowStats = new LinkedHashMap<>();
        rows.forEach(row -> walk("", row.tree(), rowStats));
        Map<String, Long> keyNames = new LinkedHashMap<>();
        changes.forEach(change -> change.keyNames().forEach(name -> keyNames.merge(name, 1L, Long::sum)));
        List<String> chosen = new ArrayList<>(keyNames.entrySet().stream().filter(e -> e.getValue() * 100
                >= g * TIME_SHARE_PERCENT && rowStats.containsKey(e.getKey())).map(Map.Entry::getKey).toList());
        boolean primaryKey = !chosen.isEmpty();
        if (primaryKey) {
            reasons.add("key: " + chosen + ", the primary key the records' keys carry");
        } else {
            List<String> candidates = new ArrayList<>(rowStats.keySet().stream().filter(path -> rowStats.get(path)
                    .present >= g - tolerance(g) && Set.of("text", "a whole number").contains(rowStats.get(path)
                    .dominantKind())).sorted().toList());
            List<String> unique = greedy(rows, null, candidates, MAX_UNIQUE_FIELDS);
            chosen = unique == null ? List.of() : unique;
            reasons.add("key: the records carry no key (a table without a primary key?); "
                    + (unique == null ? "no " + MAX_UNIQUE_FIELDS + " columns part the sampled rows" : chosen
                    + " part the sampled rows"));
        }
        int buckets = Math.max(8, partitions);
        reasons.add("salt: bucket(" + buckets + "), the larger of the topic's " + partitions + " partitions and 8 "
                + "regions: rows of new keys (an auto-increment id) spread over the table");
        Map<String, String> required = new LinkedHashMap<>();
        List<String> parts = new ArrayList<>();
        for (String path : chosen) {
            Stats stats = rowStats.get(path);
            parts.add(path + ":" + encoding(stats));
            required.put(path, stats.dominantKind());
        }
        String key = "bucket(" + buckets + ") | " + (parts.isEmpty() ? "$timestamp:ts" : String.join(", ", parts));
        Map<String, String> named = new LinkedHashMap<>();
        List<Index> indexes = indexes(rows, rowStats, null, chosen, named, reasons);
        List<SetAside> setAside = new ArrayList<>(refused(rows, required, leads(indexes, rowStats, rows)));
        Set<String> columns = new java.util.HashSet<>();
        changes.stream().filter(change -> !change.op().equals("d")).forEach(change -> columns.addAll(change.row()
                .tree().keySet()));
        long replacing = changes.stream().filter(change -> change.op().equals("u") || change.op().equals("d"))
                .count();
        long whole = changes.stream().filter(change -> (change.op().equals("u") || change.op().equals("d"))
                && change.before() != null && change.before().containsAll(columns)).count();
        if (!records.isEmpty()) {
            addSetAside(setAside, "no op: not a change event", records.stream().map(Sampled::at).toList());
        }
        reasons.add("before.image: " + whole + " of " + replacing + " sampled updates and deletes carry the whole "
                + "row before them");
        return new Suggestion(input, topic, g + records.size() + refusedCount(), fields(rowStats), "$source.ts_ms",
                Map.of("epoch-ms", 1.0), key, 0, primaryKey, indexes, "*",
                withRefused(setAside), reasons, replacing > 0 && whole == replacing ? "full" : "partial");
    }

    /**
     * Indexes led by a host, a service, a customer where the records have one: the lead, the
     * time reversed ({@code time} null: none), the key's {@code fields}. Each lead is added to
     * {@code named} under the index's name.
     */
    private static List<Index> indexes(List<Sampled> good, Map<String, Stats> goodStats, String time,
                                       List<String> fields, Map<String, String> named, List<String> reasons) {
        long g = good.size();
        List<Index> indexes = new ArrayList<>();
        for (String name : List.of("host", "service", "customer")) {
            String lead = chain(good, goodStats, switch (name) {
                case "host" -> HOSTS;
                case "service" -> SERVICES;
                default -> CUSTOMERS;
            });
            if (lead == null) {
                continue;
            }
            Stats s = goodStats.containsKey(lead) ? goodStats.get(lead) : union(good, lead);
            if (s.present * INDEX_SHARE_DIVISOR < g || s.counts.size() < 2) {
                reasons.add("index " + name + ": " + lead + " is in " + s.present + " of " + g + " records with "
                        + s.counts.size() + " values: no index");
                continue;
            }
            List<String> indexParts = new ArrayList<>();
            indexParts.add(lead + ":" + encoding(s));
            if (time != null) {
                indexParts.add(time + ":rts");
            }
            for (String path : fields) {
                if (!path.equals(lead)) {
                    indexParts.add(path + ":" + encoding(goodStats.get(path)));
                }
            }
            boolean sparse = s.present < g;
            indexes.add(new Index(name, String.join(", ", indexParts), s.present, g));
            named.put(lead, name);
            reasons.add("index " + name + ": " + lead + ", " + s.dominantKind() + " in " + s.present + " of " + g
                    + " records, " + (s.capped ? ">=" : "") + s.counts.size() + " values" + (sparse ? "; sparse" : ""));
        }
        return indexes;
    }

    /** Each index's lead with the kind of value it takes. */
    private static Map<String, String> leads(List<Index> indexes, Map<String, Stats> goodStats, List<Sampled> good) {
        Map<String, String> leads = new LinkedHashMap<>();
        for (Index index : indexes) {
            String lead = index.key().substring(0, index.key().lastIndexOf(':', index.key().indexOf(',') < 0
                    ? index.key().length() : index.key().indexOf(',')));
            Stats s = goodStats.containsKey(lead) ? goodStats.get(lead) : union(good, lead);
            leads.put(lead, s.dominantKind());
        }
        return leads;
    }

    /**
     * The records the pipeline would set aside for a key part or an index's lead: a key part
     * absent or null, or either of another kind than it takes (the pipeline reads a fallback's
     * first alternative of the right kind, else its first present one). Each record under the
     * first reason it meets.
     */
    private static List<SetAside> refused(List<Sampled> good, Map<String, String> keyParts,
                                          Map<String, String> leads) {
        Map<String, FieldPath> paths = new HashMap<>();
        keyParts.keySet().forEach(path -> paths.put(path, FieldPath.parse(path)));
        leads.keySet().forEach(path -> paths.put(path, FieldPath.parse(path)));
        Map<String, List<String>> reasons = new LinkedHashMap<>();
        for (Sampled record : good) {
            String reason = null;
            for (Map.Entry<String, String> part : keyParts.entrySet()) {
                String kind = part.getValue();
                Object value = paths.get(part.getKey()).resolve(record.tree(), v -> RecordTree.kind(v).equals(kind));
                if (value == null || value == RecordTree.NULL) {
                    reason = "no " + part.getKey() + " (part of the key)";
                } else if (!RecordTree.kind(value).equals(kind)) {
                    reason = part.getKey() + " is " + RecordTree.kind(value) + ", where the key takes " + kind;
                }
                if (reason != null) {
                    break;
                }
            }
            for (Map.Entry<String, String> lead : reason == null ? leads.entrySet()
                    : Set.<Map.Entry<String, String>>of()) {
                String kind = lead.getValue();
                Object value = paths.get(lead.getKey()).resolve(record.tree(), v -> RecordTree.kind(v).equals(kind));
                if (value != null && value != RecordTree.NULL && !RecordTree.kind(value).equals(kind)) {
                    reason = lead.getKey() + " is " + RecordTree.kind(value) + ", where an index takes " + kind;
                    break;
                }
            }
            if (reason != null) {
                reasons.computeIfAbsent(reason, k -> new ArrayList<>()).add(record.at());
            }
        }
        List<SetAside> setAside = new ArrayList<>();
        reasons.forEach((reason, at) -> addSetAside(setAside, reason, at));
        return setAside;
    }

    private static List<Field> fields(Map<String, Stats> stats) {
        List<Field> fields = new ArrayList<>();
        stats.forEach((path, s) -> {
            Map<String, Long> top = new LinkedHashMap<>();
            s.counts.entrySet().stream().sorted(Map.Entry.<Object, Long>comparingByValue().reversed()).limit(3)
                    .forEach(e -> top.put(shorten(RecordTree.scalarText(e.getKey())), e.getValue()));
            fields.add(new Field(path, s.present, Map.copyOf(s.kinds), s.counts.size(), s.capped, top, s.min, s.max));
        });
        return fields;
    }

    /**
     * Columns: each of {@code named} under the qualifier it would like (its first path where two
     * would like one), every other leaf under {@code f.}. Fallbacks must be named: a wildcard
     * keeps no fallback's value, and index key parts must be columns.
     */
    private static String columns(Map<String, String> named) {
        Map<String, Long> wanted = new HashMap<>();
        named.values().forEach(qualifier -> wanted.merge(qualifier, 1L, Long::sum));
        List<String> columns = new ArrayList<>();
        named.forEach((path, qualifier) -> {
            String unique = wanted.get(qualifier) > 1 ? path.split(" \\| ")[0].replace("\"", "") : qualifier;
            columns.add(path + "=" + unique.replaceAll("[^A-Za-z0-9_.@-]", "_"));
        });
        columns.add("*=f.*");
        return String.join(", ", columns);
    }

    private static String lastStep(String path) {
        String first = path.split(" \\| ")[0];
        return first.substring(first.lastIndexOf('.') + 1).replace("\"", "");
    }

    /**
     * The fields of {@code names} present (as text) in the most records, joined as a fallback by
     * those that never occur in a record with the ones before; null if none is present.
     */
    private static String chain(List<Sampled> good, Map<String, Stats> goodStats, List<String> names) {
        List<String> present = names.stream().filter(name -> goodStats.containsKey(name)
                && Set.of("text", "a whole number").contains(goodStats.get(name).dominantKind())).sorted(Comparator.comparingLong(
                (String name) -> -goodStats.get(name).present).thenComparing(names::indexOf)).toList();
        List<String> chain = new ArrayList<>();
        for (String name : present) {
            List<FieldPath> paths = new ArrayList<>(chain.stream().map(FieldPath::parse).toList());
            FieldPath candidate = FieldPath.parse(name);
            boolean apart = good.stream().noneMatch(record -> leaf(candidate.resolve(record.tree()))
                    && paths.stream().anyMatch(path -> leaf(path.resolve(record.tree()))));
            if (chain.isEmpty() || apart) {
                chain.add(name);
            }
        }
        return chain.isEmpty() ? null : String.join(" | ", chain);
    }

    /** The stats of a fallback over {@code records}: the first alternative's value each has. */
    private static Stats union(List<Sampled> records, String fallback) {
        List<FieldPath> paths = List.of(fallback.split(" \\| ")).stream().map(FieldPath::parse).toList();
        Stats union = new Stats();
        for (Sampled record : records) {
            paths.stream().map(path -> path.resolve(record.tree())).filter(MappingSuggestion::leaf).findFirst()
                    .ifPresent(value -> count(union, value));
        }
        return union;
    }

    /**
     * Pairs of scalar fields that never occur in one record and together occur in at least
     * {@code least} records, as fallbacks, the more frequent first.
     */
    private static Map<String, Stats> fallbacks(Map<String, Stats> stats, List<Sampled> records, long least) {
        List<String> partial = new ArrayList<>();
        stats.forEach((path, s) -> {
            if (s.present < least && Set.of("text", "a whole number").contains(s.dominantKind())) {
                partial.add(path);
            }
        });
        Map<String, Stats> found = new LinkedHashMap<>();
        for (int i = 0; i < partial.size(); i++) {
            for (int j = i + 1; j < partial.size(); j++) {
                Stats a = stats.get(partial.get(i));
                Stats b = stats.get(partial.get(j));
                if (a.present + b.present < least || a.present + b.present > records.size()) {
                    continue;
                }
                FieldPath first = FieldPath.parse(partial.get(i));
                FieldPath second = FieldPath.parse(partial.get(j));
                // A leaf of one is no leaf of the other: {"host":{"name":..}} has host, but as an object.
                boolean apart = records.stream().noneMatch(record -> leaf(first.resolve(record.tree()))
                        && leaf(second.resolve(record.tree())));
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

    private static boolean leaf(Object value) {
        return value != null && value != RecordTree.NULL && !(value instanceof Map);
    }

    /** Records per format that reads the value of {@code path} as a plausible time, the first format to. */
    private Map<String, Long> timeFormats(String path) {
        FieldPath field = FieldPath.parse(path);
        Map<String, Long> counts = new LinkedHashMap<>();
        for (Sampled record : records) {
            String format = timeFormatOf(path, field.resolve(record.tree()));
            if (format != null) {
                counts.merge(format, 1L, Long::sum);
            }
        }
        return counts;
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
        } else if (value instanceof String) {
            tries.addAll(PATTERNS);
        }
        for (String format : tries) {
            try {
                long millis = FORMATS.computeIfAbsent(format, spec -> TimeFormat.parse(spec, ZoneOffset.UTC))
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

    private static BigDecimal number(Object value) {
        if (value instanceof Number n) {
            return n instanceof BigDecimal d ? d : new BigDecimal(n.toString());
        }
        if (value instanceof String text && text.length() <= 30 && text.matches("[0-9]{9,19}(\\.[0-9]+)?")) {
            return new BigDecimal(text);
        }
        return null;
    }

    /**
     * Fields of {@code candidates} added one at a time, each the one that parts the most records
     * still sharing a key with {@code timePath} (null: without a time), identity fields winning
     * ties, until none share one; null if that takes more than {@code most} fields or cannot be.
     */
    private static List<String> greedy(List<Sampled> records, String timePath, List<String> candidates, int most) {
        List<String> chosen = new ArrayList<>();
        List<String> left = new ArrayList<>(candidates);
        long collisions = collisions(records, timePath, chosen);
        while (collisions > 0) {
            if (chosen.size() == most) {
                return null;
            }
            String pick = null;
            long fewest = collisions;
            for (boolean identity : new boolean[] {true, false}) {
                for (String candidate : left) {
                    if (identityName(candidate) != identity) {
                        continue;
                    }
                    List<String> with = new ArrayList<>(chosen);
                    with.add(candidate);
                    long remaining = collisions(records, timePath, with);
                    if (remaining < fewest) {
                        fewest = remaining;
                        pick = candidate;
                    }
                }
                if (pick != null && timePath != null) {
                    break; // with the time, an identity field that helps at all beats a better other one
                }
            }
            if (pick == null) {
                return timePath == null ? null : chosen;
            }
            chosen.add(pick);
            left.remove(pick);
            collisions = fewest;
        }
        return chosen;
    }

    /**
     * Sampled records with different values that share the key of {@code timePath} (null: none,
     * {@code $timestamp}: the Kafka record's, not in the tree) and {@code fields} with an earlier one.
     */
    private static long collisions(List<Sampled> records, String timePath, List<String> fields) {
        List<FieldPath> paths = new ArrayList<>();
        if (timePath != null && !timePath.startsWith("$")) {
            paths.add(FieldPath.parse(timePath));
        }
        fields.forEach(field -> paths.add(FieldPath.parse(field)));
        if (paths.isEmpty() && timePath != null) {
            return 0; // the Kafka record's time: unknown here, taken as apart
        }
        Map<List<Object>, Map<String, Object>> seen = new HashMap<>();
        long collisions = 0;
        for (Sampled record : records) {
            List<Object> key = new ArrayList<>(paths.size());
            for (FieldPath path : paths) {
                key.add(path.resolve(record.tree()));
            }
            Map<String, Object> earlier = seen.putIfAbsent(key, record.tree());
            if (earlier != null && !Objects.equals(earlier, record.tree())) {
                collisions++;
            }
        }
        return collisions;
    }

    private static String encoding(Stats s) {
        if (s.dominantKind().equals("a whole number")) {
            return "long";
        }
        return s.longestText > LONG_TEXT || s.nul ? "md5" : "text";
    }

    private static void addSetAside(List<SetAside> setAside, String reason, List<String> at) {
        if (!at.isEmpty()) {
            setAside.add(new SetAside(reason, at.size(), List.copyOf(at.subList(0, Math.min(EXAMPLES, at.size())))));
        }
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

    private static boolean timeName(String path) {
        String last = path.substring(path.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        return last.equals("@timestamp") || last.contains("time") || last.equals("ts") || last.equals("date");
    }

    private static final Predicate<String> IDENTITY = java.util.regex.Pattern.compile(
            "(?i).*(id|offset|file\\.path|seq|sequence|host\\.name|host|hostname)$").asMatchPredicate();

    private static boolean identityName(String path) {
        return List.of(path.split(" \\| ")).stream().anyMatch(IDENTITY);
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
