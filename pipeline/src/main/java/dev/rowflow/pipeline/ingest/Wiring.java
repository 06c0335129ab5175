package dev.rowflow.pipeline.ingest;

import dev.rowflow.pipeline.topology.FlushBeforeCommit;
import dev.rowflow.pipeline.topology.SinkFactory;

import java.io.IOException;
import java.util.Map;

/**
 * What an {@link Ingest} needs to add itself to a topology besides its own plan: the sinks its
 * writers open, the flush that runs before each commit, the partition counts of its topics
 * (looked up once at start, or given by a test), and how a table made while running -- a topic
 * of a {@code topic.pattern} seen first -- is made ready.
 *
 * @param partitions partitions by topic, for the topics an ingest repartitions by (the customers topic)
 * @param tables     makes a table ready for the sinks, from the stream thread that meets its first record
 */
public record Wiring(SinkFactory sinks, FlushBeforeCommit flushBeforeCommit, Map<String, Integer> partitions,
                     Tables tables) {

    /** Makes the tables ingests find while running ready to be written. */
    @FunctionalInterface
    public interface Tables {
        /**
         * Creates {@code table} if absent (else checks the layout it records) and lets the sinks
         * write it; thread-safe, and a table made ready twice stays as it is.
         *
         * @param deletes whether the rows of the table are deleted (see {@link Ingest#deletes()})
         * @throws IOException if the store cannot be reached: the record is processed again
         * @throws IllegalStateException naming the table, if it cannot take the rows (another
         *                               layout recorded): the record is set aside
         */
        void ready(IngestTable table, boolean deletes) throws IOException;
    }

    /** Wiring whose tables are made ready by nobody: a topology test's sink writes any table. */
    public Wiring(SinkFactory sinks, FlushBeforeCommit flushBeforeCommit, Map<String, Integer> partitions) {
        this(sinks, flushBeforeCommit, partitions, (table, deletes) -> { });
    }

    /** The partitions of {@code topic}, which the caller looked up. */
    public int partitionsOf(String topic) {
        Integer partitions = this.partitions.get(topic);
        if (partitions == null) {
            throw new IllegalStateException("partitions of topic " + topic + " were not looked up");
        }
        return partitions;
    }
}
