package dev.rowflow.pipeline.load;

import dev.rowflow.events.LogEvent;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import dev.rowflow.pipeline.serde.EventSerdes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * Produces generated log events to a topic, keyed by hostname (one host's events stay in order
 * in one partition). Idempotent, {@code acks=all}; waits until every partition has a leader before
 * the first send, and fails if any send fails: a load generator that loses events silently would
 * make every count downstream meaningless.
 */
public final class LogEventProducer implements AutoCloseable {
    private final String topic;
    private final Producer<String, byte[]> producer;
    private final Serializer<LogEvent> serializer = EventSerdes.logEvents().serializer();
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    private LogEventProducer(String topic, Producer<String, byte[]> producer) {
        this.topic = topic;
        this.producer = producer;
    }

    /** Waits for the topic's partition leaders, then opens a producer to it. */
    public static LogEventProducer open(Map<String, Object> kafkaProperties, String topic)
            throws InterruptedException {
        try (Admin admin = Admin.create(kafkaProperties)) {
            KafkaTopics.awaitLeaders(admin, topic, Duration.ofSeconds(60));
        }
        Map<String, Object> props = new LinkedHashMap<>(kafkaProperties);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 10);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        return new LogEventProducer(topic, new KafkaProducer<>(props, new StringSerializer(),
                (t, bytes) -> bytes));
    }

    /** Sends one event asynchronously. */
    public void send(LogEvent event) {
        throwIfFailed();
        producer.send(new ProducerRecord<>(topic, null, event.getTimestamp().toEpochMilli(), event.getHostname(),
                serializer.serialize(topic, event)), (metadata, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
    }

    /** Sends raw bytes (tests use it for records that are not events). */
    public void sendRaw(String key, byte[] value) {
        throwIfFailed();
        producer.send(new ProducerRecord<>(topic, key, value), (metadata, e) -> {
            if (e != null) {
                failure.compareAndSet(null, e);
            }
        });
    }

    /**
     * Sends {@code count} events of {@code generator}, or until {@code stop} says so when count is
     * negative; returns how many were sent (all acknowledged).
     */
    public long sendAll(LogEventGenerator generator, long count, BooleanSupplier stop) {
        long sent = 0;
        while ((count < 0 || sent < count) && !stop.getAsBoolean()) {
            send(generator.next());
            sent++;
        }
        flush();
        return sent;
    }

    /** Waits until every event sent so far is acknowledged; throws if one was not. */
    public void flush() {
        producer.flush();
        throwIfFailed();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(30));
        throwIfFailed();
    }

    private void throwIfFailed() {
        Exception e = failure.get();
        if (e != null) {
            throw new IllegalStateException("producing to " + topic + " failed: " + e.getMessage(), e);
        }
    }
}
