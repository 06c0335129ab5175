package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.InvalidEventException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

/**
 * Sorts processing failures into the record's fault and the system's fault.
 *
 * <p>An {@link InvalidEventException} is the record's fault: retrying cannot help, so the raw
 * source record goes to its input topic's dead-letter topic ({@link DeadLetterTopics}) and
 * processing continues. Anything else -- an HBase write that failed, a bug -- fails the task,
 * so the record is processed again after the thread is replaced instead of being set aside while
 * HBase is merely unavailable.
 */
public final class RecordErrorHandler implements ProcessingExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(RecordErrorHandler.class);
    private DeadLetterTopics deadLetters;

    @Override
    public void configure(Map<String, ?> configs) {
        deadLetters = DeadLetterTopics.from(configs);
    }

    @Override
    public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        if (!isRecordFault(exception)) {
            return Response.fail();
        }
        List<ProducerRecord<byte[], byte[]>> dead = deadLetters.records(context.sourceRawKey(),
                context.sourceRawValue(), context, exception);
        if (dead.isEmpty()) {
            LOG.error("bad record at {}-{}@{} and no dead-letter topic for it: stopping", context.topic(),
                    context.partition(), context.offset(), exception);
            return Response.fail();
        }
        LOG.warn("bad record at {}-{}@{} set aside on {}: {}", context.topic(), context.partition(), context.offset(),
                dead.get(0).topic(), exception.getMessage());
        return Response.resume(dead);
    }

    static boolean isRecordFault(Throwable exception) {
        for (Throwable t = exception; t != null; t = t.getCause()) {
            if (t instanceof InvalidEventException) {
                return true;
            }
        }
        return false;
    }
}
