package dev.rowflow.embedded.load;

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
 * Produces records to one topic, idempotent, {@code acks=all}; waits until every partition has a
 * leader before the first send, and fails if any send fails: a load generator that loses records
 * silently would make every count downstream meaningless.
 */
public final class TopicProducer implements AutoCloseable {
    private final String topic;
    private final Producer<String, byte[]> producer;
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    private TopicProducer(String topic, Producer<String, byte[]> producer) {
        this.topic = topic;
        this.producer = producer;
    }

    /** Waits for the topic's partition leaders, then opens a producer to it. */
    public static TopicProducer open(Map<String, Object> kafkaProperties, String topic) throws InterruptedException {
        return open(kafkaProperties, topic, true);
    }

    /**
     * As {@link #open(Map, String)}, for a test whose broker restarts while it sends: not
     * idempotent, one request in flight. An idempotent producer that meets the restarted broker
     * can get NOT_LEADER_OR_FOLLOWER, then OUT_OF_ORDER_SEQUENCE_NUMBER for a partition until its
     * batches expire (KAFKA-15591; seen in LogPipelineIT: 120 s of it, then the send failed);
     * this one may write a batch twice instead, which a consumer that tolerates replays reads like
     * any other.
     */
    public static TopicProducer openAcrossBrokerRestarts(Map<String, Object> kafkaProperties, String topic)
            throws InterruptedException {
        return open(kafkaProperties, topic, false);
    }

    private static TopicProducer open(Map<String, Object> kafkaProperties, String topic, boolean idempotent)
            throws InterruptedException {
        try (Admin admin = Admin.create(kafkaProperties)) {
            Offsets.awaitLeaders(admin, topic, Duration.ofSeconds(60));
        }
        Map<String, Object> props = new LinkedHashMap<>(kafkaProperties);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, idempotent);
        if (!idempotent) {
            props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        }
        props.put(ProducerConfig.LINGER_MS_CONFIG, 10);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        return new TopicProducer(topic, new KafkaProducer<>(props, new StringSerializer(), (t, bytes) -> bytes));
    }

    public String topic() {
        return topic;
    }

    /** Sends one record asynchronously; a null timestamp means now. */
    public void send(String key, Long timestamp, byte[] value) {
        send(key, timestamp, value, Map.of());
    }

    /** Sends one record with headers (UTF-8 values) asynchronously; a null timestamp means now. */
    public void send(String key, Long timestamp, byte[] value, Map<String, String> headers) {
        throwIfFailed();
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, null, timestamp, key, value);
        headers.forEach((name, header) -> record.headers().add(name,
                header.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        producer.send(record, (metadata, e) -> {
            if (e != null) {
                failure.compareAndSet(null, e);
            }
        });
    }

    /** Waits until every record sent so far is acknowledged; throws if one was not. */
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
