package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.format.RecordFormat;
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
 * source(topic, RecordSerde(format)) --> &lt;first input&gt;-writer (TopicPlan.judge -> RowSink)
 * </pre>
 * An input that joins another writes through {@link JoinTopology} instead.
 * Records that cannot be read or mapped go to the topic's dead-letter topic through the handlers
 * configured by {@link dev.rowflow.pipeline.runtime.StreamsProperties}.
 */
public final class InputTopology {
    private InputTopology() {
    }

    /**
     * One input of a topic, as its topic's writer carries out its decisions.
     *
     * @param filtered counts the records its where did not take
     */
    public record Route(InputPlan plan, LongAdder filtered) {
        public String input() {
            return plan.input();
        }
    }

    /** What a record of a topic goes through: the topic's plan, each input's route, the topic's unrouted count. */
    public record Routing(TopicPlan plan, List<Route> routes, LongAdder unrouted) {
    }

    /** The routing of each record, by its topic and key. */
    @FunctionalInterface
    public interface Routes {
        /**
         * @throws dev.rowflow.keying.InvalidEventException for a record of a topic no routing can
         *                                                   be made for: it is set aside
         */
        Routing of(String topic, byte[] key);
    }

    /** The records of {@code topic} read in {@code format}, as input {@code input} (the first of the topic) reads them. */
    public static KStream<byte[], ReadRecord> source(StreamsBuilder builder, String topic, RecordFormat format,
                                                     String input) {
        return each(builder.stream(topic, Consumed.<byte[], ReadRecord>with(Serdes.ByteArray(),
                new RecordSerde(format)).withName(input + "-source")), format, input);
    }

    /**
     * The records of {@code stream}, each record a Kafka record holds on its own where the format's
     * hold many (an export request's log records: judged, written and set aside one by one).
     */
    private static KStream<byte[], ReadRecord> each(KStream<byte[], ReadRecord> stream, RecordFormat format,
                                                    String input) {
        if (!format.holdsMany()) {
            return stream;
        }
        return stream.flatMapValues(read -> read == null ? java.util.Collections.singletonList(null) : read.records(),
                Named.as(input + "-records"));
    }

    /**
     * Adds the writer of a topic's inputs to its records, {@code stream} ({@code DeclaredInput}
     * does, once per topic).
     *
     * @param unrouted counts the records no input takes
     */
    public static void addTo(KStream<byte[], ReadRecord> stream, TopicPlan plan, List<Route> routes,
                             LongAdder unrouted, SinkFactory sinks, FlushBeforeCommit flushBeforeCommit) {
        Routing routing = new Routing(plan, routes, unrouted);
        addTo(stream, (topic, key) -> routing, routes.get(0).input(), sinks, flushBeforeCommit);
    }

    /**
     * Adds the writer of input {@code input}'s records, {@code stream}, whose topics each have
     * their routing ({@code PatternInput} does: one topic per table).
     */
    public static void addTo(KStream<byte[], ReadRecord> stream, Routes routes, String input, SinkFactory sinks,
                             FlushBeforeCommit flushBeforeCommit) {
        stream.process(() -> new TopicWriter(routes, sinks, flushBeforeCommit), Named.as(writerName(input)));
    }

    /** The records of every topic {@code topics} matches, read in {@code format}, as input {@code input} reads them. */
    public static KStream<byte[], ReadRecord> source(StreamsBuilder builder, java.util.regex.Pattern topics,
                                                     RecordFormat format, String input) {
        return each(builder.stream(topics, Consumed.<byte[], ReadRecord>with(Serdes.ByteArray(),
                new RecordSerde(format)).withName(input + "-source")), format, input);
    }

    static String writerName(String input) {
        return input + "-writer";
    }
}
