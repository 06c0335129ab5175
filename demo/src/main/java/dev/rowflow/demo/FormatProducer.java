package dev.rowflow.demo;

import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.embedded.load.TopicProducer;
import dev.rowflow.events.LogEvent;

import java.util.Map;

/**
 * The bench's events onto a topic in a format rowflow reads there: {@code avro}, single-object
 * Avro for the log pipeline, or {@code json}, the objects of {@link InputBench#json} for a declared
 * input that makes the same rows; keyed by hostname, the event time as the record's timestamp.
 */
final class FormatProducer implements AutoCloseable {
    private final LogEventProducer avro;
    private final TopicProducer json;

    private FormatProducer(LogEventProducer avro, TopicProducer json) {
        this.avro = avro;
        this.json = json;
    }

    /** Waits for the topic's partition leaders, then opens a producer of {@code format} to it. */
    static FormatProducer open(Map<String, Object> kafkaProperties, String topic, String format)
            throws InterruptedException {
        return switch (format) {
            case "avro" -> new FormatProducer(LogEventProducer.open(kafkaProperties, topic), null);
            case "json" -> new FormatProducer(null, TopicProducer.open(kafkaProperties, topic));
            default -> throw new IllegalArgumentException("no producer of format '" + format + "': avro or json");
        };
    }

    /** Sends one event asynchronously. */
    void send(LogEvent event) {
        if (avro != null) {
            avro.send(event);
        } else {
            json.send(event.getHostname(), event.getTimestamp().toEpochMilli(), InputBench.json(event));
        }
    }

    /** Waits until every event sent so far is acknowledged; throws if one was not. */
    void flush() {
        if (avro != null) {
            avro.flush();
        } else {
            json.flush();
        }
    }

    @Override
    public void close() {
        if (avro != null) {
            avro.close();
        } else {
            json.close();
        }
    }
}
