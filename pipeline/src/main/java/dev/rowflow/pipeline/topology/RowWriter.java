package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.Counter;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.mapping.EventMapping;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import dev.rowflow.sinks.RowSink;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * A processor that writes rows to its stream thread's sink; the rows become durable at the next
 * commit (see {@link FlushBeforeCommit}).
 *
 * <p>Writing is all-or-nothing per record: {@link InputPlan#decide} has every row {@link #check}ed
 * first, so a row the store would refuse ({@link dev.rowflow.keying.InvalidEventException}) sends
 * the whole record to the dead-letter topic before any of its rows is written. A failure of the sink itself throws
 * {@link UncheckedIOException} and fails the task, which reprocesses from the last commit.
 */
abstract class RowWriter<K, V> implements Processor<K, V, Void, Void> {
    private final SinkFactory sinks;
    private final FlushBeforeCommit flushBeforeCommit;
    private RowSink sink;
    private ProcessorContext<Void, Void> context;

    RowWriter(SinkFactory sinks, FlushBeforeCommit flushBeforeCommit) {
        this.sinks = sinks;
        this.flushBeforeCommit = flushBeforeCommit;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        try {
            sink = flushBeforeCommit.open(sinks);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the sink of task " + context.taskId(), e);
        }
    }

    /** Refuses a row the store would refuse (see {@link RowSink#check}). */
    final void check(Row row) {
        sink.check(row);
    }

    /** Writes rows a decision {@link #check}ed. */
    final void write(List<Row> rows) {
        try {
            for (Row row : rows) {
                sink.write(row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("HBase write failed: " + e.getMessage(), e);
        }
    }

    /**
     * Replaces a data row and its index rows with {@code rows} (the data row first, then its index
     * rows; see {@link RowSink#replace}), which a decision {@link #check}ed.
     */
    final void replace(TableRole table, List<Row> rows, EventMapping mapping, RowSink.Prior prior) {
        try {
            sink.replace(table, rows, mapping, prior);
        } catch (IOException e) {
            throw new UncheckedIOException("HBase write failed: " + e.getMessage(), e);
        }
    }

    /** Deletes a data row and its index rows (see {@link RowSink#delete}). */
    final void delete(TableRole table, byte[] key, EventMapping mapping, RowSink.Prior prior,
                      RowSink.DeleteOutcome outcome) {
        try {
            sink.delete(table, key, mapping, prior, outcome);
        } catch (IOException e) {
            throw new UncheckedIOException("HBase delete failed: " + e.getMessage(), e);
        }
    }

    /**
     * Adds to a counter once for the record being processed, whose topic partition and offset
     * make the increment idempotent (see {@link RowSink#count}).
     */
    final void count(Counter counter) {
        RecordMetadata source = context.recordMetadata().orElseThrow(() -> new IllegalStateException(
                "counting needs the record's topic, partition and offset"));
        sink.count(counter, source.topic() + "-" + source.partition(), source.offset());
    }

    /** The context of the record being processed. */
    final ProcessorContext<Void, Void> context() {
        return context;
    }

    /** Makes everything written so far durable now, not at the next commit. */
    final void flush() {
        try {
            sink.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("HBase flush failed: " + e.getMessage(), e);
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
