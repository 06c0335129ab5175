package dev.rowflow.keying.log;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.format.AvroFormat;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.mapping.ColumnSpec;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.MappingSpec;
import dev.rowflow.keying.mapping.TimeFormat;

import java.time.ZoneOffset;
import java.util.List;

/**
 * The log tables as a declared mapping over {@link LogEvent}: the preset the {@code logs} input
 * runs. What it declares (the golden fixture of the log tables holds it to the bytes):
 * <pre>
 * format   avro, schema LogEvent
 * time     timestamp, epoch-ms
 * key      keying.layout.log.data          (bucket(16) | timestamp:ts, hostname:text, eventType:text)
 * columns  {@value #COLUMNS}      (family d)
 * index    keying.layout.log.index         (hostname:text, eventType:text, timestamp:rts)
 * summary  {@value LogSummary#LAYOUT}, period one hour
 * </pre>
 */
public final class LogMapping {
    /** The data row's columns: raw values kept, so hashed or substituted key parts lose nothing. */
    public static final String COLUMNS = "hostname=h, eventType=e, message=m, severity=s, attributes.*=a.*";
    public static final String TIME_PATH = "timestamp";
    /** The index's name in the mapping. */
    public static final String INDEX = "log";

    private static final AvroFormat FORMAT = new AvroFormat(LogEvent.getClassSchema(), List.of());

    private LogMapping() {
    }

    /** The declaration of the log tables. */
    public static MappingSpec spec(String dataLayout, String indexLayout, boolean writeIndex, long timeBucketMillis,
                                   boolean summary) {
        return new MappingSpec(TableRole.LOG_DATA, "d", dataLayout, ColumnSpec.parseList(COLUMNS), TIME_PATH,
                TimeFormat.parse("epoch-ms", ZoneOffset.UTC), false, timeBucketMillis,
                writeIndex ? List.of(new MappingSpec.IndexSpec(INDEX, TableRole.LOG_INDEX, indexLayout)) : List.of(),
                summary ? new MappingSpec.SummarySpec(TableRole.LOG_SUMMARY, LogSummary.LAYOUT, LogSummary.HOUR) : null,
                0);
    }

    /** The log mapping over layouts already bound to a UID store. */
    static EventMapping compile(RowKeyLayout data, RowKeyLayout index, boolean writeIndex, long timeBucketMillis) {
        return EventMapping.compile(spec(data.spec(), index.spec(), writeIndex, timeBucketMillis, true),
                spec -> spec.equals(data.spec()) ? data : spec.equals(index.spec()) ? index
                        : RowKeyLayout.parse(spec, null), FORMAT::cannotYield);
    }

    /** The Avro format of the logs topic. */
    public static AvroFormat format() {
        return FORMAT;
    }
}
