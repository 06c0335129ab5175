package dev.rowflow.pipeline.cli;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.sinks.hbase.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import picocli.CommandLine;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rowflow tables create|describe} through a config file, on HBase and on the Bigtable
 * emulator: a family TTL becomes a max-age garbage-collection rule on Bigtable, and a cell TTL,
 * which Bigtable does not have, stops the command at start naming the key and the store.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
@ParameterizedClass(name = "{0}")
@EnumSource(Store.class)
class TablesCommandIT {
    private final Store store;
    private final EmbeddedStack stack;

    TablesCommandIT(Store store, EmbeddedStack stack) {
        EmbeddedStackExtension.assumeStoreAvailable(store.token());
        this.store = store;
        this.stack = stack;
    }

    private Path config(Path dir, Map<String, String> settings) throws IOException {
        Properties props = new Properties();
        props.putAll(stack.rowflowProperties(store.token()));
        props.put("table.log.data", "cli_tables_data");
        props.put("table.log.index", "cli_tables_index");
        // Its own summary table too: other tests of this JVM fill the default one, and the
        // emulator's tablets (what describe prints as regions) follow the data.
        props.put("table.log.summary", "cli_tables_summary");
        props.putAll(settings);
        Path file = dir.resolve("rowflow.properties");
        try (OutputStream out = Files.newOutputStream(file)) {
            props.store(out, null);
        }
        return file;
    }

    private record Run(int exitCode, String out, String err) {
    }

    private static Run rowflow(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Rowflow.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exitCode = cli.execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }

    @Test
    void shouldCreateAndDescribeTheTablesWithTheFamilyTtlAsTheStoreKeepsIt(@TempDir Path dir) throws Exception {
        Path file = config(dir, Map.of("table.log.data.ttl.seconds", "86400", "table.log.index.max.versions", "2"));

        Run create = rowflow("tables", "create", "-c", file.toString());
        assertThat(create.exitCode()).as("stderr: %s", create.err()).isZero();
        Run describe = rowflow("tables", "describe", "-c", file.toString());
        assertThat(describe.exitCode()).as("stderr: %s", describe.err()).isZero();
        assertThat(describe.out()).isEqualTo(create.out());

        String data = describe.out().substring(describe.out().indexOf("table cli_tables_data"));
        String index = describe.out().substring(describe.out().indexOf("table cli_tables_index"));
        assertThat(data).startsWith("table cli_tables_data (" + store.token() + ")\n"
                + "  key layout: bucket(16) | timestamp:ts, hostname:text, eventType:text (version 1)\n");
        assertThat(index).startsWith("table cli_tables_index (" + store.token() + ")\n"
                + "  key layout: hostname:text, eventType:text, timestamp:rts (version 1)\n");
        if (store == Store.BIGTABLE) {
            assertThat(data).contains("  family d: ttl 86400 s, max versions 1, min versions 0, "
                    + "gc rule maxage=86400s || maxversions=1\n");
            assertThat(index).contains("  family i: ttl forever, max versions 2, min versions 0, gc rule maxversions=2\n");
        } else {
            assertThat(data).contains("  family d: ttl 86400 s, max versions 1, min versions 0, bloom ROW, "
                    + "compression NONE, block size 65536\n");
            assertThat(index).contains("  family i: ttl forever, max versions 2, min versions 0, bloom ROW, "
                    + "compression NONE, block size 65536\n");
            assertThat(data).contains("  regions: 16, split at \\x01 ");
        }
    }

    @Test
    void shouldStopAtStartOnACellTtlTheStoreCannotKeep(@TempDir Path dir) throws Exception {
        Path file = config(dir, Map.of("table.log.data", "cli_cell_ttl_data", "table.log.index", "cli_cell_ttl_index",
                "table.log.index.cell.ttl.ms", "60000"));

        Run create = rowflow("tables", "create", "-c", file.toString());

        if (store.capabilities().cellTtl()) {
            assertThat(create.exitCode()).as("stderr: %s", create.err()).isZero();
        } else {
            assertThat(create.exitCode()).isEqualTo(2);
            assertThat(create.err()).isEqualTo("rowflow: configuration error: Invalid value 60000 for configuration "
                    + "table.log.index.cell.ttl.ms: cell TTL 60000 ms of table cli_cell_ttl_index is not supported by "
                    + "store bigtable: bigtable expires cells only by the family's garbage-collection rule; set the "
                    + "family TTL instead, which becomes a max-age rule\n");
            assertThat(create.out()).isEmpty();
        }
    }
}
