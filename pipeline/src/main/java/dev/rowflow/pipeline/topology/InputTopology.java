package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.Expression;
import dev.rowflow.pipeline.serde.RecordSerde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * The topology of the declared inputs of one topic: the topic, read once in its format, through
 * each input's mapping into rows and counters.
 *
 * <pre>
 * one input, no where:   source(topic, RecordSerde(format)) --> &lt;input&gt;-writer (EventMapping -> RowSink)
 * otherwise:             source --> &lt;first input&gt;-router (where) --> &lt;input&gt;-writer, one per input
 * </pre>
 * Records that cannot be read or mapped go to the topic's dead-letter topic through the handlers
 * configured by {@link dev.rowflow.pipeline.runtime.StreamsProperties}.
 */
public final class InputTopology {
    private InputTopology() {
    }

    /**
     * One input of a topic.
     *
     * @param where    the records it takes, or null for every record
     * @param filtered counts the records its where did not take
     * @param deletes  which of its records delete their row
     */
    public record Route(String input, Expression where, EventMapping mapping, LongAdder filtered, Deletes deletes) {
    }

    /**
     * Adds the topic's source, router and writers to {@code builder} ({@code DeclaredInput} does,
     * once per topic).
     *
     * @param unrouted counts the records no route takes
     */
    public static void addTo(StreamsBuilder builder, String topic, RecordFormat format, List<Route> routes,
                             boolean unroutedToDeadLetter, LongAdder unrouted, SinkFactory sinks,
                             FlushBeforeCommit flushBeforeCommit) {
        String first = routes.get(0).input();
        KStream<byte[], ReadRecord> stream = builder.stream(topic, Consumed.<byte[], ReadRecord>with(
                Serdes.ByteArray(), new RecordSerde(format)).withName(first + "-source"));
        if (routes.size() == 1 && routes.get(0).where() == null) {
            Route route = routes.get(0);
            stream.process(() -> new MappedRecordWriter(topic, route, sinks, flushBeforeCommit),
                    Named.as(writerName(route.input())));
            return;
        }
        KStream<byte[], ReadRecord> routed = stream.process(
                () -> new TopicRouter(topic, routes, unroutedToDeadLetter, unrouted), Named.as(first + "-router"));
        // Each writer is a child of the router, which forwards a record to it by its name.
        for (Route route : routes) {
            routed.process(() -> new MappedRecordWriter(topic, route, sinks, flushBeforeCommit),
                    Named.as(writerName(route.input())));
        }
    }

    static String writerName(String input) {
        return input + "-writer";
    }
}
