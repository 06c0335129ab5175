package dev.rowflow.pipeline.topology;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.log.LogEventRows;
import org.apache.kafka.streams.processor.api.Record;

/** Writes the data row and index row of each log event (see {@link RowWriter}). */
final class LogEventWriter extends RowWriter<byte[], LogEvent> {
    private final LogEventRows rows;

    LogEventWriter(LogEventRows rows, SinkFactory sinks, FlushBeforeCommit flushBeforeCommit) {
        super(sinks, flushBeforeCommit);
        this.rows = rows;
    }

    @Override
    public void process(Record<byte[], LogEvent> record) {
        if (record.value() == null) {
            throw new InvalidEventException("value", null, "the logs topic carries no tombstones (null values)");
        }
        write(rows.rowsOf(record.value()));
    }
}
