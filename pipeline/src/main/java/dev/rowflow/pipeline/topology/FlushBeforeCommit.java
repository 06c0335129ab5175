package dev.rowflow.pipeline.topology;

import dev.rowflow.sinks.RowSink;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.errors.StreamsException;

import java.io.IOException;
import java.util.Map;

/**
 * Ties the flush of the HBase sinks to Kafka Streams' commit (see the package javadoc).
 *
 * <p>Each stream thread has one {@link RowSink}, opened by the first of its tasks' processors and
 * closed with the last: its buffers fill with the rows of all the thread's tasks, so the HBase
 * client sends fewer, larger batches (as one writer would) instead of one small buffer per task.
 * The {@link KafkaClientSupplier} of this class gives each stream thread a producer whose
 * {@code flush()} -- which Kafka Streams calls before it commits the thread's offsets -- first
 * flushes that thread's sink. A failed flush fails the commit of every task of the thread, which
 * is what a failure of the thread means anyway: all of them are processed again from their last
 * commit. One instance per {@code KafkaStreams}.
 *
 * <p>Its main consumers also tell {@link StatusEvents} of each commit, and a replay's hand Kafka
 * Streams only the records of its {@link ReplayRange}.
 */
public final class FlushBeforeCommit {
    /** The sink of one stream thread and how many processors use it. */
    private static final class ThreadSink {
        private final RowSink sink;
        private int users;

        ThreadSink(RowSink sink) {
            this.sink = sink;
        }
    }

    private final ThreadLocal<ThreadSink> sinkOfThread = new ThreadLocal<>();
    private final StatusEvents events;
    private final ReplayRange range;

    /**
     * With {@code events} told of each stream thread's commits and, for a replay, the main
     * consumers bounded to {@code range} (null for a pipeline that reads on).
     */
    public FlushBeforeCommit(StatusEvents events, ReplayRange range) {
        this.events = events;
        this.range = range;
    }

    public FlushBeforeCommit() {
        this(new StatusEvents(java.time.Clock.systemUTC()), null);
    }

    /** The calling stream thread's sink, opened with {@code factory} by its first user. */
    public RowSink open(SinkFactory factory) throws IOException {
        ThreadSink current = sinkOfThread.get();
        if (current == null) {
            current = new ThreadSink(factory.open());
            sinkOfThread.set(current);
        }
        current.users++;
        return current.sink;
    }

    /** Releases the calling thread's sink; the last user closes it (which flushes). */
    public void close(RowSink sink) throws IOException {
        ThreadSink current = sinkOfThread.get();
        if (current == null || current.sink != sink) {
            throw new IllegalStateException("closing a sink that is not this thread's: " + sink);
        }
        if (--current.users == 0) {
            sinkOfThread.remove();
            sink.close();
        }
    }

    /**
     * Flushes the calling thread's sink, if it has one.
     *
     * @throws StreamsException if the flush fails: the commit must not happen
     */
    public void flushSinksOfThisThread() {
        ThreadSink current = sinkOfThread.get();
        if (current == null) {
            return;
        }
        try {
            current.sink.flush();
        } catch (IOException | RuntimeException e) {
            throw new StreamsException("HBase flush failed; offsets not committed, records will be processed again: "
                    + e.getMessage(), e);
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
                // The main consumer commits a stream thread's offsets (after the producer's flush above).
                return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer()) {
                    @Override
                    public ConsumerRecords<byte[], byte[]> poll(java.time.Duration timeout) {
                        ConsumerRecords<byte[], byte[]> records = super.poll(timeout);
                        return range == null ? records : range.bound(records);
                    }

                    @Override
                    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
                        super.commitSync(offsets);
                        recordCommit(offsets);
                    }

                    @Override
                    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, java.time.Duration timeout) {
                        super.commitSync(offsets, timeout);
                        recordCommit(offsets);
                    }
                };
            }

            @Override
            public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
                return plainConsumer(config);
            }

            @Override
            public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
                return plainConsumer(config);
            }
        };
    }

    private void recordCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
        events.committed(Thread.currentThread().getName());
        if (range != null) {
            range.committed(offsets);
        }
    }

    private static Consumer<byte[], byte[]> plainConsumer(Map<String, Object> config) {
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
