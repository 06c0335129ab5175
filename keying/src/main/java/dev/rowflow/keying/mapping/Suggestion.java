package dev.rowflow.keying.mapping;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A declaration inferred from a sample of a topic's records ({@link MappingSuggestion}), with
 * what the sample showed and why each part was chosen; {@link #properties} prints it as
 * {@code rowflow run} takes it.
 *
 * @param records     records sampled (that were objects)
 * @param timePath    the event time's field, or null if none reads as a time often enough
 * @param timeFormats the formats, in order, with the share of read values each reads first
 * @param key         the data key layout
 * @param collisions  sampled records (with different values) that still share a key
 * @param unique      whether the key's fields part every sampled record without the time (of
 *                    change events: whether they are the primary key the records' keys carry)
 * @param outliers    records the inference left out, by reason (what the declaration sets
 *                    aside the pipeline's own decision tells, not the suggestion)
 * @param reasons     why each part was chosen, for {@code --explain}
 * @param beforeImage for a topic of change events ({@code envelope=debezium}), {@code full} or
 *                    {@code partial}; null for a topic of events
 */
public record Suggestion(String input, String topic, long records, List<Field> fields, String timePath,
                         Map<String, Double> timeFormats, String key, long collisions, boolean unique,
                         List<Index> indexes, String columns, List<Outlier> outliers, List<String> reasons,
                         String beforeImage) {

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

    /**
     * Sampled records the inference left out, for one reason, with where the first are: read as
     * no record, without a time, or of a shape a few records have where nearly all have another.
     */
    public record Outlier(String reason, long records, List<String> at) {
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
                s.append("# No field reads as a time in ").append(MappingSuggestion.TIME_SHARE_PERCENT)
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
                if (!index.sparse() && beforeImage == null) {
                    s.append("# Every sampled record of the topic's shape has its lead: one without it is malformed, "
                            + "set aside\n");
                    s.append(p).append("index.").append(index.name()).append(".when.missing=dead-letter\n");
                }
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
