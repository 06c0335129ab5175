package dev.rowflow.keying.mapping;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The declaration {@code rowflow mapping suggest} infers for a table's change events: the row key
 * the Kafka records' keys carry (the table's primary key, Debezium's record key) under a salt, the
 * change's time in the database ({@code $source.ts_ms}), indexes as for events but without the
 * time (a row's index row moves with it), every column by name, and {@code before.image=full}
 * where every sampled update and delete carries the whole row before it.
 */
final class ChangeSuggestion {
    private final List<Change> changes;

    /**
     * One sampled change event.
     *
     * @param row      the row it leaves: its after image, its before image for a delete
     * @param keyNames its record key's field names (the primary key's columns)
     * @param op       the operation, {@code c r u d}
     * @param before   the columns of its before image, or null for none
     */
    record Change(Map<String, Object> row, List<String> keyNames, String op, Set<String> before) {
    }

    ChangeSuggestion(List<Change> changes) {
        this.changes = changes;
    }

    /**
     * @param others   sampled records that are no change events
     * @param refused  sampled records the format could not read
     * @param outliers the records left out, by reason
     */
    Suggestion suggest(String input, String topic, int partitions, long others, long refused,
                       List<Suggestion.Outlier> outliers) {
        List<String> reasons = new ArrayList<>();
        List<Map<String, Object>> rows = changes.stream().map(Change::row).toList();
        long g = rows.size();
        Map<String, SampleStats> rowStats = SampleStats.of(rows);
        Map<String, Long> keyNames = new LinkedHashMap<>();
        changes.forEach(change -> change.keyNames().forEach(name -> keyNames.merge(name, 1L, Long::sum)));
        List<String> chosen = new ArrayList<>(keyNames.entrySet().stream().filter(e -> e.getValue() * 100
                >= g * MappingSuggestion.TIME_SHARE_PERCENT && rowStats.containsKey(e.getKey()))
                .map(Map.Entry::getKey).toList());
        boolean primaryKey = !chosen.isEmpty();
        if (primaryKey) {
            reasons.add("key: " + chosen + ", the primary key the records' keys carry");
        } else {
            List<String> candidates = new ArrayList<>(rowStats.keySet().stream().filter(path -> rowStats.get(path)
                    .present >= g - MappingSuggestion.tolerance(g) && rowStats.get(path).keyable()).sorted().toList());
            List<String> unique = KeyInference.greedy(rows, null, candidates, KeyInference.MAX_UNIQUE_FIELDS);
            chosen = unique == null ? List.of() : unique;
            reasons.add("key: the records carry no key (a table without a primary key?); "
                    + (unique == null ? "no " + KeyInference.MAX_UNIQUE_FIELDS + " columns part the sampled rows"
                    : chosen + " part the sampled rows"));
        }
        int buckets = Math.max(8, partitions);
        reasons.add("salt: bucket(" + buckets + "), the larger of the topic's " + partitions + " partitions and 8 "
                + "regions: rows of new keys (an auto-increment id) spread over the table");
        List<String> parts = new ArrayList<>();
        chosen.forEach(path -> parts.add(path + ":" + KeyInference.encoding(path, rowStats.get(path))));
        String key = "bucket(" + buckets + ") | " + (parts.isEmpty() ? "$timestamp:ts" : String.join(", ", parts));
        List<Suggestion.Index> indexes = KeyInference.indexes(rows, rowStats, null, chosen, new LinkedHashMap<>(),
                reasons, MappingSuggestion.outliers(g));
        Set<String> columns = new HashSet<>();
        changes.stream().filter(change -> !change.op().equals("d")).forEach(change -> columns.addAll(
                change.row().keySet()));
        long replacing = changes.stream().filter(change -> change.op().equals("u") || change.op().equals("d"))
                .count();
        long whole = changes.stream().filter(change -> (change.op().equals("u") || change.op().equals("d"))
                && change.before() != null && change.before().containsAll(columns)).count();
        reasons.add("before.image: " + whole + " of " + replacing + " sampled updates and deletes carry the whole "
                + "row before them");
        return new Suggestion(input, topic, g + others + refused, MappingSuggestion.fields(rowStats),
                "$source.ts_ms", Map.of("epoch-ms", 1.0), key, 0, primaryKey, indexes, "*", outliers, reasons,
                replacing > 0 && whole == replacing ? "full" : "partial");
    }
}
