package dev.rowflow.keying.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One record as read: its {@link dev.rowflow.keying.mapping.RecordTree} and the whole record as
 * its format keeps it (the original JSON bytes; Avro re-encoded in single-object encoding with
 * the reader schema), made only when asked for (rows as columns store it).
 *
 * <p>A Kafka record may hold several records (an OpenTelemetry export request, many log
 * records): then it is read as one that {@link #holds} them, each judged on its own, and each
 * knows its 1-based {@link #ordinal} among them ({@code $ordinal} in a mapping).
 *
 * @param tree    what the mapping's paths address: the record, or a change event's row image
 *                (empty for one that holds records)
 * @param change  the change event the record is, or null for a record that is an event itself
 * @param held    the records it holds, in order, or null for a record that is one itself
 * @param ordinal its 1-based position among the records the Kafka record holds, or 0
 */
public record ReadRecord(Map<String, Object> tree, Supplier<byte[]> canonical, Change change, List<ReadRecord> held,
                         int ordinal) {

    /** A record that is an event itself. */
    public ReadRecord(Map<String, Object> tree, Supplier<byte[]> canonical) {
        this(tree, canonical, null, null, 0);
    }

    /** A change event, or ({@code change} null) an event. */
    public ReadRecord(Map<String, Object> tree, Supplier<byte[]> canonical, Change change) {
        this(tree, canonical, change, null, 0);
    }

    /** A Kafka record that holds {@code trees}, each a record of its own, in order. */
    public static ReadRecord holding(List<Map<String, Object>> trees, Supplier<byte[]> canonical) {
        List<ReadRecord> records = new ArrayList<>(trees.size());
        for (int i = 0; i < trees.size(); i++) {
            records.add(new ReadRecord(trees.get(i), canonical, null, null, i + 1));
        }
        return new ReadRecord(Map.of(), canonical, null, List.copyOf(records), 0);
    }

    /** The records to judge: those it holds, or itself. */
    public List<ReadRecord> records() {
        return held != null ? held : List.of(this);
    }
}
