package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.format.ReadRecord;
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
 * table; a record that deletes its row goes on as the deletion of that key. Deciding the record
 * here ({@link InputPlan#decide}), without the joined fields, is also its check: a record that
 * cannot make rows fails at its own topic's offset and is set aside as it was read.
 */
final class EventKeyer implements Processor<byte[], ReadRecord, byte[], Map<String, Object>> {
    private final InputPlan plan;
    private ProcessorContext<byte[], Map<String, Object>> context;

    EventKeyer(InputPlan plan) {
        this.plan = plan;
    }

    @Override
    public void init(ProcessorContext<byte[], Map<String, Object>> context) {
        this.context = context;
    }

    @Override
    public void process(Record<byte[], ReadRecord> record) {
        ReadRecord read = record.value();
        Decision decision = plan.decide(read, RecordSources.of(context, record), row -> {
            // the store judges the rows the writer makes of the joined record
        });
        if (decision instanceof Decision.SetAside aside) {
            throw aside.reason();
        } else if (decision instanceof Decision.Delete delete) {
            // The joined table forgets the event: its writer deletes the rows written of it.
            context.forward(record.withKey(delete.dataKey()).withValue(null));
        } else if (decision instanceof Decision.Write write) {
            Map<String, Object> event = new LinkedHashMap<>();
            event.put(JoinTopology.AFTER, read.tree());
            event.put(JoinTopology.VALUE, Base64.getEncoder().encodeToString(read.canonical().get()));
            event.put(JoinTopology.TIMESTAMP, record.timestamp());
            context.forward(record.withKey(write.mapped().rows().get(0).key()).withValue(event));
        }
    }
}
