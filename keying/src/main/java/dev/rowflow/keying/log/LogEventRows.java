package dev.rowflow.keying.log;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.RecordTree;
import org.apache.avro.Schema;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The log tables' rows of a {@link LogEvent}, made by the declared log mapping ({@link LogMapping}):
 * a {@link LogEvent} into its two rows: the data row under the data layout and the
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
    private final long timeBucketMillis;
    private final EventMapping mapping;
    private final EventMapping indexMapping;

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
        this.timeBucketMillis = timeBucketMillis;
        // Checks the rest: rows as columns without an index and with a timestamp part, bucket length.
        this.mapping = LogMapping.compile(dataLayout, indexLayout, writeIndex, timeBucketMillis);
        // Verify and backfill rebuild index rows also where the pipeline writes none (seed 002, 1.9.2).
        this.indexMapping = writeIndex || timeBucketMillis > 0 ? mapping
                : LogMapping.compile(dataLayout, indexLayout, true, 0);
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

    /** The declared mapping these rows are made by ({@link LogMapping}). */
    public EventMapping mapping() {
        return mapping;
    }

    /** The same mapping with its index, also when the pipeline writes none: what verify and backfill use. */
    public EventMapping indexMapping() {
        return indexMapping;
    }

    /**
     * The data row and the index row of {@code event}, in that order.
     *
     * @throws InvalidEventException if a key field cannot be part of a key (missing, empty,
     *                               contains NUL, negative time)
     */
    public List<Row> rowsOf(LogEvent event) {
        Map<String, Object> record = RecordTree.ofAvro(event);
        long timestamp = mapping.eventTime(record, -1);
        return mapping.rowsOf(record, () -> encode(event), timestamp);
    }

    /** The event in Avro single-object encoding, as rows as columns keep it. */
    private static byte[] encode(LogEvent event) {
        try {
            java.nio.ByteBuffer encoded = LogEvent.getEncoder().encode(event);
            byte[] value = new byte[encoded.remaining()];
            encoded.get(value);
            return value;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The index row that a stored data row should have, rebuilt from its raw columns (hostname,
     * event type) and its cell timestamp (the event time): what index verify expects and
     * backfill writes. Empty if the row lacks one of those columns.
     *
     * @param dataColumn the value of a qualifier of family {@code d} in the data row, or null
     */
    public Optional<Row> indexRowOf(byte[] dataRowKey, Function<byte[], byte[]> dataColumn, long timestamp) {
        if (dataColumn.apply(LogColumns.MESSAGE) == null) {
            return Optional.empty(); // every event has a message: a row without one is not a log event's
        }
        return indexMapping.indexRowOf(TableRole.LOG_INDEX, dataRowKey, dataColumn, timestamp);
    }

}
