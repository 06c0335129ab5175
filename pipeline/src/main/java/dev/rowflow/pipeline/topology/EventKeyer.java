package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.mapping.EventMapping;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Keys the records of an input of events that joins another by the data row key its mapping makes
 * of each, before the join ({@link JoinTopology}): the record's tree, its value as its format keeps
 * it and its timestamp go on, keyed so that a record sent again replaces itself in the join's
 * table. Mapping the record here, without the joined fields, is also its check: a record that
 * cannot make rows fails at its own topic's offset and is set aside as it was read.
 */
final class EventKeyer implements Processor<byte[], ReadRecord, byte[], Map<String, Object>> {
    private final InputTopology.Route route;
    private ProcessorContext<byte[], Map<String, Object>> context;

    EventKeyer(InputTopology.Route route) {
        this.route = route;
    }

    @Override
    public void init(ProcessorContext<byte[], Map<String, Object>> context) {
        this.context = context;
    }

    @Override
    public void process(Record<byte[], ReadRecord> record) {
        ReadRecord read = record.value();
        if (read == null) {
            throw EventRules.tombstone(context.recordMetadata().map(m -> m.topic()).orElse(route.input()), "input "
                    + route.input() + " takes its records as events and joins another, so a record with no value "
                    + "names no row");
        }
        dev.rowflow.keying.mapping.RecordSource source = RecordSources.of(context, record);
        route.check(read.tree(), source);
        EventMapping.Mapped mapped = route.mapping().apply(read.tree(), source, read.canonical());
        Map<String, Object> event = new LinkedHashMap<>();
        event.put(JoinTopology.AFTER, read.tree());
        event.put(JoinTopology.VALUE, Base64.getEncoder().encodeToString(read.canonical().get()));
        event.put(JoinTopology.TIMESTAMP, record.timestamp());
        context.forward(record.withKey(mapped.rows().get(0).key()).withValue(event));
    }
}
