package dev.rowflow.keying.log;

/**
 * The fields a log row key carries, as decoded from the key bytes.
 *
 * @param bucket    the salt bucket, or -1 for a key without one
 * @param timestamp event time, ms since the epoch (UTC)
 * @param hostname  host of the event
 * @param eventType log-event type
 */
public record LogKey(int bucket, long timestamp, String hostname, String eventType) {
}
