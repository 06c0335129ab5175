package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.mapping.EventMapping;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Writes the rows and counts the counter a declared mapping makes of each record (see
 * {@link RowWriter}). The event time goes through the {@link TimestampPolicy} first: a time
 * before 1970 or too far ahead is set aside or clamped before any row is made of it.
 */
final class MappedRecordWriter extends RowWriter<byte[], ReadRecord> {
    private final String topic;
    private final EventMapping mapping;
    private final TimestampPolicy timestamps;

    MappedRecordWriter(String topic, EventMapping mapping, TimestampPolicy timestamps, SinkFactory sinks,
                       FlushBeforeCommit flushBeforeCommit) {
        super(sinks, flushBeforeCommit);
        this.topic = topic;
        this.mapping = mapping;
        this.timestamps = timestamps;
    }

    @Override
    public void process(Record<byte[], ReadRecord> record) {
        if (record.value() == null) {
            throw new InvalidEventException("value", null, "the " + topic + " topic carries no tombstones (null values): "
                    + "its records are events, and rowflow does not delete on them");
        }
        var tree = record.value().tree();
        long time = timestamps.apply(mapping.timePath().text(), mapping.eventTime(tree, record.timestamp()),
                record.timestamp());
        write(mapping.rowsOf(tree, record.value().canonical(), time));
        mapping.counterOf(tree, time).ifPresent(this::count);
    }
}
