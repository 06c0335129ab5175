package dev.rowflow.pipeline.ingest;

/**
 * A topic an {@link Ingest} reads.
 *
 * @param topic           the topic
 * @param topicKey        the configuration key that names it, for refusals
 * @param deadLetterTopic where its records that cannot become rows go, unchanged, with headers saying why
 * @param missing         why start-up must stop when the topic does not exist (the refusal's text),
 *                        or null when a missing topic is waited for
 */
public record Source(String topic, String topicKey, String deadLetterTopic, String missing) {
}
