package dev.rowflow.keying.mapping;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The key parts, indexes and columns {@code rowflow mapping suggest} chooses from the fields of a
 * sample's majority shape ({@link SampleStats}): the fewest fields that keep every record apart,
 * identity fields first; indexes led by the shipper's own host, service or customer field, with
 * fallbacks where shapes differ; how each part is encoded.
 *
 * <p>Stateless; its methods are pure.
 */
final class KeyInference {
    /** Text longer than this in a key is hashed. */
    static final int LONG_TEXT = 32;
    /** Fields of any name a key may take to part records without the time. */
    static final int MAX_UNIQUE_FIELDS = 3;
    /** An index's lead must be in at least one in this many records. */
    static final int INDEX_SHARE_DIVISOR = 5;

    /** Host fields, the shippers' own convention first (ECS's {@code host.name}). */
    static final List<String> HOSTS = List.of("host.name", "host", "hostname", "host.hostname",
            "kubernetes.host", "kubernetes.node_name", "agent.hostname");
    static final List<String> SERVICES = List.of("service.name", "service", "app", "application",
            "kubernetes.labels.app");
    static final List<String> CUSTOMERS = List.of("customer.id", "customer_id", "customerId", "customer");
    static final List<String> MESSAGES = List.of("message", "log", "msg", "event.original");

    private static final Predicate<String> IDENTITY = java.util.regex.Pattern.compile(
            "(?i).*(id|offset|file\\.path|seq|sequence|host\\.name|host|hostname)$").asMatchPredicate();

    private KeyInference() {
    }

    /**
     * How a key part of {@code path} is encoded: {@code long} for whole numbers; {@code md5} for
     * text that is long, holds NUL, or is free text (a blank in a value, a message's name) --
     * such a value is no name, and only its hash has a bounded length; else {@code text}.
     */
    static String encoding(String path, SampleStats s) {
        if (s.dominantKind().equals("a whole number")) {
            return "long";
        }
        boolean message = List.of(path.split(" \\| ")).stream().anyMatch(MESSAGES::contains);
        return s.longestText > LONG_TEXT || s.nul || s.freeText || message ? "md5" : "text";
    }

    static boolean identityName(String path) {
        return List.of(path.split(" \\| ")).stream().anyMatch(IDENTITY);
    }

    /**
     * Fields of {@code candidates} added one at a time, each the one that parts the most records
     * still sharing a key with {@code timePath} (null: without a time), identity fields winning
     * ties, until none share one; null if that takes more than {@code most} fields or cannot be.
     */
    static List<String> greedy(List<Map<String, Object>> records, String timePath, List<String> candidates,
                               int most) {
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
    static long collisions(List<Map<String, Object>> records, String timePath, List<String> fields) {
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

    /**
     * Indexes led by a host, a service, a customer where the records have one: the lead, the
     * time reversed ({@code time} null: none), the key's {@code fields}. Each lead is added to
     * {@code named} under the index's name.
     *
     * @param outliers how many records of a field make no shape of the topic (see {@link #chain})
     */
    static List<Suggestion.Index> indexes(List<Map<String, Object>> good, Map<String, SampleStats> goodStats,
                                          String time, List<String> fields, Map<String, String> named,
                                          List<String> reasons, long outliers) {
        long g = good.size();
        List<Suggestion.Index> indexes = new ArrayList<>();
        for (String name : List.of("host", "service", "customer")) {
            String lead = chain(good, goodStats, switch (name) {
                case "host" -> HOSTS;
                case "service" -> SERVICES;
                default -> CUSTOMERS;
            }, outliers);
            if (lead == null) {
                continue;
            }
            SampleStats s = goodStats.containsKey(lead) ? goodStats.get(lead) : SampleStats.union(good, lead);
            if (s.present * INDEX_SHARE_DIVISOR < g || s.counts.size() < 2) {
                reasons.add("index " + name + ": " + lead + " is in " + s.present + " of " + g + " records with "
                        + s.counts.size() + " values: no index");
                continue;
            }
            List<String> indexParts = new ArrayList<>();
            indexParts.add(lead + ":" + encoding(lead, s));
            if (time != null) {
                indexParts.add(time + ":rts");
            }
            for (String path : fields) {
                if (!path.equals(lead)) {
                    indexParts.add(path + ":" + encoding(path, goodStats.get(path)));
                }
            }
            boolean sparse = s.present < g;
            indexes.add(new Suggestion.Index(name, String.join(", ", indexParts), s.present, g));
            named.put(lead, name);
            reasons.add("index " + name + ": " + lead + ", " + s.dominantKind() + " in " + s.present + " of " + g
                    + " records, " + (s.capped ? ">=" : "") + s.counts.size() + " values" + (sparse ? "; sparse" : ""));
        }
        return indexes;
    }

    /**
     * The fields of {@code names} that are text or whole numbers, the one in the most records
     * first -- where several are in nearly as many (within {@code outliers}), the one earlier in
     * {@code names}, the shipper's convention -- then, as a fallback, each that never occurs in a
     * record with the ones before and is in more than {@code outliers} records; null if none is.
     */
    static String chain(List<Map<String, Object>> good, Map<String, SampleStats> goodStats, List<String> names,
                        long outliers) {
        List<String> keyable = names.stream().filter(name -> goodStats.containsKey(name)
                && goodStats.get(name).keyable()).toList();
        long most = keyable.stream().mapToLong(name -> goodStats.get(name).present).max().orElse(0);
        List<String> present = keyable.stream().sorted(Comparator.comparingInt(
                (String name) -> goodStats.get(name).present >= most - outliers ? 0 : 1)
                .thenComparingLong(name -> -goodStats.get(name).present).thenComparing(names::indexOf)).toList();
        List<String> chain = new ArrayList<>();
        for (String name : present) {
            List<FieldPath> paths = new ArrayList<>(chain.stream().map(FieldPath::parse).toList());
            FieldPath candidate = FieldPath.parse(name);
            boolean apart = good.stream().noneMatch(record -> SampleStats.leaf(candidate.resolve(record))
                    && paths.stream().anyMatch(path -> SampleStats.leaf(path.resolve(record))));
            if (chain.isEmpty() || apart && goodStats.get(name).present > outliers) {
                chain.add(name);
            }
        }
        return chain.isEmpty() ? null : String.join(" | ", chain);
    }

    /**
     * Columns: each of {@code named} under the qualifier it would like (its first path where two
     * would like one), every other leaf under {@code f.}. Fallbacks must be named: a wildcard
     * keeps no fallback's value, and index key parts must be columns.
     */
    static String columns(Map<String, String> named) {
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

    /** The last step of a path's first alternative, unquoted: the qualifier it would like. */
    static String lastStep(String path) {
        String first = path.split(" \\| ")[0];
        return first.substring(first.lastIndexOf('.') + 1).replace("\"", "");
    }
}
