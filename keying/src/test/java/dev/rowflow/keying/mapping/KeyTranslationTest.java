package dev.rowflow.keying.mapping;

import dev.rowflow.keying.layout.RowKeyLayout;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyTranslationTest {
    private static final long AT = 1_764_000_000_000L;
    private static final RowKeyLayout TIME_LED = layout("bucket(8) | timestamp:ts, hostname:text, path:md5, offset:long");
    private static final Map<String, KeyTranslation.FieldCell> CELLS = Map.of(
            "level", new KeyTranslation.FieldCell("d", "l", StoredColumns.Storage.TEXT),
            "bytes", new KeyTranslation.FieldCell("d", "b", StoredColumns.Storage.INT64),
            "status", new KeyTranslation.FieldCell("d", "s", StoredColumns.Storage.TEXT));

    @Test
    void shouldKeyARowWithTheNewLayoutFromItsOldKeyItsCellsAndItsTime() {
        RowKeyLayout hostLed = layout("bucket(4,hash=hostname) | hostname:text, level:text, timestamp:rts, path:md5, "
                + "offset:long, bytes:long, status:long");
        KeyTranslation translation = KeyTranslation.of(TIME_LED, hostLed, CELLS, "timestamp");
        byte[] old = TIME_LED.encode(AT, "web-01", "/var/log/app.log", 4711L);
        Map<String, byte[]> row = Map.of("d:l", bytes("WARN"), "d:b", ByteBuffer.allocate(8).putLong(512).array(),
                "d:s", bytes("503"));

        byte[] rekeyed = translation.translate(old, AT, (family, qualifier) -> row.get(family + ":" + qualifier));

        // Byte for byte what the pipeline would write for the record with the new layout.
        assertThat(rekeyed).isEqualTo(hostLed.encode("web-01", "WARN", AT, "/var/log/app.log", 4711L, 512L, 503L));
        assertThat(translation.steps()).containsExactly("hostname:text <- key part hostname:text",
                "level:text <- cell d:l", "timestamp:rts <- key part timestamp:ts", "path:md5 <- key part path:md5",
                "offset:long <- key part offset:long", "bytes:long <- cell d:b", "status:long <- cell d:s");
        // And back: the same rule with the layouts swapped gives the old key.
        KeyTranslation back = KeyTranslation.of(hostLed, TIME_LED, CELLS, "timestamp");
        assertThat(back.translate(rekeyed, AT, (family, qualifier) -> row.get(family + ":" + qualifier))).isEqualTo(old);
    }

    @Test
    void shouldTakeTheTimeFromTheCellsWhenTheOldKeyHasItOnlyHashedOrNotAtAll() {
        RowKeyLayout hashed = layout("hostname:md5, offset:long");
        KeyTranslation translation = KeyTranslation.of(hashed, layout("hostname:md5, timestamp:rts, offset:long"),
                Map.of(), "timestamp");

        byte[] rekeyed = translation.translate(hashed.encode("web-01", 7L), AT, (f, q) -> null);

        assertThat(rekeyed).isEqualTo(layout("hostname:md5, timestamp:rts, offset:long").encode("web-01", AT, 7L));
        assertThat(translation.steps()).contains("timestamp:rts <- the cells' time (the event time)");
    }

    @Test
    void shouldRefuseALayoutTheRowsCannotFillNamingThePart() {
        assertThatThrownBy(() -> KeyTranslation.of(TIME_LED, layout("service:text, timestamp:ts"), CELLS, "timestamp"))
                .hasMessage("part service:text of layout service:text, timestamp:ts: the rows keep service neither in their "
                        + "key nor in a column of its own; choose a layout without it, or add service to the columns and "
                        + "replay the records");
        assertThatThrownBy(() -> KeyTranslation.of(TIME_LED, layout("path:text, timestamp:ts"), CELLS, "timestamp"))
                .hasMessageContaining("the rows keep path in their key only as path:md5, which cannot be decoded,");
        Map<String, byte[]> noLevel = new HashMap<>();
        KeyTranslation needsLevel = KeyTranslation.of(TIME_LED, layout("level:text, timestamp:ts"), CELLS, "timestamp");
        assertThatThrownBy(() -> needsLevel.translate(TIME_LED.encode(AT, "h", "p", 1L), AT,
                (f, q) -> noLevel.get(f + ":" + q))).hasMessage("the row has no cell d:l for level:text");
    }

    private static RowKeyLayout layout(String spec) {
        return RowKeyLayout.parse(spec, null);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
