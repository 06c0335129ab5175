package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.pipeline.serde.RecordSerde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;

/**
 * The topology of one declared input: its topic, read in its format, through its mapping into
 * rows and counters.
 *
 * <pre>
 * source(topic, RecordSerde(format)) --> &lt;input&gt;-writer (EventMapping -> RowSink)
 * </pre>
 * Records that cannot be read or mapped go to the input's dead-letter topic through the handlers
 * configured by {@link dev.rowflow.pipeline.runtime.StreamsProperties}.
 */
public final class InputTopology {
    private InputTopology() {
    }

    /** Adds the input's source and writer to {@code builder} ({@code DeclaredInput} does, for every declared input). */
    public static void addTo(StreamsBuilder builder, String input, String topic, RecordFormat format,
                             EventMapping mapping, SinkFactory sinks,
                             FlushBeforeCommit flushBeforeCommit) {
        builder.stream(topic, Consumed.<byte[], ReadRecord>with(Serdes.ByteArray(), new RecordSerde(format))
                        .withName(input + "-source"))
                .process(() -> new MappedRecordWriter(topic, mapping, sinks, flushBeforeCommit),
                        Named.as(input + "-writer"));
    }
}
