package dev.rowflow.pipeline.topology;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.keying.log.LogSummary;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Writes the data row and index row of each log event and counts it in the summary table (see
 * {@link RowWriter}).
 */
final class LogEventWriter extends RowWriter<byte[], LogEvent> {
    private final LogEventRows rows;
    private final LogSummary summary;
    private final TimestampPolicy timestamps;

    /** @param summary the summary counters to keep, or null for none */
    LogEventWriter(LogEventRows rows, LogSummary summary, TimestampPolicy timestamps, SinkFactory sinks,
                   FlushBeforeCommit flushBeforeCommit) {
        super(sinks, flushBeforeCommit);
        this.rows = rows;
        this.summary = summary;
        this.timestamps = timestamps;
    }

    @Override
    public void process(Record<byte[], LogEvent> record) {
        if (record.value() == null) {
            throw new InvalidEventException("value", null, "the logs topic carries no tombstones (null values)");
        }
        LogEvent event = record.value();
        if (event.getTimestamp() != null) {
            long time = event.getTimestamp().toEpochMilli();
            long written = timestamps.apply("timestamp", time, record.timestamp());
            if (written != time) {
                event = LogEvent.newBuilder(event).setTimestamp(java.time.Instant.ofEpochMilli(written)).build();
            }
        }
        write(rows.rowsOf(event));
        if (summary != null) {
            count(summary.counterOf(event));
        }
    }
}
