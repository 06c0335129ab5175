package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import org.apache.hadoop.hbase.client.RetriesExhaustedException;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;

import static org.assertj.core.api.Assertions.assertThat;

class RecordErrorHandlerTest {

    @Test
    void shouldBlameTheRecordOnlyForWhatRetryingCannotFix() {
        assertThat(RecordErrorHandler.isRecordFault(new InvalidEventException(Refusal.EMPTY, "hostname", "", "must not be empty")))
                .isTrue();
        assertThat(RecordErrorHandler.isRecordFault(new IllegalStateException("wrapped",
                new InvalidEventException(Refusal.OUT_OF_RANGE, "timestamp", -1, "must not be negative")))).isTrue();
        assertThat(RecordErrorHandler.isRecordFault(new UncheckedIOException(
                new RetriesExhaustedException("HBase down")))).isFalse();
        assertThat(RecordErrorHandler.isRecordFault(new NullPointerException())).isFalse();
    }
}
