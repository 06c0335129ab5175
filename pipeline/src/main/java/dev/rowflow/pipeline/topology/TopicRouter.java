package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.mapping.RecordSource;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.Record;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Sends each record of a topic to the writer of every input whose {@code where} takes it, in
 * declaration order: one read of the topic for several inputs. A record no input takes is
 * counted, and set aside if the topic says so. Tombstones go on to the writers, which decide.
 *
 * <p>A record one writer sets aside is set aside once, with that writer's reason; the writers
 * after it do not see it (rows the writers before it made stay, and are made again the same by a
 * replay).
 */
final class TopicRouter extends ContextualProcessor<byte[], ReadRecord, byte[], ReadRecord> {
    private final String topic;
    private final List<InputTopology.Route> routes;
    private final boolean unroutedToDeadLetter;
    private final LongAdder unrouted;

    TopicRouter(String topic, List<InputTopology.Route> routes, boolean unroutedToDeadLetter, LongAdder unrouted) {
        this.topic = topic;
        this.routes = routes;
        this.unroutedToDeadLetter = unroutedToDeadLetter;
        this.unrouted = unrouted;
    }

    @Override
    public void process(Record<byte[], ReadRecord> record) {
        if (record.value() == null) {
            for (InputTopology.Route route : routes) {
                context().forward(record, InputTopology.writerName(route.input()));
            }
            return;
        }
        RecordSource source = RecordSources.of(context(), record);
        boolean taken = false;
        for (InputTopology.Route route : routes) {
            if (route.where() == null || route.where().test(record.value().tree(), source)) {
                context().forward(record, InputTopology.writerName(route.input()));
                taken = true;
            } else {
                route.filtered().increment();
            }
        }
        if (!taken) {
            unrouted.increment();
            if (unroutedToDeadLetter) {
                throw new InvalidEventException("where", String.join(" | ", routes.stream()
                        .map(route -> route.input() + ": " + route.where()).toList()),
                        "no input of topic " + topic + " takes it (unrouted=dead-letter)");
            }
        }
    }
}
