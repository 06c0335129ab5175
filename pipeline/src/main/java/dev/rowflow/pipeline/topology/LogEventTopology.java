package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.keying.log.LogSummary;
import dev.rowflow.pipeline.serde.EventSerdes;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;

/**
 * The log-events topology: {@code logs} topic -> keying -> data and index rows in HBase.
 *
 * <pre>
 * source(logs, Avro LogEvent) --> log-event-writer (LogEventRows, LogSummary -> RowSink)
 * </pre>
 * Records that cannot be read or keyed go to the dead-letter topic through the handlers
 * configured by {@link dev.rowflow.pipeline.runtime.StreamsProperties}.
 */
public final class LogEventTopology {
    public static final String SOURCE = "logs-source";
    public static final String WRITER = "log-event-writer";

    private LogEventTopology() {
    }

    public static Topology build(String logsTopic, LogEventRows rows, LogSummary summary, SinkFactory sinks,
                                 FlushBeforeCommit flushBeforeCommit) {
        StreamsBuilder builder = new StreamsBuilder();
        addTo(builder, logsTopic, rows, summary, TimestampPolicy.LENIENT, sinks, flushBeforeCommit);
        return builder.build();
    }

    /** @param summary the summary counters to keep, or null for none */
    public static void addTo(StreamsBuilder builder, String logsTopic, LogEventRows rows, LogSummary summary,
                             TimestampPolicy timestamps, SinkFactory sinks, FlushBeforeCommit flushBeforeCommit) {
        builder.stream(logsTopic, Consumed.with(Serdes.ByteArray(), EventSerdes.logEvents()).withName(SOURCE))
                .process(() -> new LogEventWriter(rows, summary, timestamps, sinks, flushBeforeCommit),
                        org.apache.kafka.streams.kstream.Named.as(WRITER));
    }
}
