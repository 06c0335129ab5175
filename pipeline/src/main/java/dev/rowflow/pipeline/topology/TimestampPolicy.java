package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.InvalidEventException;

/**
 * What to do with an event time that cannot be right: before 1970, or further ahead of the
 * record's own timestamp (producer or broker time) than {@code maxFutureMillis}.
 *
 * <p>{@link Mode#REJECT} sends the record to the dead-letter topic. {@link Mode#CLAMP} writes the
 * event at the record's timestamp instead -- not at "now", so a replay writes the same rows.
 */
public record TimestampPolicy(Mode mode, long maxFutureMillis) {
    public enum Mode { REJECT, CLAMP }

    /** Accepts every non-negative time. */
    public static final TimestampPolicy LENIENT = new TimestampPolicy(Mode.REJECT, Long.MAX_VALUE);

    /**
     * The event time to write.
     *
     * @param field           the event's time field, for the error
     * @param eventTime       the event's time, ms
     * @param recordTimestamp the Kafka record's timestamp, ms
     * @throws InvalidEventException under {@link Mode#REJECT}, naming the field, value and limit
     */
    public long apply(String field, long eventTime, long recordTimestamp) {
        boolean negative = eventTime < 0;
        boolean future = maxFutureMillis != Long.MAX_VALUE && recordTimestamp >= 0
                && eventTime - recordTimestamp > maxFutureMillis;
        if (!negative && !future) {
            return eventTime;
        }
        if (mode == Mode.CLAMP && recordTimestamp >= 0) {
            return recordTimestamp;
        }
        throw new InvalidEventException(field, eventTime, negative ? "is before 1970"
                : "is " + (eventTime - recordTimestamp) + " ms ahead of the record's timestamp " + recordTimestamp
                + " (limit events.timestamp.max.future.ms=" + maxFutureMillis + "; events.timestamp.policy=clamp "
                + "writes such events at the record's timestamp)");
    }
}
