package dev.rowflow.pipeline.runtime;

import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.topology.RecordErrorHandler;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import dev.rowflow.pipeline.topology.DeadLetterDeserializationHandler;
import dev.rowflow.pipeline.topology.DeadLetterProductionHandler;
import dev.rowflow.pipeline.topology.DeadLetterTopics;
import dev.rowflow.pipeline.ingest.PipelinePlan;

import java.util.Properties;

/** The Kafka Streams configuration of a rowflow pipeline. */
public final class StreamsProperties {
    /** The commit interval of a pipeline with a join, unless {@code kafka.commit.interval.ms} is set. */
    static final long JOIN_COMMIT_INTERVAL_MS = 1000;
    /** How soon a new topic of a {@code topic.pattern} is read, unless {@code kafka.metadata.max.age.ms} says. */
    static final int PATTERN_METADATA_MAX_AGE_MS = 30_000;

    private StreamsProperties() {
    }

    /**
     * rowflow's choices first, then every {@code kafka.*} key of the configuration, which wins:
     * a user who sets {@code kafka.commit.interval.ms} gets that interval.
     */
    public static Properties of(PipelinePlan plan) {
        RowflowConfig config = plan.config();
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.getString(RowflowConfig.APPLICATION_ID_CONFIG));
        // A new application starts at the beginning of the topic: no event written before the
        // first start is skipped.
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // Records that cannot be read or keyed go to the dead-letter topic instead of stopping
        // the flow; HBase failures fail the task (RecordErrorHandler).
        // Internal topics too: records re-read from a repartition topic can fail there.
        props.put(DeadLetterTopics.CONFIG, DeadLetterTopics.format(plan.deadLetterTopicsWithInternal(
                config.getString(RowflowConfig.APPLICATION_ID_CONFIG))));
        props.put(DeadLetterTopics.PATTERNS_CONFIG, DeadLetterTopics.formatPatterns(plan.deadLetterPatterns()));
        if (!plan.deadLetterPatterns().isEmpty()) {
            // A topic a topic.pattern matches is read once the consumer's metadata shows it: within
            // 30 s, not the client's 5 minutes (a metadata request per half minute is nothing to a broker).
            props.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, PATTERN_METADATA_MAX_AGE_MS);
        }
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterDeserializationHandler.class);
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, RecordErrorHandler.class);
        props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterProductionHandler.class);
        if (!plan.hasJoins()) {
            // No task waits for data on one of its partitions to process another's in timestamp
            // order: without a join, each record makes rows of its own, whatever came before it
            // from another partition. Kafka Streams' default (0) checks every partition of the task
            // before each record -- a set and a log message built per record, 2 % of rowflow's CPU
            // samples in `rowflow bench --external`.
            props.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        }
        if (plan.hasJoins()) {
            // A join keeps its tables and subscriptions in state stores. Under at-least-once a
            // crash restores them from changelogs that ran ahead of the last commit -- past rows
            // still in the sink's buffers, which the crash lost -- so the replayed changes find
            // their state already changed and never reach the writer again (a deleted order's
            // replayed delete is a no-op for the join, its row stays). Exactly-once restores them
            // to the last commit, when the sinks were flushed, and the replay makes the same rows.
            props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
            // Exactly-once would commit every 100 ms, each commit a flush of the sinks; the
            // join's result crosses two internal topics, each read after its commit, so a second
            // keeps a joined row visible within a few seconds and HBase batches large.
            props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, JOIN_COMMIT_INTERVAL_MS);
        }
        props.putAll(config.kafkaProperties());
        return props;
    }
}
