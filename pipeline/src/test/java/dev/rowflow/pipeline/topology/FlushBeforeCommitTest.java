package dev.rowflow.pipeline.topology;

import dev.rowflow.sinks.RowSink;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FlushBeforeCommitTest {
    private final FlushBeforeCommit flushBeforeCommit = new FlushBeforeCommit();

    private Producer<byte[], byte[]> producer() {
        // No record is ever sent, so no broker is contacted: flush() returns once the sink is flushed.
        return flushBeforeCommit.clientSupplier().getProducer(Map.of("bootstrap.servers", "127.0.0.1:9"));
    }

    @Test
    void shouldFlushTheSinkOfTheCommittingThreadWhenStreamsFlushesItsProducer() throws Exception {
        InMemoryRowSink mine = new InMemoryRowSink();
        InMemoryRowSink otherThreads = new InMemoryRowSink();
        flushBeforeCommit.open(() -> mine);
        CompletableFuture.runAsync(() -> {
            try {
                flushBeforeCommit.open(() -> otherThreads);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }).get();

        try (Producer<byte[], byte[]> producer = producer()) {
            producer.flush();
        }

        assertThat(mine.flushes()).isEqualTo(1);
        assertThat(otherThreads.flushes()).isZero();
    }

    @Test
    void shouldShareOneSinkAmongTheTasksOfAThreadAndCloseItWithTheLast() throws Exception {
        AtomicInteger opened = new AtomicInteger();
        SinkFactory factory = () -> {
            opened.incrementAndGet();
            return new InMemoryRowSink();
        };

        RowSink first = flushBeforeCommit.open(factory);
        RowSink second = flushBeforeCommit.open(factory);
        assertThat(second).isSameAs(first);
        assertThat(opened).hasValue(1);

        flushBeforeCommit.close(first);
        assertThat(((InMemoryRowSink) first).closed()).isFalse();
        flushBeforeCommit.close(second);
        assertThat(((InMemoryRowSink) first).closed()).isTrue();
        flushBeforeCommit.flushSinksOfThisThread();
        assertThat(((InMemoryRowSink) first).flushes()).as("a closed sink is not flushed again").isEqualTo(1);
    }

    @Test
    void shouldFailTheProducerFlushAndSoTheCommitWhenTheSinkCannotFlush() throws Exception {
        InMemoryRowSink failing = new InMemoryRowSink();
        failing.failNextFlush(new IOException("region server gone"));
        flushBeforeCommit.open(() -> failing);

        try (Producer<byte[], byte[]> producer = producer()) {
            assertThatThrownBy(producer::flush)
                    .isInstanceOf(StreamsException.class)
                    .hasMessageContaining("offsets not committed").hasMessageContaining("region server gone");
        }
    }
}
