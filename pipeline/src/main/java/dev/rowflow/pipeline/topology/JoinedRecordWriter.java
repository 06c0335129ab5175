package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.format.Change;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.RecordSource;
import dev.rowflow.keying.mapping.RecordTree;
import dev.rowflow.sinks.RowSink;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes the joined rows of a joining input ({@link JoinTopology}). Of an input of events, each
 * joined record is the event with the joined row's fields under {@code as}, and its rows are
 * written as the event's are. Of change events, each is the input's row
 * image with the joined row's fields under {@code as}, and replaces the data row and its index
 * rows as a change event's image does ({@link RowSink#replace}, the stored row read first). The
 * data key each record key was last written under is kept in a state store, so that a joined row
 * whose key moved (an order moved to another customer, under a {@code [customer][order]} key)
 * deletes the row under the old key, and the deletion of the input's row deletes its row.
 *
 * <p>The store is committed with the offsets, after the flush of the rows written: after a
 * crash, the changes since the last commit are joined and written again, from the keys as they
 * were at that commit, and end in the same rows. That holds because a pipeline with a join runs
 * {@code exactly_once_v2}: under at-least-once the store would come back from its changelog with
 * keys written after the commit, and a row whose move the crash lost would stay under its old key.
 */
final class JoinedRecordWriter extends RowWriter<byte[], Map<String, Object>> {
    private final InputPlan plan;
    private final String as;
    private final EventMapping mapping;
    private final Deletes deletes;
    private KeyValueStore<Bytes, byte[]> written;

    JoinedRecordWriter(InputPlan plan, String as, SinkFactory sinks, FlushBeforeCommit flushBeforeCommit) {
        super(sinks, flushBeforeCommit);
        this.plan = plan;
        this.as = as;
        this.mapping = plan.mapping();
        this.deletes = plan.deletes();
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        super.init(context);
        written = context.getStateStore(JoinTopology.keysStore(plan.input()));
    }

    @Override
    public void process(Record<byte[], Map<String, Object>> record) {
        Bytes id = Bytes.wrap(record.key());
        byte[] before = written.get(id);
        if (record.value() == null) {
            if (before != null) {
                delete(before);
                written.delete(id);
            }
            return;
        }
        Map<String, Object> tree = new LinkedHashMap<>(JoinTopology.cast((Map<?, ?>) record.value().get(
                JoinTopology.AFTER)));
        if (record.value().get(JoinTopology.JOINED) instanceof Map<?, ?> joined) {
            tree.put(as, joined);
        }
        if (!deletes.changes()) {
            writeEvent(record, tree);
            return;
        }
        Object source = record.value().get(JoinTopology.SOURCE);
        Change change = new Change(Change.Op.of((String) record.value().get(JoinTopology.OP)), null, tree,
                source instanceof Map<?, ?> s ? JoinTopology.cast(s) : Map.of());
        ReadRecord read = new ReadRecord(tree, () -> RecordTree.compactJson(tree), change);
        EventMapping.Mapped mapped = decide(read, RecordSources.of(context(), record.withValue(read)));
        byte[] key = mapped.rows().get(0).key();
        if (before != null && !Arrays.equals(before, key)) {
            delete(before);
        }
        replace(mapping.spec().dataTable(), mapped.rows(), mapping, RowSink.Prior.STORED);
        written.put(id, key);
        mapped.counter().ifPresent(this::count);
    }

    /**
     * An event with the joined row's fields as of now: every row its mapping makes, written again
     * (its key is its own, so it never moves; a joined field that went away leaves its cell, as a
     * missing value of an event never deletes one).
     */
    private void writeEvent(Record<byte[], Map<String, Object>> record, Map<String, Object> tree) {
        byte[] value = java.util.Base64.getDecoder().decode((String) record.value().get(JoinTopology.VALUE));
        long timestamp = ((Number) record.value().get(JoinTopology.TIMESTAMP)).longValue();
        EventMapping.Mapped mapped = decide(new ReadRecord(tree, () -> value), RecordSource.ofTimestamp(timestamp));
        write(mapped.rows());
        mapped.counter().ifPresent(this::count);
    }

    /**
     * The rows the input's decision makes of a joined record, which its keyer (events) or its
     * table (change events) let through: rows, or a dead letter.
     */
    private EventMapping.Mapped decide(ReadRecord read, RecordSource source) {
        Decision decision = plan.decide(read, source, this::check);
        if (decision instanceof Decision.SetAside aside) {
            throw aside.reason();
        }
        if (decision instanceof Decision.Write write) {
            return write.mapped();
        }
        throw new IllegalStateException("input " + plan.input() + " decided " + decision + " of a joined record");
    }

    private void delete(byte[] dataKey) {
        delete(mapping.spec().dataTable(), dataKey, mapping, RowSink.Prior.STORED,
                found -> (found ? deletes.deleted() : deletes.absent()).increment());
    }
}
