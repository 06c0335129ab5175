package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.format.Change;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.RecordSource;
import org.apache.kafka.streams.processor.api.Record;

import java.util.Map;

/**
 * Writes the rows and counts the counter a declared mapping makes of each record (see
 * {@link RowWriter}), or deletes the record's row where the input's {@link Deletes} say so; a
 * change event's create, snapshot read or update replaces the row with its image; what
 * the mapping refuses, the record's timestamp policy included, goes to the dead-letter topic with
 * the mapping's reason.
 */
final class MappedRecordWriter extends RowWriter<byte[], ReadRecord> {
    private final String topic;
    private final String input;
    private final EventMapping mapping;
    private final Deletes deletes;

    MappedRecordWriter(String topic, InputTopology.Route route, SinkFactory sinks,
                       FlushBeforeCommit flushBeforeCommit) {
        super(sinks, flushBeforeCommit);
        this.topic = topic;
        this.input = route.input();
        this.mapping = route.mapping();
        this.deletes = route.deletes();
    }

    @Override
    public void process(Record<byte[], ReadRecord> record) {
        RecordSource source = RecordSources.of(context(), record);
        if (record.value() == null) {
            switch (deletes.tombstones()) {
                case DEAD_LETTER -> throw EventRules.tombstone(topic, "input " + input + " takes its records as "
                        + "events (tombstones=dead-letter; ignore and delete are the other choices)");
                case IGNORE -> deletes.ignored().increment();
                case DELETE -> delete(mapping.dataKeyOf(Map.of(), source));
            }
            return;
        }
        Map<String, Object> tree = record.value().tree();
        Change change = record.value().change();
        if (change != null && change.op() == Change.Op.DELETE
                || deletes.when() != null && deletes.when().test(tree, source)) {
            delete(mapping.dataKeyOf(tree, source));
            return;
        }
        EventMapping.Mapped mapped = mapping.apply(tree, source, record.value().canonical());
        if (change != null) {
            // A row image: the row becomes it, cells of columns it lacks and index rows it no longer has gone.
            // Creates and snapshot reads too: replayed, one meets the newer image of its row (whose cells
            // keep the newer timestamps), and only reading the stored row finds the index rows that image has.
            replace(mapping.spec().dataTable(), mapped.rows(), mapping);
        } else {
            write(mapped.rows());
        }
        mapped.counter().ifPresent(this::count);
    }

    private void delete(byte[] dataKey) {
        delete(mapping.spec().dataTable(), dataKey, mapping,
                found -> (found ? deletes.deleted() : deletes.absent()).increment());
    }
}
