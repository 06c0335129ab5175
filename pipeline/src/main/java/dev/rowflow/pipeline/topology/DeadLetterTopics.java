package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.pipeline.RowflowBuild;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.internals.ExceptionHandlerUtils;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which dead-letter topic a failed record goes to: the one configured for the input topic it was
 * read from. Kafka Streams' own dead-letter support (KIP-1034) knows a single topic per
 * application; rowflow reads several inputs, and a user looking for a bad order should not have
 * to dig through bad log events. The records are built the way Kafka Streams builds them: the
 * raw source key and value and timestamp, with the {@code __streams.errors.*} headers (exception,
 * message, stack trace, topic, partition, offset) and {@value #VERSION_HEADER}.
 *
 * <p>Passed to the handlers as the Streams property {@value #CONFIG}: {@code input=dead-letter}
 * pairs, comma-separated. Each dead letter is counted in {@code rowflow_dead_letters_total} by
 * dead-letter topic and reason.
 */
public final class DeadLetterTopics {
    public static final String CONFIG = "rowflow.dead.letter.topics";
    /**
     * Streams property: the dead-letter topic of the topics a pattern matches, {@code dead-letter=regex}
     * lines (a topic name holds no {@code =}, a line break ends the regex).
     */
    public static final String PATTERNS_CONFIG = "rowflow.dead.letter.patterns";
    /** Streams property holding the {@link MeterRegistry} the dead letters are counted in, if any. */
    public static final String METRICS_CONFIG = "rowflow.metrics.registry";
    /** Header carrying the version of rowflow that set the record aside. */
    public static final String VERSION_HEADER = "rowflow.version";
    /** Header carrying the kind of refusal ({@link dev.rowflow.keying.Refusal}) of a record rowflow refused. */
    public static final String REFUSAL_HEADER = "rowflow.refusal";

    private final Map<String, String> byInput;
    private final Map<java.util.regex.Pattern, String> byPattern;
    private final MeterRegistry registry;
    private final StatusEvents events;

    private DeadLetterTopics(Map<String, String> byInput, Map<java.util.regex.Pattern, String> byPattern,
                             MeterRegistry registry, StatusEvents events) {
        this.byInput = byInput;
        this.byPattern = byPattern;
        this.registry = registry;
        this.events = events;
    }

    /** {@link #PATTERNS_CONFIG}'s value of the dead-letter topic by the pattern of the topics it takes. */
    public static String formatPatterns(Map<java.util.regex.Pattern, String> byPattern) {
        StringBuilder s = new StringBuilder();
        byPattern.forEach((pattern, deadLetter) -> s.append(s.length() == 0 ? "" : "\n").append(deadLetter).append('=')
                .append(pattern.pattern()));
        return s.toString();
    }

    public static String format(Map<String, String> byInput) {
        StringBuilder s = new StringBuilder();
        byInput.forEach((input, deadLetter) -> s.append(s.length() == 0 ? "" : ",").append(input).append('=')
                .append(deadLetter));
        return s.toString();
    }

    static DeadLetterTopics from(Map<String, ?> streamsConfig) {
        Object value = streamsConfig.get(CONFIG);
        Map<String, String> byInput = new LinkedHashMap<>();
        if (value != null && !value.toString().isEmpty()) {
            for (String pair : value.toString().split(",")) {
                String[] parts = pair.split("=", 2);
                if (parts.length != 2) {
                    throw new ConfigException(CONFIG, value, "expected input=dead-letter pairs");
                }
                byInput.put(parts[0], parts[1]);
            }
        }
        Map<java.util.regex.Pattern, String> byPattern = new LinkedHashMap<>();
        Object patterns = streamsConfig.get(PATTERNS_CONFIG);
        if (patterns != null && !patterns.toString().isEmpty()) {
            for (String line : patterns.toString().split("\n")) {
                String[] parts = line.split("=", 2);
                if (parts.length != 2) {
                    throw new ConfigException(PATTERNS_CONFIG, patterns, "expected dead-letter=regex lines");
                }
                byPattern.put(java.util.regex.Pattern.compile(parts[1]), parts[0]);
            }
        }
        Object registry = streamsConfig.get(METRICS_CONFIG);
        return new DeadLetterTopics(byInput, byPattern, registry instanceof MeterRegistry r ? r
                : new SimpleMeterRegistry(), StatusEvents.from(streamsConfig));
    }

    /**
     * The dead-letter record of the failed source record, or an empty list if its topic has no
     * dead-letter topic (the caller then fails instead of dropping the record).
     */
    List<ProducerRecord<byte[], byte[]>> records(byte[] key, byte[] value, ErrorHandlerContext context,
                                                 Exception exception) {
        String deadLetter = deadLetterOf(context.topic());
        if (deadLetter == null) {
            return List.of();
        }
        // rowflow_dead_letters_total{topic, reason}: the reason is the field at fault or the kind of failure.
        String reason = reason(exception);
        registry.counter("rowflow.dead.letters", "topic", deadLetter, "reason", reason).increment();
        events.deadLetter(context.topic(), context.partition(), context.offset(), reason, exception.getMessage());
        ProducerRecord<byte[], byte[]> record = ExceptionHandlerUtils.buildDeadLetterQueueRecord(deadLetter, key, value,
                context, exception);
        // Which rowflow set it aside: a reason that changes between versions can be told apart.
        record.headers().add(VERSION_HEADER, RowflowBuild.version().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        refused(exception).ifPresent(invalid -> record.headers().add(REFUSAL_HEADER,
                invalid.refusal().name().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        return List.of(record);
    }

    /** The dead-letter topic of {@code topic}'s records, or null if none. */
    private String deadLetterOf(String topic) {
        String deadLetter = byInput.get(topic);
        if (deadLetter == null && topic != null) {
            for (Map.Entry<java.util.regex.Pattern, String> pattern : byPattern.entrySet()) {
                if (pattern.getKey().matcher(topic).matches()) {
                    return pattern.getValue();
                }
            }
        }
        return deadLetter;
    }

    /** Whether {@code topic} is one of the dead-letter topics. */
    boolean isDeadLetterTopic(String topic) {
        return byInput.containsValue(topic) || byPattern.containsValue(topic);
    }

    /** {@code invalid <field>} for a record rowflow refused, else the exception's class: a small, fixed set. */
    static String reason(Throwable exception) {
        return refused(exception).map(invalid -> "invalid " + invalid.field())
                .orElse(exception.getClass().getSimpleName());
    }

    /** The refusal of a record rowflow refused, in {@code exception} or its causes. */
    private static java.util.Optional<InvalidEventException> refused(Throwable exception) {
        for (Throwable t = exception; t != null; t = t.getCause()) {
            if (t instanceof InvalidEventException invalid) {
                return java.util.Optional.of(invalid);
            }
        }
        return java.util.Optional.empty();
    }
}
