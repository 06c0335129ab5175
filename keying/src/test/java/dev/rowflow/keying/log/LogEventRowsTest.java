package dev.rowflow.keying.log;

import dev.rowflow.events.LogEvent;
import dev.rowflow.events.Severity;
import dev.rowflow.keying.Cell;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LogEventRowsTest {
    private static final RowKeyLayout DATA = RowKeyLayout.parse(LogEventRows.DEFAULT_DATA_LAYOUT, null);
    private static final RowKeyLayout INDEX = RowKeyLayout.parse(LogEventRows.DEFAULT_INDEX_LAYOUT, null);
    private final LogEventRows rows = new LogEventRows(DATA, INDEX);

    @Test
    void shouldWriteADataRowAndAnIndexRowPointingToIt() {
        LogEvent event = LogEvent.newBuilder()
                .setHostname("web-01").setTimestamp(Instant.ofEpochMilli(1364248490000L)).setEventType("login")
                .setMessage("user alice logged in").setSeverity(Severity.INFO).setAttributes(Map.of("pid", "42"))
                .build();

        List<Row> written = rows.rowsOf(event);

        byte[] dataKey = DATA.encode(1364248490000L, "web-01", "login");
        assertThat(written).containsExactly(
                new Row(TableRole.LOG_DATA, dataKey, 1364248490000L, List.of(
                        cell(LogColumns.DATA_FAMILY, LogColumns.HOSTNAME, "web-01"),
                        cell(LogColumns.DATA_FAMILY, LogColumns.EVENT_TYPE, "login"),
                        cell(LogColumns.DATA_FAMILY, LogColumns.MESSAGE, "user alice logged in"),
                        cell(LogColumns.DATA_FAMILY, LogColumns.SEVERITY, "INFO"),
                        cell(LogColumns.DATA_FAMILY, "a.pid".getBytes(UTF_8), "42"))),
                new Row(TableRole.LOG_INDEX, INDEX.encode("web-01", "login", 1364248490000L), 1364248490000L,
                        List.of(new Cell(LogColumns.INDEX_FAMILY, LogColumns.DATA_ROW_KEY, dataKey))));
    }

    @Test
    void shouldLeaveOptionalColumnsOutWhenAbsent() {
        LogEvent event = LogEvent.newBuilder()
                .setHostname("h").setTimestamp(Instant.ofEpochMilli(5)).setEventType("e").setMessage("").build();

        assertThat(rows.rowsOf(event).get(0).cells()).hasSize(3);
    }

    @Test
    void shouldNameTheBadFieldAndValue() {
        LogEvent event = LogEvent.newBuilder()
                .setHostname("h").setTimestamp(Instant.ofEpochMilli(5)).setEventType("").setMessage("m").build();

        assertThatThrownBy(() -> rows.rowsOf(event))
                .isInstanceOf(InvalidEventException.class)
                .hasMessage("invalid eventType '': must not be empty")
                .satisfies(e -> assertThat(((InvalidEventException) e).field()).isEqualTo("eventType"));
        LogEvent beforeEpoch = LogEvent.newBuilder(event).setEventType("e").setTimestamp(Instant.ofEpochMilli(-1)).build();
        assertThatThrownBy(() -> rows.rowsOf(beforeEpoch)).hasMessageStartingWith("invalid timestamp '-1'");
    }

    @Test
    void shouldRefuseALayoutWhosePartsAreNotLogEventFields() {
        assertThatThrownBy(() -> LogEventRows.checkFields(RowKeyLayout.parse("host:text, timestamp:ts", null)))
                .hasMessageContaining("part 'host:text'").hasMessageContaining("no field 'host'")
                .hasMessageContaining("hostname, timestamp, eventType");
        assertThatThrownBy(() -> LogEventRows.checkFields(RowKeyLayout.parse("hostname:ts", null)))
                .hasMessageContaining("encoding ts needs a long field, and LogEvent.hostname is string");
    }

    private static Cell cell(byte[] family, byte[] qualifier, String value) {
        return new Cell(family, qualifier, value.getBytes(UTF_8));
    }

    @Test
    void shouldPackEventsIntoColumnsOfTheirTimeBucketsRow() throws Exception {
        RowKeyLayout hostLed = RowKeyLayout.parse("hostname:text, eventType:text, timestamp:ts", null);
        LogEventRows columns = new LogEventRows(hostLed, INDEX, false, 300_000);
        LogEvent event = LogEvent.newBuilder()
                .setHostname("web-01").setTimestamp(Instant.ofEpochMilli(1364248490123L)).setEventType("login")
                .setMessage("m").build();

        List<Row> written = columns.rowsOf(event);

        // 1364248490123 ms is 290123 ms into the 5-minute bucket starting at 1364248200000.
        assertThat(written).hasSize(1);
        assertThat(written.get(0).key()).isEqualTo(hostLed.encode("web-01", "login", 1364248200000L));
        assertThat(written.get(0).timestamp()).isEqualTo(1364248490123L);
        Cell cell = written.get(0).cells().get(0);
        assertThat(java.util.HexFormat.of().formatHex(cell.qualifier())).isEqualTo("00046d4b");
        assertThat(LogEvent.getDecoder().decode(cell.value())).isEqualTo(event);
    }

    @Test
    void shouldRefuseRowsAsColumnsWithAnIndexOrWithoutATimestampPart() {
        assertThatThrownBy(() -> new LogEventRows(DATA, INDEX, true, 300_000)).hasMessageContaining("no index");
        assertThatThrownBy(() -> new LogEventRows(RowKeyLayout.parse("hostname:text, eventType:text", null), INDEX,
                false, 300_000)).hasMessageContaining("need a timestamp part");
    }

    @Test
    void shouldRefuseAHostnameDecodedFromBytesThatWereNotUtf8() {
        // What Avro makes of C3 28: U+FFFD and '('.
        LogEvent event = LogEvent.newBuilder().setHostname("web-\uFFFD(").setEventType("login")
                .setTimestamp(Instant.ofEpochMilli(1L)).setMessage("m").build();

        assertThatThrownBy(() -> rows.rowsOf(event)).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("the producer sent bytes that are not UTF-8");
    }
}
