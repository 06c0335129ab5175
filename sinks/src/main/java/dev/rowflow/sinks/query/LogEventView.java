package dev.rowflow.sinks.query;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.log.LogColumns;
import dev.rowflow.keying.mapping.EventMapping;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The log pipeline's rows read as log events: {@link InputQueries} over the log input's mapping
 * (with its index), each row returned as a {@link StoredEvent}:
 * <ul>
 *   <li>{@link #host}: one host (and event type) in a time range, newest first, through the index
 *       ({@code [host][type][reverse ts]} by default: with a type, one scan that reads newest first
 *       and stops at the limit);</li>
 *   <li>{@link #timeRange}: all hosts in a time range from a time-led data layout, one scan per
 *       salt bucket in parallel, merged back in time order (the cost seed 003 names);</li>
 *   <li>{@link #index}: any index lookup, in index key order.</li>
 * </ul>
 * Times are {@code [from, to)} in epoch milliseconds; a limit of 0 means no limit.
 */
public final class LogEventView {
    private final InputQueries rows;
    private final EventMapping logs;

    /** @param rows queries over the log input's mapping with its index (its {@code indexMapping}) */
    public LogEventView(InputQueries rows) {
        this.rows = rows;
        this.logs = rows.mapping();
    }

    /**
     * Events of {@code hostname} (and {@code eventType}, if not null) with {@code from <= time < to},
     * newest first (ties in index key order), at most {@code limit}.
     *
     * @throws IllegalArgumentException if there is no index, or its layout does not lead with the hostname
     */
    public QueryResult<StoredEvent> host(String hostname, String eventType, long from, long to, int limit) {
        RowKeyLayout layout = indexLayout();
        List<String> fields = layout.parts().stream().map(KeyPart::field).toList();
        if (!fields.get(0).equals("hostname")) {
            throw new IllegalArgumentException("index layout '" + layout.spec() + "' does not lead with hostname");
        }
        List<Object> leading = new ArrayList<>(List.of(hostname));
        if (eventType != null && fields.size() > 1 && fields.get(1).equals("eventType")) {
            leading.add(eventType);
        }
        QueryResult<StoredRow> found = rows.index(TableRole.LOG_INDEX, leading, from, to, true,
                leading.size() == 1 && eventType != null ? 0 : limit);
        List<StoredEvent> events = found.rows().stream().map(LogEventView::event)
                .filter(e -> eventType == null || e.eventType().equals(eventType)).toList();
        return new QueryResult<>(limit > 0 && events.size() > limit ? events.subList(0, limit) : events, found.scans(),
                found.danglingIndexRows());
    }

    /**
     * Events of every host with {@code from <= time < to}, oldest first ({@code newestFirst}
     * false) or newest first, ties in key order (host, then type, for the default layout), at
     * most {@code limit}.
     *
     * @throws IllegalArgumentException if the data layout does not lead (after its salt) with the
     *                                  time: such a read would be a full table scan
     */
    public QueryResult<StoredEvent> timeRange(long from, long to, boolean newestFirst, int limit) {
        RowKeyLayout layout = logs.dataLayout();
        if (!rows.isTime(layout.parts().get(0))) {
            throw new IllegalArgumentException("data layout '" + layout.spec() + "' does not lead with the time: "
                    + "a time range over all hosts would scan the whole table; read one host through the index");
        }
        boolean bucketRows = logs.spec().timeBucketMillis() > 0;
        boolean reversed = newestFirst != rows.newestFirstInKeyOrder(layout, 0);
        QueryResult<StoredRow> found = rows.data(List.of(), from, to, reversed, bucketRows ? 0 : limit);
        List<StoredEvent> events = new ArrayList<>();
        for (StoredRow row : found.rows()) {
            for (StoredEvent event : bucketRows ? eventsOfBucketRow(row, newestFirst) : List.of(event(row))) {
                if (limit <= 0 || events.size() < limit) {
                    events.add(event);
                }
            }
        }
        return new QueryResult<>(events, found.scans(), 0);
    }

    /**
     * The events an index lookup finds, in index key order: the index rows whose key starts with
     * {@code leading} (values of the index layout's first parts) and whose time is in
     * {@code [from, to)}, each followed to its data row; dangling index rows skipped and counted.
     */
    public QueryResult<StoredEvent> index(List<Object> leading, long from, long to, int limit) {
        indexLayout();
        QueryResult<StoredRow> found = rows.index(TableRole.LOG_INDEX, leading, from, to, false, limit);
        return new QueryResult<>(found.rows().stream().map(LogEventView::event).toList(), found.scans(),
                found.danglingIndexRows());
    }

    private RowKeyLayout indexLayout() {
        if (!logs.indexTables().contains(TableRole.LOG_INDEX)) {
            throw new IllegalArgumentException("no index table (index.log.enabled=false): read a time range instead");
        }
        return logs.tableLayouts().get(TableRole.LOG_INDEX);
    }

    /** A data row's event: the raw columns, the time from the message cell's timestamp. */
    static StoredEvent event(StoredRow row) {
        Map<String, String> attributes = new LinkedHashMap<>();
        byte[] prefix = Bytes.toBytes(LogColumns.ATTRIBUTE_PREFIX);
        String hostname = null;
        String eventType = null;
        String message = null;
        String severity = null;
        long timestamp = 0;
        for (StoredRow.StoredCell cell : row.cells()) {
            byte[] qualifier = cell.qualifier();
            String value = Bytes.toString(cell.value());
            if (Arrays.equals(qualifier, LogColumns.HOSTNAME)) {
                hostname = value;
            } else if (Arrays.equals(qualifier, LogColumns.EVENT_TYPE)) {
                eventType = value;
            } else if (Arrays.equals(qualifier, LogColumns.MESSAGE)) {
                message = value;
                timestamp = cell.timestamp();
            } else if (Arrays.equals(qualifier, LogColumns.SEVERITY)) {
                severity = value;
            } else if (Bytes.startsWith(qualifier, prefix)) {
                attributes.put(Bytes.toString(qualifier, prefix.length, qualifier.length - prefix.length), value);
            }
        }
        return new StoredEvent(row.key(), hostname, eventType, timestamp, message, severity, attributes);
    }

    /** Rows as columns: each cell is one whole event, qualifiers in time order. */
    private static List<StoredEvent> eventsOfBucketRow(StoredRow row, boolean newestFirst) {
        List<StoredEvent> events = new ArrayList<>();
        for (StoredRow.StoredCell cell : row.cells()) {
            try {
                LogEvent event = LogEvent.getDecoder().decode(ByteBuffer.wrap(cell.value()));
                events.add(new StoredEvent(row.key(), event.getHostname(), event.getEventType(),
                        event.getTimestamp().toEpochMilli(), event.getMessage(),
                        event.getSeverity() == null ? null : event.getSeverity().name(), event.getAttributes()));
            } catch (IOException e) {
                throw new UncheckedIOException("cell of row " + Bytes.toStringBinary(row.key()) + " is not a LogEvent", e);
            }
        }
        if (newestFirst) {
            Collections.reverse(events);
        }
        return events;
    }
}
