package dev.rowflow.keying.mapping;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.expression.Source;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Function;

/**
 * What a Kafka record carries besides its value, as the sources an expression may name:
 * {@code $key} (the record key), {@code $header.<name>}, {@code $topic}, {@code $partition},
 * {@code $offset} and {@code $timestamp} (the record's timestamp in ms); of a change event also
 * {@code $op} (its operation code: c, r, u, d), {@code $before}, {@code $after} (the row images)
 * and {@code $source} (where the change comes from: {@code $source.lsn}, {@code $source.ts_ms});
 * {@code $value}, the record's value as its format keeps it (bytes); and in the rows a mapping
 * makes per array element, {@code $position.<alias>} (the element's 1-based position in its
 * array) and {@code $ordinal} (the row's 1-based number among the record's rows of its kind).
 *
 * <p>The key is read when first asked for, once per record: as JSON if its bytes are one JSON
 * value (an object, so {@code $key.id} finds {@code {"id":7}}; a number; a string), else as UTF-8
 * text ({@code order-7}). A header is its last value under the name, as UTF-8 text. Not
 * thread-safe: one per record.
 */
public final class RecordSource {
    /** A record known only by its timestamp (tests, benchmarks, records that are not from Kafka). */
    public static RecordSource ofTimestamp(long timestamp) {
        return new RecordSource(null, -1, -1, timestamp, null, name -> null);
    }

    private final String topic;
    private final int partition;
    private final long offset;
    private final long timestamp;
    private final byte[] key;
    private final Function<String, byte[]> headers;
    private Object keyValue;
    private String op;
    private Map<String, Object> before;
    private Map<String, Object> after;
    private Map<String, Object> changeSource;
    private java.util.function.Supplier<byte[]> value;
    /** Of an element row: the 1-based position of each alias's element, and the row's number. */
    private Map<String, Long> positions;
    private long ordinal;

    /**
     * @param topic     the topic, or null where unknown
     * @param partition the partition, or -1
     * @param offset    the offset, or -1
     * @param key       the record key's bytes, or null
     * @param headers   the last value of a header by name, or null if the record has none
     */
    public RecordSource(String topic, int partition, long offset, long timestamp, byte[] key,
                        Function<String, byte[]> headers) {
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.timestamp = timestamp;
        this.key = key;
        this.headers = headers;
    }

    /**
     * Makes this the source of a change event: what {@code $op}, {@code $before}, {@code $after}
     * and {@code $source} read.
     *
     * @param op the operation code (c, r, u, d); the images null where the event has none
     * @return this
     */
    public RecordSource withChange(String op, Map<String, Object> before, Map<String, Object> after,
                                   Map<String, Object> source) {
        this.op = op;
        this.before = before;
        this.after = after;
        this.changeSource = source;
        return this;
    }

    /** Makes {@code $value} read the record's value as its format keeps it; returns this. */
    RecordSource withValue(java.util.function.Supplier<byte[]> value) {
        this.value = value;
        return this;
    }

    /**
     * The source of one row made per array element: this record's, with {@code $position.<alias>}
     * and {@code $ordinal}.
     */
    RecordSource ofElement(Map<String, Long> positions, long ordinal) {
        RecordSource element = new RecordSource(topic, partition, offset, timestamp, key, headers);
        element.keyValue = keyValue;
        element.withChange(op, before, after, changeSource);
        element.value = value;
        element.positions = positions;
        element.ordinal = ordinal;
        return element;
    }

    /**
     * Makes this the source of the {@code ordinal}-th record its Kafka record holds (1-based):
     * what {@code $ordinal} reads; returns this.
     */
    public RecordSource ofRecord(int ordinal) {
        this.ordinal = ordinal;
        return this;
    }

    public long timestamp() {
        return timestamp;
    }

    public byte[] keyBytes() {
        return key;
    }

    /**
     * The value of a source ({@code topic}, {@code key}...); null if this record lacks it.
     *
     * @param header the name after the source ({@code $header.<name>}, {@code $position.<alias>}), else null
     */
    public Object get(Source source, String header) {
        return switch (source) {
            case TOPIC -> topic;
            case PARTITION -> partition < 0 ? null : (Object) (long) partition;
            case OFFSET -> offset < 0 ? null : (Object) offset;
            case TIMESTAMP -> timestamp;
            case KEY -> key();
            case HEADER -> {
                byte[] value = headers.apply(header);
                yield value == null ? null : new String(value, StandardCharsets.UTF_8);
            }
            case OP -> op;
            case BEFORE -> before;
            case AFTER -> after;
            case SOURCE -> changeSource;
            case VALUE -> value == null ? null : value.get();
            case POSITION -> positions == null ? null : positions.get(header);
            case ORDINAL -> ordinal > 0 ? (Object) ordinal : null;
        };
    }

    private Object key() {
        if (key == null) {
            return null;
        }
        if (keyValue == null) {
            keyValue = readKey(key);
        }
        return keyValue;
    }

    /** The key as a record-tree value: one JSON value if it is one, else its text. */
    static Object readKey(byte[] key) {
        int first = 0;
        while (first < key.length && Character.isWhitespace(key[first])) {
            first++;
        }
        if (first < key.length && "{[\"-0123456789tfn".indexOf(key[first]) >= 0) {
            try {
                // One JSON value: wrap it so that the record reader (which reads objects) reads it.
                byte[] wrapped = new byte[key.length + 6];
                System.arraycopy("{\"k\":".getBytes(StandardCharsets.US_ASCII), 0, wrapped, 0, 5);
                System.arraycopy(key, 0, wrapped, 5, key.length);
                wrapped[wrapped.length - 1] = '}';
                Map<String, Object> tree = JsonRecordReader.read(wrapped);
                return tree.get("k");
            } catch (InvalidEventException notJson) {
                // not JSON after all: its text
            }
        }
        return new String(key, StandardCharsets.UTF_8);
    }
}
