package dev.rowflow.pipeline.topology;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FlushBeforeCommitTest {
    private final FlushBeforeCommit flushBeforeCommit = new FlushBeforeCommit();

    private Producer<byte[], byte[]> producer() {
        // No record is ever sent, so no broker is contacted: flush() returns once the sinks are flushed.
        return flushBeforeCommit.clientSupplier().getProducer(Map.of("bootstrap.servers", "127.0.0.1:9"));
    }

    @Test
    void shouldFlushTheSinksOfTheCommittingThreadWhenStreamsFlushesItsProducer() throws Exception {
        InMemoryRowSink mine = new InMemoryRowSink();
        InMemoryRowSink otherThreads = new InMemoryRowSink();
        flushBeforeCommit.register(mine);
        CompletableFuture.runAsync(() -> flushBeforeCommit.register(otherThreads)).get();

        try (Producer<byte[], byte[]> producer = producer()) {
            producer.flush();
        }

        assertThat(mine.flushes()).isEqualTo(1);
        assertThat(otherThreads.flushes()).isZero();
    }

    @Test
    void shouldFailTheProducerFlushAndSoTheCommitWhenASinkCannotFlush() {
        InMemoryRowSink failing = new InMemoryRowSink();
        failing.failNextFlush(new IOException("region server gone"));
        flushBeforeCommit.register(failing);

        try (Producer<byte[], byte[]> producer = producer()) {
            assertThatThrownBy(producer::flush)
                    .isInstanceOf(StreamsException.class)
                    .hasMessageContaining("offsets not committed").hasMessageContaining("region server gone");
        }
    }

    @Test
    void shouldForgetAClosedSink() {
        InMemoryRowSink sink = new InMemoryRowSink();
        flushBeforeCommit.register(sink);
        flushBeforeCommit.unregister(sink);

        flushBeforeCommit.flushSinksOfThisThread();

        assertThat(sink.flushes()).isZero();
    }
}
