package dev.rowflow.pipeline.topology;

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
 * raw source key and value, with the {@code __streams.errors.*} headers (exception, message,
 * stack trace, topic, partition, offset).
 *
 * <p>Passed to the handlers as the Streams property {@value #CONFIG}: {@code input=dead-letter}
 * pairs, comma-separated.
 */
public final class DeadLetterTopics {
    public static final String CONFIG = "rowflow.dead.letter.topics";

    private final Map<String, String> byInput;

    private DeadLetterTopics(Map<String, String> byInput) {
        this.byInput = byInput;
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
        return new DeadLetterTopics(byInput);
    }

    /**
     * The dead-letter record of the failed source record, or an empty list if its topic has no
     * dead-letter topic (the caller then fails instead of dropping the record).
     */
    List<ProducerRecord<byte[], byte[]>> records(byte[] key, byte[] value, ErrorHandlerContext context,
                                                 Exception exception) {
        String deadLetter = byInput.get(context.topic());
        if (deadLetter == null) {
            return List.of();
        }
        return List.of(ExceptionHandlerUtils.buildDeadLetterQueueRecord(deadLetter, key, value, context, exception));
    }
}
