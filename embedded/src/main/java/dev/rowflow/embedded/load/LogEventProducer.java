package dev.rowflow.embedded.load;

import dev.rowflow.events.LogEvent;
import org.apache.kafka.common.serialization.Serializer;

import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Produces generated log events to a topic, keyed by hostname (one host's events stay in order
 * in one partition), with the guarantees of {@link TopicProducer}.
 */
public final class LogEventProducer implements AutoCloseable {
    private final TopicProducer producer;
    private final Serializer<LogEvent> serializer = SingleObjectBytes.serializer(LogEvent.getEncoder());

    private LogEventProducer(TopicProducer producer) {
        this.producer = producer;
    }

    /** Waits for the topic's partition leaders, then opens a producer to it. */
    public static LogEventProducer open(Map<String, Object> kafkaProperties, String topic)
            throws InterruptedException {
        return new LogEventProducer(TopicProducer.open(kafkaProperties, topic));
    }

    /** As {@link #open}, for a broker that restarts while it sends ({@link TopicProducer#openAcrossBrokerRestarts}). */
    public static LogEventProducer openAcrossBrokerRestarts(Map<String, Object> kafkaProperties, String topic)
            throws InterruptedException {
        return new LogEventProducer(TopicProducer.openAcrossBrokerRestarts(kafkaProperties, topic));
    }

    /**
     * Sends one event asynchronously, with its event time as the record's timestamp (Kafka has no
     * record time before 1970: such an event gets the producer's time).
     */
    public void send(LogEvent event) {
        long time = event.getTimestamp().toEpochMilli();
        producer.send(event.getHostname(), time >= 0 ? time : null, serializer.serialize(producer.topic(), event));
    }

    /** Sends raw bytes (tests use it for records that are not events). */
    public void sendRaw(String key, byte[] value) {
        producer.send(key, null, value);
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

    /**
     * Sends {@code count} events of {@code generator} at about {@code perSecond} (in steps of a
     * tenth of a second), then waits until all are acknowledged: events that keep arriving while a
     * fault test breaks something, instead of a backlog a fast machine could finish first.
     */
    public void sendPaced(LogEventGenerator generator, long count, int perSecond) throws InterruptedException {
        long step = Math.max(1, perSecond / 10);
        for (long sent = 1; sent <= count; sent++) {
            send(generator.next());
            if (sent % step == 0) {
                Thread.sleep(100);
            }
        }
        flush();
    }

    /** Waits until every event sent so far is acknowledged; throws if one was not. */
    public void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close();
    }
}
