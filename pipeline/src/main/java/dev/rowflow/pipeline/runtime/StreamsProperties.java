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
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterDeserializationHandler.class);
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, RecordErrorHandler.class);
        props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterProductionHandler.class);
        props.putAll(config.kafkaProperties());
        return props;
    }
}
