package dev.rowflow.pipeline.topology;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.Response;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.Result;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DeadLetterProductionHandlerTest {
    private static final byte[] SOURCE_KEY = "o-1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] SOURCE_VALUE = {1, 2, 3};
    private final DeadLetterProductionHandler handler = new DeadLetterProductionHandler();

    DeadLetterProductionHandlerTest() {
        handler.configure(Map.of(DeadLetterTopics.CONFIG, "orders=orders.dead-letter,logs=logs.dead-letter"));
    }

    @Test
    void shouldSetTheSourceRecordAsideWhenKafkaRefusesWhatItBecameForItsSize() {
        Response response = handler.handleError(context("orders"), new ProducerRecord<>("app-orders-by-customer-repartition",
                new byte[]{9}, new byte[5_000_000]), new RecordTooLargeException("5000088 bytes"));
        assertThat(response.result()).isEqualTo(Result.RESUME);
        assertThat(response.deadLetterQueueRecords()).hasSize(1);
        ProducerRecord<byte[], byte[]> dead = response.deadLetterQueueRecords().get(0);
        assertThat(dead.topic()).isEqualTo("orders.dead-letter");
        assertThat(dead.key()).isEqualTo(SOURCE_KEY);
        assertThat(dead.value()).isEqualTo(SOURCE_VALUE);
        assertThat(new String(dead.headers().lastHeader("__streams.errors.exception").value(), StandardCharsets.UTF_8))
                .isEqualTo(RecordTooLargeException.class.getName());
    }

    @Test
    void shouldFailTheTaskWhenKafkaIsAwayRatherThanSetTheRecordAside() {
        Response response = handler.handleError(context("orders"), new ProducerRecord<>("app-orders-by-customer-repartition",
                new byte[]{9}, new byte[10]), new TimeoutException("no broker"));
        assertThat(response.result()).isEqualTo(Result.FAIL);
        assertThat(response.deadLetterQueueRecords()).isEmpty();
    }

    @Test
    void shouldFailRatherThanLoopWhenTheDeadLetterItselfIsRefused() {
        Response response = handler.handleError(context("logs"), new ProducerRecord<>("logs.dead-letter",
                SOURCE_KEY, SOURCE_VALUE), new RecordTooLargeException("dead letter too large"));
        assertThat(response.result()).isEqualTo(Result.FAIL);
        assertThat(response.deadLetterQueueRecords()).isEmpty();
    }

    private static ErrorHandlerContext context(String sourceTopic) {
        return new ErrorHandlerContext() {
            public String topic() { return sourceTopic; }
            public int partition() { return 0; }
            public long offset() { return 42; }
            public Headers headers() { return new RecordHeaders(); }
            public String processorNodeId() { return "by-customer"; }
            public TaskId taskId() { return new TaskId(0, 0); }
            public long timestamp() { return 1_700_000_000_000L; }
            public byte[] sourceRawKey() { return SOURCE_KEY; }
            public byte[] sourceRawValue() { return SOURCE_VALUE; }
        };
    }
}
