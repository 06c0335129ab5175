package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.RecordSource;
import dev.rowflow.pipeline.serde.RecordSerde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The topology of the declared inputs of one topic: the topic, read once in its format, through
 * each input's mapping into rows and counters.
 *
 * <pre>
 * one input, no where:   source(topic, RecordSerde(format)) --> &lt;input&gt;-writer (EventMapping -> RowSink)
 * otherwise:             source --> &lt;first input&gt;-router (where) --> &lt;input&gt;-writer, one per input
 * </pre>
 * An input that joins another writes through {@link JoinTopology} instead.
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
    public record Route(String input, Expression where, EventMapping mapping, LongAdder filtered, Deletes deletes,
                        List<Refusal> refusals) {
        public Route(String input, Expression where, EventMapping mapping, LongAdder filtered, Deletes deletes) {
            this(input, where, mapping, filtered, deletes, List.of());
        }

        /**
         * Sets the record aside if a refusal holds for it, before its rows are made.
         *
         * @throws InvalidEventException naming the refusal's field, value and reason
         */
        public void check(Map<String, Object> tree, RecordSource source) {
            for (Refusal refusal : refusals) {
                if (refusal.when().test(tree, source)) {
                    throw new InvalidEventException(refusal.field(), refusal.value().evaluate(tree, source),
                            refusal.reason());
                }
            }
        }
    }

    /**
     * A record a preset sets aside although its mapping could make rows of it: when {@code when}
     * holds, as {@code invalid <field> '<value>': <reason>}.
     */
    public record Refusal(Expression when, String field, Expression value, String reason) {
    }

    /** The records of {@code topic} read in {@code format}, as input {@code input} (the first of the topic) reads them. */
    public static KStream<byte[], ReadRecord> source(StreamsBuilder builder, String topic, RecordFormat format,
                                                     String input) {
        return builder.stream(topic, Consumed.<byte[], ReadRecord>with(Serdes.ByteArray(), new RecordSerde(format))
                .withName(input + "-source"));
    }

    /**
     * Adds the router and writers of a topic's inputs to its records, {@code stream}
     * ({@code DeclaredInput} does, once per topic).
     *
     * @param unrouted counts the records no route takes
     */
    public static void addTo(KStream<byte[], ReadRecord> stream, String topic, List<Route> routes,
                             boolean unroutedToDeadLetter, LongAdder unrouted, SinkFactory sinks,
                             FlushBeforeCommit flushBeforeCommit) {
        String first = routes.get(0).input();
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
