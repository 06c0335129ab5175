package dev.rowflow.pipeline.ingest;

import dev.rowflow.keying.layout.RowKeyLayout;
import org.apache.kafka.streams.StreamsBuilder;

import java.util.List;
import java.util.Map;

/**
 * One way in: what reads topics and makes rows. Built once per start by {@link PipelinePlan};
 * immutable after that, but for what {@link #close()} lets go of.
 */
public interface Ingest {

    /** The ingest's name: {@code logs}, {@code orders}, or a declared input's name. */
    String name();

    /** The topics it reads, each with the dead-letter topic its bad records go to. */
    List<Source> sources();

    /**
     * Internal topics whose records can fail after they were re-read (a repartition topic),
     * each with the dead-letter topic those records go to; none by default.
     *
     * @param applicationId the Kafka Streams application id, which internal topic names start with
     */
    default Map<String, String> internalDeadLetterTopics(String applicationId) {
        return Map.of();
    }

    /** Its tables, each with the configuration keys behind its name and its key layout. */
    List<IngestTable> tables();

    /**
     * Checks that {@code layout} is a key this ingest could make of its records: every part names
     * a field its records can have, of a type the part's encoding takes ({@code rowflow keys}
     * refuses a layout no ingest could write, as {@code run} would).
     *
     * @throws IllegalArgumentException naming the part and why
     */
    void checkKeyLayout(RowKeyLayout layout);

    /**
     * Whether it deletes rows: then its HBase tables must mask with a delete only what was
     * written before it (see {@link dev.rowflow.sinks.hbase.TableAdmin#checkDeletes}). No by default.
     */
    default boolean deletes() {
        return false;
    }

    /**
     * Adds its sources and processors to {@code builder}. Pure: it reads the partitions of its
     * topics from {@code wiring}, never from a broker, so a {@code TopologyTestDriver} test drives
     * exactly the topology production runs.
     */
    void addTo(StreamsBuilder builder, Wiring wiring);

    /** Binds the meters of what it holds (e.g. a schema registry client) to {@code meters}. Nothing by default. */
    default void bindTo(io.micrometer.core.instrument.MeterRegistry meters) {
    }

    /** Lets go of what it holds, e.g. ends a stream thread's wait for a schema registry. Nothing by default. */
    default void close() {
    }
}
