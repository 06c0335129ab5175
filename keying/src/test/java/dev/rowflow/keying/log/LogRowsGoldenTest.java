package dev.rowflow.keying.log;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.EventSchemas;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The log tables byte for byte against the golden fixture ({@link GoldenLogRows}): 2,000 events
 * under four layouts, data, index, rows-as-columns and summary counters.
 */
class LogRowsGoldenTest {

    @Test
    void shouldWriteTheGoldenRowsForTheRecordedEvents() throws IOException {
        List<LogEvent> events = new ArrayList<>();
        for (byte[] bytes : GoldenLogRows.events()) {
            events.add(EventSchemas.logEvents().decode(bytes));
        }
        List<String> expected = GoldenLogRows.rows();

        List<String> actual = GoldenLogRows.recordedRows(events);

        assertThat(events).hasSize(GoldenLogRows.EVENT_COUNT);
        // 4 variants: default (data, index, counter), hashed (data, index), uid (data, index), columns (data).
        assertThat(expected).hasSize(GoldenLogRows.EVENT_COUNT * 8);
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i)).as("line %d of the golden rows", i + 1).isEqualTo(expected.get(i));
        }
        assertThat(actual).hasSize(expected.size());
    }

    /**
     * The path the logs topic takes in the pipeline: the record's bytes read by the preset's Avro
     * format, its tree through the compiled {@link LogMapping}, no {@link LogEvent} class involved.
     */
    @Test
    void shouldWriteTheGoldenRowsThroughTheAvroFormatAndTheDeclaredMapping() {
        List<byte[]> events = GoldenLogRows.events();
        List<String> expected = GoldenLogRows.rows();
        List<String> actual = new ArrayList<>();
        for (GoldenLogRows.Variant variant : GoldenLogRows.VARIANTS) {
            dev.rowflow.keying.layout.UidResolver uids = GoldenLogRows.uids();
            dev.rowflow.keying.mapping.EventMapping mapping = dev.rowflow.keying.mapping.EventMapping.compile(
                    LogMapping.spec(variant.dataLayout(), variant.indexLayout(), variant.index(),
                            variant.bucketSeconds() * 1000L, variant.name().equals("default")),
                    uids, LogMapping.format()::cannotYield);
            for (byte[] bytes : events) {
                dev.rowflow.keying.format.ReadRecord record = LogMapping.format().read(bytes);
                long time = mapping.eventTime(record.tree(), -1);
                mapping.rowsOf(record.tree(), record.canonical(), time)
                        .forEach(row -> actual.add(GoldenLogRows.line(variant.name(), row)));
                mapping.counterOf(record.tree(), time).ifPresent(c -> actual.add(GoldenLogRows.line(variant.name(), c)));
            }
        }

        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i)).as("line %d of the golden rows", i + 1).isEqualTo(expected.get(i));
        }
        assertThat(actual).hasSize(expected.size());
    }

    @Test
    void shouldRecordEventsThatCoverEveryColumnKind() {
        List<LogEvent> events = GoldenLogRows.generate();
        assertThat(events).anyMatch(e -> e.getSeverity() == null).anyMatch(e -> e.getSeverity() != null)
                .anyMatch(e -> e.getAttributes().isEmpty()).anyMatch(e -> e.getAttributes().size() == 3)
                .anyMatch(e -> e.getMessage().isEmpty());
        assertThat(events.stream().map(e -> LogSummary.hourOf(e.getTimestamp().toEpochMilli())).distinct().count())
                .isGreaterThan(2);
    }
}
