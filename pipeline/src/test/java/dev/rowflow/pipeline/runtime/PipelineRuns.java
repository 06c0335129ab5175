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
     * Starts the pipeline and waits (at most 2 minutes) until every record of {@code topics} and
     * of the internal topics its consumers read (repartition topics, a join's subscription topics)
     * is committed, then closes it. The topics are checked in the order records flow through them
     * -- sources, repartition, subscription registration, subscription response -- so when each
     * is committed in turn, no record is on its way between them.
     */
    static void runUntilJoined(RowflowConfig config, List<String> topics) throws Exception {
        String group = config.getString(RowflowConfig.APPLICATION_ID_CONFIG);
        try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry());
             Admin admin = Admin.create(config.kafkaProperties())) {
            List<String> all = new java.util.ArrayList<>(topics);
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (true) {
                List<String> internal = admin.listTopics().names().get().stream()
                        .filter(topic -> topic.startsWith(group + "-") && (topic.endsWith("-repartition")
                                || topic.endsWith("-subscription-registration-topic")
                                || topic.endsWith("-subscription-response-topic")))
                        .sorted(java.util.Comparator.comparing((String topic) -> topic.endsWith("-repartition") ? 0
                                : topic.endsWith("-registration-topic") ? 1 : 2))
                        .toList();
                all = new java.util.ArrayList<>(topics);
                all.addAll(internal);
                long lag = 0;
                for (String topic : all) {
                    lag += Offsets.uncommitted(admin, group, topic);
                }
                assertThat(pipeline.state()).isNotEqualTo(KafkaStreams.State.ERROR);
                if (lag == 0 && internal.size() >= 3 || System.nanoTime() > deadline) {
                    break;
                }
                Thread.sleep(200);
            }
            for (String topic : all) {
                assertThat(Offsets.uncommitted(admin, group, topic)).as("records of %s not committed", topic).isZero();
            }
        }
    }
}
