package dev.rowflow.demo;

import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.pipeline.cli.RowTable;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The demos' "rows read back": a table a person reads, key parts as columns, values decoded. */
class ReadBackTableTest {
    private static final long TIME = Instant.parse("2026-11-28T10:00:00.123Z").toEpochMilli();

    @Test
    void shouldPrintADeclaredInputsRowsAsKeyPartsAndColumns() throws Exception {
        RowKeyLayout layout = RowKeyLayout.parse(InputDemo.JSON_MAPPING.get("input.filebeat.key"), null);
        byte[] key = layout.encode(TIME, "web-01.prod.example.com", "/var/log/app.log", 42L);
        Map<String, String> cells = new LinkedHashMap<>();
        cells.put("m", "GET /index.html");
        cells.put("h", "web-01.prod.example.com");
        InputDemo.SampleRow row = new InputDemo.SampleRow(KeyBytes.toStringBinary(key), RowTable.keyFields(layout, key),
                Instant.ofEpochMilli(TIME).toString(), cells);
        StringWriter out = new StringWriter();

        InputDemo.print(new InputDemo.Summary(1, 1, 1, 0, 1, 1, 2, InputDemo.JSON_MAPPING, 1, 1, List.of(row)), false,
                new PrintWriter(out));

        List<String> lines = out.toString().lines().toList();
        int at = lines.indexOf("  rows read back, a scan of the data table:");
        assertThat(at).isPositive();
        assertThat(lines.get(at + 1).split(" {2,}")).containsExactly("", "salt", "@timestamp", "host.name",
                "log.file.path", "log.offset", "m", "h");
        assertThat(lines.get(at + 2).split(" {2,}")).containsExactly("", String.valueOf(layout.salt().bucketOf(key)),
                "2026-11-28T10:00:00.123Z", "web-01.prod.example.com",
                "md5:" + java.util.HexFormat.of().formatHex(md5("/var/log/app.log")), "42", "GET /index.html",
                "web-01.prod.example.com");
        assertThat(out.toString()).doesNotContain("{").doesNotContain("DecodedKey");
    }

    @Test
    void shouldPrintTheLogDemosRowsByHowTheyWereFound() {
        RowKeyLayout data = RowKeyLayout.parse("bucket(16) | timestamp:ts, hostname:text, eventType:text", null);
        byte[] key = data.encode(TIME, "host-007", "login");
        DemoSummary.SampleRow scanned = new DemoSummary.SampleRow(KeyBytes.toStringBinary(key),
                RowTable.keyFields(data, key), Instant.ofEpochMilli(TIME).toString(), "host-007", "login", "user 7",
                "scan of the data table");
        DemoSummary.SampleRow indexed = new DemoSummary.SampleRow(KeyBytes.toStringBinary(key),
                RowTable.keyFields(data, key), Instant.ofEpochMilli(TIME).toString(), "host-007", "login", "user 7",
                "index scan of host-007 / login, newest first");
        DemoSummary summary = new DemoSummary(1, 1, 1, 0, 1, 1, 2, data.spec(), "hostname:text", List.of(1L), 1.0,
                List.of(scanned, indexed), 1, 1, 0, 0, 0, "record-types",
                new DemoSummary.CustomerScan("C1", "Ada", "C1", "C2", List.of()));
        StringWriter out = new StringWriter();

        summary.print(new PrintWriter(out));

        List<String> lines = out.toString().lines().toList();
        int scan = lines.indexOf("  rows read back, scan of the data table:");
        int index = lines.indexOf("  rows read back, index scan of host-007 / login, newest first:");
        assertThat(scan).isPositive();
        assertThat(index).isEqualTo(scan + 3);
        assertThat(lines.get(scan + 1).split(" {2,}")).containsExactly("", "salt", "timestamp", "hostname", "eventType",
                "message");
        assertThat(lines.get(scan + 2).split(" {2,}")).containsExactly("", String.valueOf(data.salt().bucketOf(key)),
                "2026-11-28T10:00:00.123Z", "host-007", "login", "user 7");
    }

    private static byte[] md5(String text) {
        try {
            return java.security.MessageDigest.getInstance("MD5").digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
