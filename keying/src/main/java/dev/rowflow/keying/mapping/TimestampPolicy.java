package dev.rowflow.keying.mapping;

import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;

/**
 * What to do with an event time that cannot be right: before 1970, or further ahead of the
 * record's own timestamp (producer or broker time) than {@code maxFutureMillis}.
 *
 * <p>{@link Mode#REJECT} sets the record aside. {@link Mode#CLAMP} writes the event at the
 * record's timestamp instead -- not at "now", so a replay writes the same rows. A time before
 * 1970 is clamped only when the record's timestamp is itself a time rowflow can write.
 */
public record TimestampPolicy(Mode mode, long maxFutureMillis) {
    public enum Mode { REJECT, CLAMP }

    /** Accepts every time from 1970 on, however far ahead. */
    public static final TimestampPolicy LENIENT = new TimestampPolicy(Mode.REJECT, Long.MAX_VALUE);

    /**
     * The event time to write.
     *
     * @param field           the event's time field, for the refusal
     * @param eventTime       the event's time, ms
     * @param recordTimestamp the Kafka record's timestamp, ms (negative when the record has none)
     * @throws InvalidEventException under {@link Mode#REJECT}, naming the field, value and limit
     */
    public long apply(String field, long eventTime, long recordTimestamp) {
        boolean future = maxFutureMillis != Long.MAX_VALUE && recordTimestamp >= 0
                && eventTime - recordTimestamp > maxFutureMillis;
        if (eventTime >= 0 && !future) {
            return eventTime;
        }
        if (mode == Mode.CLAMP && recordTimestamp >= 0) {
            return recordTimestamp;
        }
        if (!future) {
            return EventRules.eventTime(field, eventTime);
        }
        throw new InvalidEventException(Refusal.OUT_OF_RANGE, field, eventTime, "is " + (eventTime - recordTimestamp)
                + " ms ahead of the record's timestamp " + recordTimestamp + " (limit events.timestamp.max.future.ms="
                + maxFutureMillis + "; events.timestamp.policy=clamp writes such events at the record's timestamp)");
    }
}
