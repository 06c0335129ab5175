package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.format.Change;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.RecordSource;
import dev.rowflow.sinks.RowSink;
import org.apache.kafka.streams.processor.api.Record;

import java.util.Arrays;
import java.util.Map;
import java.util.function.Supplier;

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
    private final InputTopology.Route route;

    MappedRecordWriter(String topic, InputTopology.Route route, SinkFactory sinks,
                       FlushBeforeCommit flushBeforeCommit) {
        super(sinks, flushBeforeCommit);
        this.topic = topic;
        this.input = route.input();
        this.mapping = route.mapping();
        this.deletes = route.deletes();
        this.route = route;
    }

    @Override
    public void process(Record<byte[], ReadRecord> record) {
        RecordSource source = RecordSources.of(context(), record);
        if (record.value() == null) {
            switch (deletes.tombstones()) {
                case DEAD_LETTER -> throw EventRules.tombstone(topic, "input " + input + " takes its records as "
                        + "events (tombstones=dead-letter; ignore and delete are the other choices)");
                case IGNORE -> deletes.ignored().increment();
                case DELETE -> delete(mapping.dataKeyOf(Map.of(), source), RowSink.Prior.STORED);
            }
            return;
        }
        Map<String, Object> tree = record.value().tree();
        Change change = record.value().change();
        if (change != null && change.op() == Change.Op.DELETE) {
            delete(mapping.dataKeyOf(tree, source), prior(change, source, record.value().canonical()));
            return;
        }
        if (deletes.when() != null && deletes.when().test(tree, source)) {
            delete(mapping.dataKeyOf(tree, source), RowSink.Prior.STORED);
            return;
        }
        route.check(tree, source);
        EventMapping.Mapped mapped = mapping.apply(tree, source, record.value().canonical());
        if (change != null) {
            // A row image: the row becomes it, cells of columns it lacks and index rows it no longer has gone.
            // Creates and snapshot reads too: replayed, one meets the newer image of its row (whose cells
            // keep the newer timestamps), and only reading the stored row finds the index rows that image has.
            RowSink.Prior prior = prior(change, source, record.value().canonical());
            byte[] key = mapped.rows().get(0).key();
            byte[] before = keyBefore(change, source);
            if (before != null && !Arrays.equals(before, key)) {
                // A key part changed (an order moved to another customer, in a [customer][order] key): the
                // row under the old key goes, and the new one has had no row.
                delete(before, prior);
                prior = deletes.fullBefore() ? RowSink.Prior.NONE : RowSink.Prior.STORED;
            }
            replace(mapping.spec().dataTable(), mapped.rows(), mapping, prior);
        } else {
            write(mapped.rows());
        }
        mapped.counter().ifPresent(this::count);
    }

    /**
     * The row before {@code change} as the sink should take it: read from the store, unless the
     * input's change events carry full before images -- then none for a create or a snapshot read,
     * and the data row of the before image for an update or delete that has one.
     */
    private RowSink.Prior prior(Change change, RecordSource source, Supplier<byte[]> canonical) {
        if (!deletes.fullBefore()) {
            return RowSink.Prior.STORED;
        }
        if (change.op() == Change.Op.CREATE || change.op() == Change.Op.READ) {
            return RowSink.Prior.NONE;
        }
        if (change.before() == null) {
            return RowSink.Prior.STORED; // this table logs no old values after all
        }
        try {
            return RowSink.Prior.of(mapping.apply(change.before(), source, canonical).rows().get(0));
        } catch (InvalidEventException e) {
            return RowSink.Prior.STORED; // an image the mapping makes no row of: the stored row tells
        }
    }

    /** The data key of an update's before image, or null if it has none (or the mapping makes none of it). */
    private byte[] keyBefore(Change change, RecordSource source) {
        if (change.op() != Change.Op.UPDATE || change.before() == null) {
            return null;
        }
        try {
            return mapping.dataKeyOf(change.before(), source);
        } catch (InvalidEventException e) {
            return null;
        }
    }

    private void delete(byte[] dataKey, RowSink.Prior prior) {
        delete(mapping.spec().dataTable(), dataKey, mapping, prior,
                found -> (found ? deletes.deleted() : deletes.absent()).increment());
    }
}
