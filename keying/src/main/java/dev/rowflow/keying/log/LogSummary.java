package dev.rowflow.keying.log;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.Counter;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The summary table of the log events (seed 002, 1.9.4): how many events each host had of each
 * event type in each hour, kept as HBase counters (1.5.1) while the events are ingested, so a
 * year-long report reads one row per host, type and hour instead of every event.
 *
 * <p>Row key {@value #LAYOUT}, the timestamp part holding the start of the event's hour:
 * {@code [hostname] 00 [eventType] 00 [hour start, 8 bytes ms]}, host-led
 * so a scan of {@code [hostname]} gives a host's counts, hour by hour in time order. Family
 * {@code s}: {@code n} the count (8-byte long, as {@code Increment} keeps it); the sink keeps its
 * idempotence marks in the same row (qualifiers {@code w.<source>}).
 */
public final class LogSummary {
    public static final String LAYOUT = "hostname:text, eventType:text, timestamp:ts";
    public static final byte[] FAMILY = "s".getBytes(StandardCharsets.UTF_8);
    public static final byte[] COUNT = "n".getBytes(StandardCharsets.UTF_8);
    public static final long HOUR = Duration.ofHours(1).toMillis();

    private final RowKeyLayout layout = RowKeyLayout.parse(LAYOUT, null);
    /** The log mapping, which declares this summary (see {@link LogMapping}). */
    private final dev.rowflow.keying.mapping.EventMapping mapping = LogMapping.compile(
            RowKeyLayout.parse(LogEventRows.DEFAULT_DATA_LAYOUT, null), RowKeyLayout.parse(LogEventRows.DEFAULT_INDEX_LAYOUT, null),
            true, 0);

    public RowKeyLayout layout() {
        return layout;
    }

    /** One more event for the event's host, type and hour. Call after {@link LogEventRows#rowsOf} validated it. */
    public Counter counterOf(LogEvent event) {
        return mapping.counterOf(dev.rowflow.keying.mapping.RecordTree.ofAvro(event), event.getTimestamp().toEpochMilli())
                .orElseThrow();
    }

    /** The summary row of the hour that contains {@code time}. */
    public byte[] key(String hostname, String eventType, long time) {
        return layout.encode(hostname, eventType, hourOf(time));
    }

    public static long hourOf(long time) {
        return time - Math.floorMod(time, HOUR);
    }
}
