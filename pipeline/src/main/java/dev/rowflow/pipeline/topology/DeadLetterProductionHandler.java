package dev.rowflow.pipeline.topology;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

/**
 * Production errors: what rowflow sends to Kafka itself (orders to the repartition topic, store
 * changelogs, dead letters) and Kafka refuses.
 *
 * <p>A record Kafka refuses for good because of what it is -- too large for the topic or the
 * request, or not serializable -- is the source record's fault: the source record goes unchanged
 * to its input's dead-letter topic and the flow goes on. Anything else (a broker away, a timeout)
 * fails the task, so the record is processed again rather than set aside. A dead letter that
 * cannot be sent also fails the task: setting it aside again would loop, and dropping it would
 * lose it; the log says which topic to fix.
 */
public final class DeadLetterProductionHandler implements ProductionExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterProductionHandler.class);
    private DeadLetterTopics deadLetters;

    @Override
    public void configure(Map<String, ?> configs) {
        deadLetters = DeadLetterTopics.from(configs);
    }

    @Override
    public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
        return setAside(context, record.topic(), exception instanceof RecordTooLargeException, exception);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Response handleSerializationError(ErrorHandlerContext context, ProducerRecord record, Exception exception,
                                             SerializationExceptionOrigin origin) {
        return setAside(context, record.topic(), true, exception);
    }

    private Response setAside(ErrorHandlerContext context, String target, boolean recordFault, Exception exception) {
        if (deadLetters.isDeadLetterTopic(target)) {
            LOG.error("dead letter of {}-{}@{} refused by {}: stopping (raise {}'s max.message.bytes or fix the "
                    + "broker)", context.topic(), context.partition(), context.offset(), target, target, exception);
            return Response.fail();
        }
        if (!recordFault) {
            return Response.fail();
        }
        List<ProducerRecord<byte[], byte[]>> dead = deadLetters.records(context.sourceRawKey(),
                context.sourceRawValue(), context, exception);
        if (dead.isEmpty()) {
            LOG.error("record from {}-{}@{} refused by {} and no dead-letter topic for it: stopping", context.topic(),
                    context.partition(), context.offset(), target, exception);
            return Response.fail();
        }
        LOG.warn("record from {}-{}@{} refused by {}, set aside on {}: {}", context.topic(), context.partition(),
                context.offset(), target, dead.get(0).topic(), exception.getMessage());
        return Response.resume(dead);
    }
}
