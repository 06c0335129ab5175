package dev.rowflow.pipeline.topology;

import dev.rowflow.sinks.RowSink;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.errors.StreamsException;

import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Ties the flush of the HBase sinks to Kafka Streams' commit (see the package javadoc).
 *
 * <p>Each {@link dev.rowflow.sinks.RowSink} is registered by its processor on the stream thread
 * that runs it. The {@link KafkaClientSupplier} of this class gives each stream thread a producer
 * whose {@code flush()} -- which Kafka Streams calls before it commits the thread's offsets --
 * first flushes that thread's sinks. One instance per {@code KafkaStreams}.
 */
public final class FlushBeforeCommit {
    private final ThreadLocal<Set<RowSink>> sinksOfThread = ThreadLocal.withInitial(LinkedHashSet::new);

    /** Called by a processor on its stream thread when it opens its sink. */
    public void register(RowSink sink) {
        sinksOfThread.get().add(sink);
    }

    /** Called by a processor on its stream thread when it closes its sink. */
    public void unregister(RowSink sink) {
        sinksOfThread.get().remove(sink);
    }

    /**
     * Flushes every sink of the calling thread.
     *
     * @throws StreamsException if a flush fails: the commit must not happen
     */
    public void flushSinksOfThisThread() {
        for (RowSink sink : sinksOfThread.get()) {
            try {
                sink.flush();
            } catch (IOException | RuntimeException e) {
                throw new StreamsException("HBase flush failed; offsets not committed, records will be processed again: "
                        + e.getMessage(), e);
            }
        }
    }

    /** The client supplier to construct {@code KafkaStreams} with. */
    public KafkaClientSupplier clientSupplier() {
        return new KafkaClientSupplier() {
            @Override
            public Admin getAdmin(Map<String, Object> config) {
                return Admin.create(config);
            }

            @Override
            public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
                return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()) {
                    @Override
                    public void flush() {
                        flushSinksOfThisThread();
                        super.flush();
                    }
                };
            }

            @Override
            public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
                return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            }

            @Override
            public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
                return getConsumer(config);
            }

            @Override
            public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
                return getConsumer(config);
            }
        };
    }
}
