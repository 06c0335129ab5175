package dev.rowflow.keying.log;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.Cell;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import org.apache.avro.Schema;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Turns a {@link LogEvent} into its two rows: the data row under the data layout and the
 * dual-written index row under the index layout, pointing back to it (seed 002, section 1.9.3).
 * Both rows carry the event time as cell timestamp. Key parts name {@link LogEvent} fields:
 * {@code hostname}, {@code eventType}, {@code timestamp}, {@code message}.
 *
 * <p>Data row, family {@code d}: {@code h} hostname, {@code e} event type, {@code m} message,
 * {@code s} severity (if any), {@code a.<name>} one per attribute -- raw values kept as columns,
 * so hashed or substituted key parts lose nothing. Index row, family {@code i}: {@code r} the data
 * row key.
 */
public final class LogEventRows {
    /** The data key by default: the seed's bucketed time-led key, spread over 16 regions. */
    public static final String DEFAULT_DATA_LAYOUT = "bucket(16) | timestamp:ts, hostname:text, eventType:text";
    /** The index key by default: host-led, newest first. */
    public static final String DEFAULT_INDEX_LAYOUT = "hostname:text, eventType:text, timestamp:rts";

    private final RowKeyLayout dataLayout;
    private final RowKeyLayout indexLayout;
    private final boolean writeIndex;
    private final long timeBucketMillis;

    public LogEventRows(RowKeyLayout dataLayout, RowKeyLayout indexLayout) {
        this(dataLayout, indexLayout, true);
    }

    /**
     * @param writeIndex false to write data rows only (the index is then built later by a
     *                   backfill, seed 002 1.9.2)
     */
    public LogEventRows(RowKeyLayout dataLayout, RowKeyLayout indexLayout, boolean writeIndex) {
        this(dataLayout, indexLayout, writeIndex, 0);
    }

    /**
     * @param timeBucketMillis 0 for one row per event; otherwise rows as columns (seed 002,
     *                         1.11.2 and 1.11.4.3, the OpenTSDB approach): one row per time bucket
     *                         of this length, the data layout's {@code timestamp} part holding the
     *                         bucket's start, one column per event (see {@link #rowsOf})
     * @throws IllegalArgumentException if rows as columns are asked for with an index (the rows
     *                                  are host-led already) or a data layout without a timestamp
     *                                  part, or with a bucket longer than 24 days
     */
    public LogEventRows(RowKeyLayout dataLayout, RowKeyLayout indexLayout, boolean writeIndex, long timeBucketMillis) {
        this.dataLayout = checkFields(dataLayout);
        this.indexLayout = checkFields(indexLayout);
        this.writeIndex = writeIndex;
        this.timeBucketMillis = timeBucketMillis;
        if (timeBucketMillis < 0 || timeBucketMillis > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("time bucket of " + timeBucketMillis + " ms: offsets in a bucket are "
                    + "4-byte column qualifiers, so at most " + Integer.MAX_VALUE + " ms (24 days)");
        }
        if (timeBucketMillis > 0) {
            if (writeIndex) {
                throw new IllegalArgumentException("rows as columns keep no index: switch the index off");
            }
            if (dataLayout.parts().stream().noneMatch(p -> p.field().equals("timestamp"))) {
                throw new IllegalArgumentException("rows as columns need a timestamp part in the data layout '"
                        + dataLayout.spec() + "' for the time bucket");
            }
        }
    }

    /** The length of a time bucket in rows-as-columns mode, 0 for one row per event. */
    public long timeBucketMillis() {
        return timeBucketMillis;
    }

    /**
     * Checks that every key part names a {@link LogEvent} field of a fitting type.
     *
     * @throws IllegalArgumentException naming the part and the fields there are
     */
    public static RowKeyLayout checkFields(RowKeyLayout layout) {
        Schema schema = LogEvent.getClassSchema();
        for (KeyPart part : layout.parts()) {
            Schema.Field field = schema.getField(part.field());
            if (field == null) {
                throw new IllegalArgumentException("part '" + part.spec() + "' of layout '" + layout.spec()
                        + "': LogEvent has no field '" + part.field() + "' (it has "
                        + schema.getFields().stream().map(Schema.Field::name).collect(Collectors.joining(", ")) + ")");
            }
            boolean isText = field.schema().getType() == Schema.Type.STRING;
            boolean isLong = field.schema().getType() == Schema.Type.LONG;
            if (part.encoding().textual() ? !isText : !isLong) {
                throw new IllegalArgumentException("part '" + part.spec() + "' of layout '" + layout.spec()
                        + "': encoding " + part.encoding().token() + " needs a " + (part.encoding().textual()
                        ? "string" : "long") + " field, and LogEvent." + part.field() + " is " + field.schema().getType()
                        .getName());
            }
        }
        return layout;
    }

    public RowKeyLayout dataLayout() {
        return dataLayout;
    }

    public RowKeyLayout indexLayout() {
        return indexLayout;
    }

    /**
     * The data row and the index row of {@code event}, in that order.
     *
     * @throws InvalidEventException if a key field cannot be part of a key (missing, empty,
     *                               contains NUL, negative time) or the message is missing
     */
    public List<Row> rowsOf(LogEvent event) {
        String hostname = event.getHostname();
        String eventType = event.getEventType();
        // Empty values are legal Avro but meaningless keys: "[a][]" and "[][a]" would be one row.
        if (hostname == null || hostname.isEmpty()) {
            throw new InvalidEventException("hostname", hostname, "must not be empty");
        }
        if (eventType == null || eventType.isEmpty()) {
            throw new InvalidEventException("eventType", eventType, "must not be empty");
        }
        if (event.getMessage() == null) {
            throw new InvalidEventException("message", null, "must be present");
        }
        if (event.getTimestamp() == null) {
            throw new InvalidEventException("timestamp", null, "must be present");
        }
        long timestamp = event.getTimestamp().toEpochMilli();
        if (timeBucketMillis > 0) {
            return List.of(bucketRow(event, timestamp));
        }

        byte[] rowKey = dataLayout.encode(event);
        List<Cell> cells = new ArrayList<>(4 + event.getAttributes().size());
        cells.add(new Cell(LogColumns.DATA_FAMILY, LogColumns.HOSTNAME, utf8(hostname)));
        cells.add(new Cell(LogColumns.DATA_FAMILY, LogColumns.EVENT_TYPE, utf8(eventType)));
        cells.add(new Cell(LogColumns.DATA_FAMILY, LogColumns.MESSAGE, utf8(event.getMessage())));
        if (event.getSeverity() != null) {
            cells.add(new Cell(LogColumns.DATA_FAMILY, LogColumns.SEVERITY, utf8(event.getSeverity().name())));
        }
        for (Map.Entry<String, String> attribute : event.getAttributes().entrySet()) {
            cells.add(new Cell(LogColumns.DATA_FAMILY, LogColumns.attribute(attribute.getKey()),
                    utf8(attribute.getValue())));
        }
        Row data = new Row(TableRole.LOG_DATA, rowKey, timestamp, cells);
        if (!writeIndex) {
            return List.of(data);
        }
        return List.of(data, indexRow(rowKey, indexLayout.encode(event), timestamp));
    }

    /**
     * Rows as columns: the row of the event's time bucket, with one cell whose qualifier is the
     * event's offset in the bucket (4 bytes big-endian, milliseconds, so columns sort by time)
     * and whose value is the whole event in Avro single-object encoding (nothing of it lost).
     */
    private Row bucketRow(LogEvent event, long timestamp) {
        if (timestamp < 0) {
            throw new InvalidEventException("timestamp", timestamp, "must not be negative");
        }
        long bucketStart = timestamp - timestamp % timeBucketMillis;
        byte[] rowKey = dataLayout.encode(field -> field.equals("timestamp") ? bucketStart : event.get(field));
        byte[] offset = java.nio.ByteBuffer.allocate(Integer.BYTES).putInt((int) (timestamp - bucketStart)).array();
        byte[] value;
        try {
            java.nio.ByteBuffer encoded = LogEvent.getEncoder().encode(event);
            value = new byte[encoded.remaining()];
            encoded.get(value);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return new Row(TableRole.LOG_DATA, rowKey, timestamp, List.of(new Cell(LogColumns.DATA_FAMILY, offset, value)));
    }

    /**
     * The index row that a stored data row should have, rebuilt from its raw columns (hostname,
     * event type, message) and its cell timestamp (the event time): what index verify expects and
     * backfill writes. Empty if the row lacks one of those columns.
     *
     * @param dataColumn the value of a qualifier of family {@code d} in the data row, or null
     */
    public Optional<Row> indexRowOf(byte[] dataRowKey, Function<byte[], byte[]> dataColumn, long timestamp) {
        Map<String, Object> fields = new HashMap<>();
        fields.put("timestamp", timestamp);
        for (Map.Entry<String, byte[]> column : Map.of("hostname", LogColumns.HOSTNAME,
                "eventType", LogColumns.EVENT_TYPE, "message", LogColumns.MESSAGE).entrySet()) {
            byte[] value = dataColumn.apply(column.getValue());
            if (value == null) {
                return Optional.empty();
            }
            fields.put(column.getKey(), new String(value, StandardCharsets.UTF_8));
        }
        return Optional.of(indexRow(dataRowKey, indexLayout.encode(fields::get), timestamp));
    }

    private static Row indexRow(byte[] dataRowKey, byte[] indexKey, long timestamp) {
        return new Row(TableRole.LOG_INDEX, indexKey, timestamp,
                List.of(new Cell(LogColumns.INDEX_FAMILY, LogColumns.DATA_ROW_KEY, dataRowKey)));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
