package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.layout.RowKeyLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RowflowCliTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = Rowflow.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void shouldStopABadConfigurationAtStartWithTheKeyAndTheReason(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("rowflow.properties");
        Files.writeString(file, "kafka.bootstrap.servers=localhost:9092\nsink.periodic.flush.ms=-5\n");

        assertThat(run("run", "--config", file.toString())).isEqualTo(2);
        assertThat(err.toString()).startsWith("rowflow: configuration error: Invalid value -5 for configuration "
                + "sink.periodic.flush.ms: Value must be at least 0");
    }

    @Test
    void shouldNameAMissingConfigurationFile(@TempDir Path dir) {
        assertThat(run("run", "--config", dir.resolve("absent.properties").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("absent.properties").contains("not found");
    }

    @Test
    void shouldOfferHelpOnEveryCommand() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("run").contains("config");
        assertThat(run("run", "--help")).isZero();
        assertThat(out.toString()).contains("--config=FILE");
        assertThat(run("config", "--help")).isZero();
        assertThat(run("query", "--help")).isZero();
        assertThat(out.toString()).contains("host").contains("range").contains("index").contains("customer").contains("order");
        assertThat(run("query", "range", "--help")).isZero();
        assertThat(out.toString()).contains("--newest-first").contains("--json").contains("--limit");
    }

    @Test
    void shouldPrintTheConfigurationTable() {
        assertThat(run("config")).isZero();
        assertThat(out.toString()).contains("| `keying.layout.log.data` | string | `bucket(16) \\| timestamp:ts");
    }

    @Test
    void shouldEncodeTheSeedsSaltedTimestampAndDecodeItBack() {
        assertThat(run("keys", "encode", "--layout", "hex(4) | timestamp:dec", "timestamp=1364248490")).isZero();
        assertThat(out.toString().lines().findFirst()).contains("ffe51364248490");

        assertThat(run("keys", "decode", "--layout", "hex(4) | timestamp:dec", "ffe51364248490")).isZero();
        assertThat(out.toString()).contains("salt hex(4): ffe5  (matches the fields)")
                .contains("timestamp:dec: 1364248490");
    }

    @Test
    void shouldDecodeAKeyPastedFromTheHBaseShellOrGivenInHex() {
        String spec = "hostname:text, eventType:text, timestamp:rts";
        assertThat(run("keys", "decode", "-l", spec, "web-01\\x00login\\x00\\x7F\\xFF\\xFE\\xC2\\x5C\\x74\\x0F\\xEF")).isZero();
        assertThat(run("keys", "decode", "-l", spec, "0x7765622d3031006c6f67696e007ffffec25c740fef")).isZero();

        assertThat(out.toString().lines().toList()).containsExactly(
                "hostname:text: web-01", "eventType:text: login", "timestamp:rts: 1364248490000  (2013-03-25T21:54:50Z)",
                "hostname:text: web-01", "eventType:text: login", "timestamp:rts: 1364248490000  (2013-03-25T21:54:50Z)");
    }

    /** The example of docs/keys.md, "How decode prints text". */
    @Test
    void shouldPrintDecodedTextWithItsBackslashesOnceAndControlCharactersEscaped() {
        String spec = "hostname:text, eventType:text";
        assertThat(run("keys", "encode", "-l", spec, "hostname=CORP\\web-01", "eventType=café\tlogin")).isZero();
        assertThat(run("keys", "decode", "-l", spec, "CORP\\x5Cweb-01\\x00caf\\xC3\\xA9\\x09login")).isZero();
        // A backslash that would read as the start of an escape is doubled: before x and two hex
        // digits, before a control character, before another backslash.
        assertThat(run("keys", "decode", "-l", spec, "a\\x5Cx09\\x00b\\x5C\\x09c\\x5C\\x5Cd\\xC2\\x85")).isZero();

        assertThat(out.toString().lines().toList()).containsExactly(
                "CORP\\x5Cweb-01\\x00caf\\xC3\\xA9\\x09login",
                "hostname:text: CORP\\web-01", "eventType:text: café\\x09login",
                "hostname:text: a\\\\x09", "eventType:text: b\\\\\\x09c\\\\\\d\\x85");
    }

    @Test
    void shouldEncodeDecodeSplitAndScanAnyLayoutWithoutAConfiguration() {
        String spec = "customerNumber:text, orderNumber:text";
        assertThat(run("keys", "encode", "--layout", spec, "customerNumber=C-1", "orderNumber=SO-1")).as(err.toString())
                .isZero();
        assertThat(run("keys", "decode", "--layout", spec, "C-1\\x00SO-1")).isZero();
        assertThat(run("keys", "splits", "--layout", "bucket(4) | " + spec)).isZero();
        // Every order of one customer: one range; of a salted layout, one range per bucket.
        assertThat(run("keys", "scan", "--layout", spec, "customerNumber=C-1")).isZero();
        assertThat(out.toString().lines().toList()).containsExactly(
                "C-1\\x00SO-1",
                "customerNumber:text: C-1", "orderNumber:text: SO-1",
                "\\x01", "\\x02", "\\x03",
                "C-1\\x00 C-1\\x01");

        assertThat(run("keys", "encode", "--layout", spec, "customerNumber=C-1", "orderNumbr=SO-1")).isEqualTo(2);
        assertThat(err.toString()).contains("field orderNumbr is not a part of layout " + spec);
    }

    @Test
    void shouldScanATimeRangeOfAReverseTimestampPartNewestFirst() {
        String spec = "hostname:text, eventType:text, timestamp:rts";
        assertThat(run("keys", "scan", "-l", spec, "hostname=web-01", "eventType=login",
                "--from", "1364248490000", "--to", "2013-03-25T21:54:51Z")).isZero();
        // [from, to) on a reverse timestamp: the one millisecond 1364248490000 .. 1364248490999, newest first.
        RowKeyLayout layout = RowKeyLayout.parse(spec, null);
        byte[] newest = layout.encode("web-01", "login", 1364248490999L);
        byte[] oldest = layout.encode("web-01", "login", 1364248490000L);
        assertThat(out.toString().lines().toList()).containsExactly(
                dev.rowflow.keying.KeyBytes.toStringBinary(newest) + " "
                        + dev.rowflow.keying.KeyBytes.toStringBinary(RowKeyLayout.prefixEnd(oldest)));

        assertThat(run("keys", "scan", "-l", spec, "eventType=login")).isEqualTo(2);
        assertThat(err.toString()).contains("'eventType=login': the values name the leading parts of '" + spec
                + "' in order, so value 1 is for hostname");
        assertThat(run("keys", "scan", "-l", "hostname:md5, timestamp:ts", "--from", "a", "--to", "b")).isEqualTo(2);
        assertThat(err.toString()).contains("has no byte order");
    }

    @Test
    void shouldRefuseAnUnknownCommandNamingIt() {
        assertThat(run("tables", "nosuch", "--help")).isEqualTo(2);
        assertThat(err.toString()).contains("rowflow: unknown command 'nosuch' of rowflow tables (its commands: create, "
                + "describe, update");
        assertThat(out.toString()).isEmpty();
        assertThat(run("nosuch")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown command 'nosuch' of rowflow");
    }

    @Test
    void shouldSayWhenAKeyWasNotWrittenByTheLayout() {
        assertThat(run("keys", "decode", "\\x0F\\x00\\x00\\x01=\\xA3\\x8B\\xF0\\x10web-01\\x00login")).isEqualTo(1);
        assertThat(out.toString()).contains("salt bucket(16): 15  (DOES NOT match the fields)");
        assertThat(err.toString()).contains("the salt 15 does not match the fields, which give 7");

        assertThat(run("keys", "decode", "-l", "hostname:text, timestamp:ts", "abc")).isEqualTo(1);
        assertThat(err.toString()).contains("offset 0: part 'hostname:text' is not the last and has no 0x00 after it");
    }

    @Test
    void shouldPrintSplitPointsOverTheHexDigits() {
        assertThat(run("keys", "splits", "-l", "hex(2) | timestamp:dec", "-r", "4")).isZero();
        assertThat(out.toString().lines().toList()).containsExactly("40", "80", "c0");
        assertThat(run("keys", "splits", "-r", "20")).isEqualTo(2);
        assertThat(err.toString()).contains("at most one region per bucket");
    }

    @Test
    void shouldSplitAnUnsaltedLayoutAtTheQuantilesOfSampleValues(@TempDir Path dir) throws Exception {
        Path samples = dir.resolve("hosts.txt");
        Files.writeString(samples, "# one line per known host\n"
                + "hostname=web-01\teventType=a\ttimestamp=0\n"
                + "hostname=web-02 eventType=a timestamp=0\n"
                + "\n"
                + "hostname=web-03 eventType=a timestamp=0\n"
                + "hostname=db 01\teventType=a\ttimestamp=0\n");
        String layout = "hostname:text, eventType:text, timestamp:rts";

        assertThat(run("keys", "splits", "-l", layout, "--samples", samples.toString(), "-r", "2")).isZero();
        assertThat(out.toString().lines().toList()).containsExactly(
                "web-02\\x00a\\x00\\x7F\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF");
        out.getBuffer().setLength(0);
        assertThat(run("keys", "splits", "-l", layout, "--samples", samples.toString(), "-r", "2", "--format", "hex"))
                .isZero();
        assertThat(out.toString().lines().toList()).containsExactly("7765622d30320061007fffffffffffffff");
    }

    @Test
    void shouldEncodeOneKeyPerLineOfStdin() {
        java.io.InputStream stdin = System.in;
        try {
            System.setIn(new java.io.ByteArrayInputStream(("hostname=web-01 eventType=login timestamp=1364248490000\n"
                    + "hostname=web 02\teventType=a\"b\ttimestamp=2013-03-25T21:54:50Z\n").getBytes()));
            assertThat(run("keys", "encode", "-l", "hostname:text, eventType:text, timestamp:rts", "--stdin")).isZero();
        } finally {
            System.setIn(stdin);
        }
        assertThat(out.toString().lines().toList()).containsExactly(
                "web-01\\x00login\\x00\\x7F\\xFF\\xFE\\xC2\\x5Ct\\x0F\\xEF",
                "web\\x2002\\x00a\\x22b\\x00\\x7F\\xFF\\xFE\\xC2\\x5Ct\\x0F\\xEF");
    }

    @Test
    void shouldShowWhereEachEffectiveValueComesFrom(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("rowflow.properties");
        Files.writeString(file, "kafka.bootstrap.servers=broker:9092\nkafka.sasl.jaas.config=org.apache.kafka.common."
                + "security.scram.ScramLoginModule required username=\"u\" password=\"p\";\n");

        assertThat(run("config", "--effective", "-c", file.toString())).isZero();
        List<String> lines = out.toString().lines().toList();
        assertThat(lines.get(0)).matches("KEY +VALUE +SOURCE");
        assertThat(lines).anyMatch(l -> l.matches("kafka\\.bootstrap\\.servers +broker:9092 +file"))
                .anyMatch(l -> l.matches("kafka\\.sasl\\.jaas\\.config +\\[hidden\\] +file"))
                .anyMatch(l -> l.matches("application\\.id +rowflow +default"))
                .noneMatch(l -> l.contains("password=\"p\""));
        assertThat(run("config", "-c", file.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--config is read with --effective only");
    }

    @Test
    void shouldEncodeTheKeysOfADeclaredInput() {
        String recipe = Path.of("..", "deploy", "recipes", "filebeat.properties").toString();
        String time = "2026-11-22T08:00:00Z";
        long millis = java.time.Instant.parse(time).toEpochMilli();

        assertThat(run("keys", "encode", "-c", recipe, "--input", "filebeat", "--format", "hex", "@timestamp=" + time,
                "host.name=web-017", "log.file.path=/var/log/app.log", "log.offset=42")).isZero();
        // The index's part event.dataset | 'generic' takes event.dataset, or 'generic' without it.
        assertThat(run("keys", "encode", "-c", recipe, "--input", "filebeat", "--index", "host", "--format", "hex",
                "@timestamp=" + time, "host.name=web-017", "event.dataset=app.log", "log.file.path=/var/log/app.log",
                "log.offset=42")).isZero();
        assertThat(run("keys", "encode", "-c", recipe, "--input", "filebeat", "--index", "host", "--format", "hex",
                "@timestamp=" + time, "host.name=web-017", "log.file.path=/var/log/app.log", "log.offset=42")).isZero();

        RowKeyLayout data = RowKeyLayout.parse("bucket(16) | @timestamp:ts, host.name:text, log.file.path:md5, "
                + "log.offset:long", null);
        RowKeyLayout host = RowKeyLayout.parse("host.name:text, event.dataset:text, @timestamp:rts, log.file.path:md5, "
                + "log.offset:long", null);
        assertThat(out.toString().lines().toList()).containsExactly(
                java.util.HexFormat.of().formatHex(data.encode(millis, "web-017", "/var/log/app.log", 42L)),
                java.util.HexFormat.of().formatHex(host.encode("web-017", "app.log", millis, "/var/log/app.log", 42L)),
                java.util.HexFormat.of().formatHex(host.encode("web-017", "generic", millis, "/var/log/app.log", 42L)));
        assertThat(run("keys", "encode", "-c", recipe, "--input", "filebeat", "--index", "host", "@timestamp=" + time,
                "log.file.path=/var/log/app.log", "log.offset=42")).isEqualTo(2);
        assertThat(err.toString()).contains("missing host.name=VALUE for part host.name:text");

        assertThat(run("keys", "encode", "-c", recipe, "--input", "filebeat", "--index", "nope", "host.name=a")).isEqualTo(2);
        assertThat(err.toString()).contains("--index nope: input filebeat has the indexes [host]");
        assertThat(run("keys", "encode", "-c", recipe, "--input", "beats", "host.name=a")).isEqualTo(2);
        assertThat(err.toString()).contains("--input beats: no such input in the configuration (inputs: [filebeat])");
    }
}
