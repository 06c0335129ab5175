package dev.rowflow.pipeline.topology;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

/**
 * A record that cannot be read (not Avro, truncated, unknown schema) goes unchanged to its input
 * topic's dead-letter topic ({@link DeadLetterTopics}) and processing continues.
 */
public final class DeadLetterDeserializationHandler implements DeserializationExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterDeserializationHandler.class);
    private DeadLetterTopics deadLetters;

    @Override
    public void configure(Map<String, ?> configs) {
        deadLetters = DeadLetterTopics.from(configs);
    }

    @Override
    public Response handleError(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
        List<ProducerRecord<byte[], byte[]>> dead = deadLetters.records(record.key(), record.value(), context, exception);
        if (dead.isEmpty()) {
            LOG.error("unreadable record at {}-{}@{} and no dead-letter topic for it: stopping", context.topic(),
                    context.partition(), context.offset(), exception);
            return Response.fail();
        }
        LOG.warn("unreadable record at {}-{}@{} set aside on {}: {}", context.topic(), context.partition(),
                context.offset(), dead.get(0).topic(), exception.getMessage());
        return Response.resume(dead);
    }
}
