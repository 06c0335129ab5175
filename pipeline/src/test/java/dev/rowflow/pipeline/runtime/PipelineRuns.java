package dev.rowflow.pipeline.runtime;

import dev.rowflow.embedded.load.Offsets;
import dev.rowflow.pipeline.config.RowflowConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs of the production pipeline in a test: until a topic is committed, failing fast on ERROR. */
final class PipelineRuns {
    private PipelineRuns() {
    }

    /** Starts the pipeline, waits (at most 2 minutes) until every record of {@code topic} is committed, closes it. */
    static void runUntilCommitted(RowflowConfig config, String topic) throws Exception {
        try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry());
             Admin admin = Admin.create(config.kafkaProperties())) {
            awaitCommitted(pipeline, admin, config, topic, -1);
        }
    }

    /**
     * Waits (at most 2 minutes) until the committed offsets of {@code topic} add up to
     * {@code count}, or to its end offsets where {@code count} is negative.
     */
    static void awaitCommitted(RowflowPipeline pipeline, Admin admin, RowflowConfig config, String topic, long count)
            throws Exception {
        String group = config.getString(RowflowConfig.APPLICATION_ID_CONFIG);
        Offsets.awaitCommitted(admin, group, List.of(topic), count, Duration.ofSeconds(120),
                committed -> assertThat(pipeline.state()).isNotEqualTo(KafkaStreams.State.ERROR));
        if (count < 0) {
            assertThat(Offsets.uncommitted(admin, group, topic)).as("records not committed").isZero();
        } else {
            assertThat(Offsets.committed(admin, group, topic)).as("records committed").isEqualTo(count);
        }
    }

    /**
     * Starts the pipeline of a join and waits (at most 2 minutes) until every record of
     * {@code topics} and of the join's three internal topics is committed, then closes it.
     */
    static void runUntilJoined(RowflowConfig config, List<String> topics) throws Exception {
        String group = config.getString(RowflowConfig.APPLICATION_ID_CONFIG);
        try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry());
             Admin admin = Admin.create(config.kafkaProperties())) {
            assertThat(Offsets.awaitCommittedThroughInternalTopics(admin, group, topics, 3, Duration.ofSeconds(120),
                    committed -> assertThat(pipeline.state()).isNotEqualTo(KafkaStreams.State.ERROR)))
                    .as("records of %s and the join's topics committed", topics).isTrue();
        }
    }
}
