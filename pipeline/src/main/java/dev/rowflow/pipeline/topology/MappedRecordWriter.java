package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.mapping.EventMapping;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Writes the rows and counts the counter a declared mapping makes of each record (see
 * {@link RowWriter}); what the mapping refuses, the record's timestamp policy included, goes to
 * the dead-letter topic with the mapping's reason.
 */
final class MappedRecordWriter extends RowWriter<byte[], ReadRecord> {
    private final String topic;
    private final EventMapping mapping;

    MappedRecordWriter(String topic, EventMapping mapping, SinkFactory sinks, FlushBeforeCommit flushBeforeCommit) {
        super(sinks, flushBeforeCommit);
        this.topic = topic;
        this.mapping = mapping;
    }

    @Override
    public void process(Record<byte[], ReadRecord> record) {
        if (record.value() == null) {
            throw EventRules.tombstone(topic, "its records are events, and rowflow does not delete on them");
        }
        EventMapping.Mapped mapped = mapping.apply(record.value().tree(), RecordSources.of(context(), record),
                record.value().canonical());
        write(mapped.rows());
        mapped.counter().ifPresent(this::count);
    }
}
