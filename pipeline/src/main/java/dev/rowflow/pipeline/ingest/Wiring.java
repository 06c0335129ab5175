package dev.rowflow.pipeline.ingest;

import dev.rowflow.pipeline.topology.FlushBeforeCommit;
import dev.rowflow.pipeline.topology.SinkFactory;

import java.util.Map;

/**
 * What an {@link Ingest} needs to add itself to a topology besides its own plan: the sinks its
 * writers open, the flush that runs before each commit, and the partition counts of its topics
 * (looked up once at start, or given by a test).
 *
 * @param partitions partitions by topic, for the topics an ingest repartitions by (the customers topic)
 */
public record Wiring(SinkFactory sinks, FlushBeforeCommit flushBeforeCommit, Map<String, Integer> partitions) {

    /** The partitions of {@code topic}, which the caller looked up. */
    public int partitionsOf(String topic) {
        Integer partitions = this.partitions.get(topic);
        if (partitions == null) {
            throw new IllegalStateException("partitions of topic " + topic + " were not looked up");
        }
        return partitions;
    }
}
