package dev.rowflow.pipeline.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

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

    @Test
    void shouldSayWhenAKeyWasNotWrittenByTheLayout() {
        assertThat(run("keys", "decode", "\\x0F\\x00\\x00\\x01=\\xA3\\x8B\\xF0\\x10web-01\\x00login")).isZero();
        assertThat(out.toString()).contains("salt bucket(16): 15  (DOES NOT match the fields, which give 7");

        assertThat(run("keys", "decode", "-l", "hostname:text, timestamp:ts", "abc")).isEqualTo(2);
        assertThat(err.toString()).contains("does not fit layout hostname:text, timestamp:ts");
    }

    @Test
    void shouldPrintSplitPointsOverTheHexDigits() {
        assertThat(run("keys", "splits", "-l", "hex(2) | timestamp:dec", "-r", "4")).isZero();
        assertThat(out.toString().lines().toList()).containsExactly("40", "80", "c0");
        assertThat(run("keys", "splits", "-r", "20")).isEqualTo(2);
        assertThat(err.toString()).contains("at most one region per bucket");
    }
}
