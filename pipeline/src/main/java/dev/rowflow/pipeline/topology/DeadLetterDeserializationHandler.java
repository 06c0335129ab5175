package dev.rowflow.pipeline.topology;

import dev.rowflow.pipeline.registry.RegistryUnavailableException;
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
 * topic's dead-letter topic ({@link DeadLetterTopics}) and processing continues -- unless the
 * Schema Registry was unavailable ({@link RegistryUnavailableException}): that is not the record's
 * fault, so it is not set aside, and the stream thread stops with the record uncommitted.
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
        if (exception instanceof RegistryUnavailableException) {
            // Not the record's fault: the pipeline is closing while its schema could not be fetched.
            // It stays uncommitted and is read again after the restart.
            LOG.info("record at {}-{}@{} left unread: {}", context.topic(), context.partition(), context.offset(),
                    exception.getMessage());
            return Response.fail();
        }
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
