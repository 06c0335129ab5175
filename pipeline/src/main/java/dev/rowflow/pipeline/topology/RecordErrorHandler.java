package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.InvalidEventException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Sorts processing failures into the record's fault and the system's fault.
 *
 * <p>An {@link InvalidEventException} is the record's fault: retrying cannot help, so the record
 * goes to the dead-letter topic (Kafka Streams builds it from the raw source record, with the
 * {@code __streams.errors.*} headers: exception, message, stack trace, topic, partition, offset)
 * and processing continues. Anything else -- an HBase write that failed, a bug -- fails the task,
 * so the record is processed again after the thread is replaced instead of being set aside while
 * HBase is merely unavailable.
 */
public final class RecordErrorHandler extends LogAndContinueProcessingExceptionHandler {

    @Override
    public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        if (isRecordFault(exception)) {
            return super.handleError(context, record, exception);
        }
        return Response.fail();
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
