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
    }

    @Test
    void shouldPrintTheConfigurationTable() {
        assertThat(run("config")).isZero();
        assertThat(out.toString()).contains("| `keying.layout.log.data` | string | `bucket(16) \\| timestamp:ts");
    }
}
