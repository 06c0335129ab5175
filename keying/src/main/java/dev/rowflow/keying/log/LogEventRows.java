package dev.rowflow.keying.log;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.Cell;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns a {@link LogEvent} into its two rows: the data row under a {@link BucketedLogKey} and
 * the dual-written index row under a {@link HostLedLogKey} that points back to it (seed 002,
 * section 1.9.3). Both rows carry the event time as cell timestamp.
 *
 * <p>Data row, family {@code d}: {@code h} hostname, {@code e} event type, {@code m} message,
 * {@code s} severity (if any), {@code a.<name>} one per attribute. Index row, family {@code i}:
 * {@code r} the data row key.
 */
public final class LogEventRows {
    private final BucketedLogKey dataKey;

    public LogEventRows(BucketedLogKey dataKey) {
        this.dataKey = dataKey;
    }

    /**
     * The data row and the index row of {@code event}, in that order.
     *
     * @throws InvalidEventException if a field cannot be part of a key (empty, contains NUL,
     *                               negative time) or the message is missing
     */
    public List<Row> rowsOf(LogEvent event) {
        String hostname = event.getHostname();
        String eventType = event.getEventType();
        long timestamp = event.getTimestamp().toEpochMilli();
        if (event.getMessage() == null) {
            throw new InvalidEventException("message", null, "must be present");
        }

        byte[] rowKey = dataKey.encode(hostname, timestamp, eventType);
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
        Row index = new Row(TableRole.LOG_INDEX, HostLedLogKey.encode(hostname, timestamp, eventType), timestamp,
                List.of(new Cell(LogColumns.INDEX_FAMILY, LogColumns.DATA_ROW_KEY, rowKey)));
        return List.of(data, index);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
