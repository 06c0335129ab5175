package dev.rowflow.pipeline.topology;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.sinks.RowSink;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Writes the data row and index row of each log event to the stream thread's sink. The rows
 * become durable at the next commit (see {@link FlushBeforeCommit}).
 *
 * <p>An event that cannot become rows throws {@link InvalidEventException} before anything is
 * written, so the record goes to the dead-letter topic whole; a failure of the sink itself throws
 * {@link UncheckedIOException} and fails the task, which reprocesses from the last commit.
 */
final class LogEventWriter implements Processor<byte[], LogEvent, Void, Void> {
    private final LogEventRows rows;
    private final SinkFactory sinks;
    private final FlushBeforeCommit flushBeforeCommit;
    private RowSink sink;

    LogEventWriter(LogEventRows rows, SinkFactory sinks, FlushBeforeCommit flushBeforeCommit) {
        this.rows = rows;
        this.sinks = sinks;
        this.flushBeforeCommit = flushBeforeCommit;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        try {
            sink = flushBeforeCommit.open(sinks);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the sink of task " + context.taskId(), e);
        }
    }

    @Override
    public void process(Record<byte[], LogEvent> record) {
        if (record.value() == null) {
            throw new InvalidEventException("value", null, "the logs topic carries no tombstones (null values)");
        }
        List<Row> eventRows = rows.rowsOf(record.value());
        // All-or-nothing per event: a row the store would refuse sends the whole event to the
        // dead-letter topic before any of its rows is written.
        eventRows.forEach(sink::check);
        try {
            for (Row row : eventRows) {
                sink.write(row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("HBase write failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (sink == null) {
            return;
        }
        try {
            // Rows made durable here without a commit are simply rewritten by the replay.
            flushBeforeCommit.close(sink);
        } catch (IOException e) {
            throw new UncheckedIOException("closing the HBase sink failed: " + e.getMessage(), e);
        }
    }
}
