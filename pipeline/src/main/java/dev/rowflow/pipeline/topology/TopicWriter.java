package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.format.Change;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.RecordSource;
import dev.rowflow.sinks.RowSink;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

import java.util.List;
import java.util.function.Supplier;

/**
 * Carries out what the declared inputs of a topic decide of each record ({@link TopicPlan#judge}):
 * writes the rows and counts the counter of each input's mapping (see {@link RowWriter}), deletes
 * the record's row where the input's {@link Deletes} say so, replaces a change event's row with its
 * image. A record set aside goes to the dead-letter topic with the reason, before anything of it is
 * written.
 */
final class TopicWriter extends RowWriter<byte[], ReadRecord> {
    private final InputTopology.Routes routes;

    TopicWriter(InputTopology.Routes routes, SinkFactory sinks, FlushBeforeCommit flushBeforeCommit) {
        super(sinks, flushBeforeCommit);
        this.routes = routes;
    }

    @Override
    public void process(Record<byte[], ReadRecord> record) {
        RecordSource source = RecordSources.of(context(), record);
        InputTopology.Routing routing = routes.of(context().recordMetadata().map(RecordMetadata::topic).orElse(null),
                record.key());
        TopicPlan.Judgement judgement = routing.plan().judge(record.value(), source, this::check);
        List<InputTopology.Route> routes = routing.routes();
        if (judgement.setAside() != null) {
            // Whose where did not take it, did not: counted, though another input sets it aside.
            for (int i = 0; i < judgement.decisions().size(); i++) {
                if (judgement.decisions().get(i) instanceof Decision.NotTaken) {
                    routes.get(i).filtered().increment();
                }
            }
            throw judgement.setAside();
        }
        if (record.value() != null && judgement.unrouted()) {
            routing.unrouted().increment();
        }
        for (int i = 0; i < judgement.decisions().size(); i++) {
            carryOut(routes.get(i), judgement.decisions().get(i), record.value(), source);
        }
    }

    private void carryOut(InputTopology.Route route, Decision decision, ReadRecord read, RecordSource source) {
        InputPlan input = route.plan();
        if (decision instanceof Decision.NotTaken) {
            route.filtered().increment();
        } else if (decision instanceof Decision.Ignored) {
            input.deletes().ignored().increment();
        } else if (decision instanceof Decision.Delete delete) {
            delete(input, delete.dataKey(), delete.change() == null ? RowSink.Prior.STORED
                    : prior(input, delete.change(), source, read.canonical()));
        } else if (decision instanceof Decision.Write write) {
            EventMapping.Mapped mapped = write.mapped();
            if (write.change() != null) {
                // A row image: the row becomes it, cells of columns it lacks and index rows it no longer has gone.
                // Creates and snapshot reads too: replayed, one meets the newer image of its row (whose cells
                // keep the newer timestamps), and only reading the stored row finds the index rows that image has.
                RowSink.Prior prior = prior(input, write.change(), source, read.canonical());
                if (write.movedFrom() != null) {
                    // A key part changed (an order moved to another customer, in a [customer][order] key): the
                    // row under the old key goes, and the new one has had no row.
                    delete(input, write.movedFrom(), prior);
                    prior = input.deletes().fullBefore() ? RowSink.Prior.NONE : RowSink.Prior.STORED;
                }
                replace(input.mapping().spec().dataTable(), mapped.rows(), input.mapping(), prior);
            } else {
                write(mapped.rows());
            }
            mapped.counter().ifPresent(this::count);
        }
    }

    /**
     * The row before {@code change} as the sink should take it: read from the store, unless the
     * input's change events carry full before images -- then none for a create or a snapshot read,
     * and the data row of the before image for an update or delete that has one.
     */
    private static RowSink.Prior prior(InputPlan input, Change change, RecordSource source,
                                       Supplier<byte[]> canonical) {
        if (!input.deletes().fullBefore()) {
            return RowSink.Prior.STORED;
        }
        if (change.op() == Change.Op.CREATE || change.op() == Change.Op.READ) {
            return RowSink.Prior.NONE;
        }
        if (change.before() == null) {
            return RowSink.Prior.STORED; // this table logs no old values after all
        }
        try {
            return RowSink.Prior.of(input.mapping().apply(change.before(), source, canonical).rows().get(0));
        } catch (InvalidEventException e) {
            return RowSink.Prior.STORED; // an image the mapping makes no row of: the stored row tells
        }
    }

    private void delete(InputPlan input, byte[] dataKey, RowSink.Prior prior) {
        Deletes deletes = input.deletes();
        delete(input.mapping().spec().dataTable(), dataKey, input.mapping(), prior,
                found -> (found ? deletes.deleted() : deletes.absent()).increment());
    }
}
