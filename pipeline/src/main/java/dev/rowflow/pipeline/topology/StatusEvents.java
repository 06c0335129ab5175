package dev.rowflow.pipeline.topology;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What happened last in a running instance that no meter can hold: the last record set aside per
 * input topic (when, where, why), the last failure of a stream thread, the last commit of each
 * stream thread. Written by the stream threads (through the dead-letter handlers and the consumer
 * of {@link FlushBeforeCommit}), read by {@code /status}. One instance per {@code KafkaStreams},
 * handed to the handlers as the Streams property {@value #CONFIG}.
 */
public final class StatusEvents {
    /** Streams property holding the instance's {@link StatusEvents}. */
    public static final String CONFIG = "rowflow.status.events";

    /** A record set aside: its source topic, partition and offset, the reason and the message. */
    public record DeadLetter(Instant at, String topic, int partition, long offset, String reason, String message) {
    }

    /** A stream thread that failed (and was replaced): its name and the error. */
    public record Failure(Instant at, String thread, String message) {
    }

    private final Clock clock;
    private final Map<String, DeadLetter> lastDeadLetterByTopic = new ConcurrentHashMap<>();
    private final Map<String, Instant> lastCommitByThread = new ConcurrentHashMap<>();
    private final AtomicReference<Failure> lastFailure = new AtomicReference<>();

    public StatusEvents(Clock clock) {
        this.clock = clock;
    }

    /** The instance in {@code streamsConfig}, or one nobody reads (a topology test's). */
    static StatusEvents from(Map<String, ?> streamsConfig) {
        return streamsConfig.get(CONFIG) instanceof StatusEvents events ? events : new StatusEvents(Clock.systemUTC());
    }

    /** Records that the record at {@code topic}-{@code partition}@{@code offset} was set aside now. */
    public void deadLetter(String topic, int partition, long offset, String reason, String message) {
        if (topic != null) {
            lastDeadLetterByTopic.put(topic, new DeadLetter(clock.instant(), topic, partition, offset, reason, message));
        }
    }

    /** Records that {@code thread} committed its offsets now. */
    public void committed(String thread) {
        lastCommitByThread.put(thread, clock.instant());
    }

    /** Records that a stream thread failed with {@code error}. */
    public void failed(String thread, Throwable error) {
        lastFailure.set(new Failure(clock.instant(), thread, String.valueOf(error.getMessage() == null
                ? error.getClass().getName() : error.getMessage())));
    }

    /** The last record set aside of the topics {@code topics} takes. */
    public Optional<DeadLetter> lastDeadLetter(java.util.function.Predicate<String> topics) {
        return lastDeadLetterByTopic.values().stream().filter(d -> topics.test(d.topic()))
                .max(java.util.Comparator.comparing(DeadLetter::at));
    }

    /** The last commit of {@code thread}, if it committed since the start. */
    public Optional<Instant> lastCommit(String thread) {
        return Optional.ofNullable(lastCommitByThread.get(thread));
    }

    public Optional<Failure> lastFailure() {
        return Optional.ofNullable(lastFailure.get());
    }
}
