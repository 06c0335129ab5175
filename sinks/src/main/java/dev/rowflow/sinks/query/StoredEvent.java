package dev.rowflow.sinks.query;

import java.util.Map;

/**
 * A log event as read back from its data row: the raw fields rowflow keeps as columns (so a
 * hashed or UID key part still reads back as the name), the event time from the cell timestamp,
 * and the row key it was found under.
 */
public record StoredEvent(byte[] rowKey, String hostname, String eventType, long timestamp, String message,
                          String severity, Map<String, String> attributes) {
}
