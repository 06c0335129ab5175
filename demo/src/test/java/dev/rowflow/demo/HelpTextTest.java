package dev.rowflow.demo;

import dev.rowflow.pipeline.cli.Rowflow;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every command's {@code --help}, the demo artifact's included, renders without a picocli warning
 * (a {@code %} in a description is a format error picocli only reports at run time) and says
 * what the command does.
 */
class HelpTextTest {

    @Test
    void shouldRenderEveryHelpWithoutAWarning() {
        PrintStream stderr = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        List<String> rendered = new ArrayList<>();
        try {
            System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
            CommandLine cli = Rowflow.commandLine(new DemoCommand(), new BenchCommand());
            render(cli, rendered);
        } finally {
            System.setErr(stderr);
        }
        // Only picocli's lines: logging set-up may print its own (SLF4J's classpath notes) on first use.
        assertThat(warnings.toString(StandardCharsets.UTF_8).lines()).as("what picocli printed while rendering")
                .noneMatch(line -> line.contains("picocli"));
        assertThat(rendered).contains("rowflow", "rowflow demo", "rowflow bench", "rowflow keys encode",
                "rowflow config", "rowflow query input", "rowflow index verify", "rowflow tables create");
        assertThat(rendered).hasSize(countCommands(Rowflow.commandLine(new DemoCommand(), new BenchCommand())));
    }

    @Test
    void shouldCatchAPercentSignInADescription() {
        PrintStream stderr = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
            new CommandLine(new WithPercent()).usage(new PrintWriter(new StringWriter()));
        } finally {
            System.setErr(stderr);
        }
        assertThat(warnings.toString(StandardCharsets.UTF_8)).contains("[picocli WARN] Could not format");
    }

    @CommandLine.Command(name = "with-percent", description = "Keeps 10% of the rows.")
    static final class WithPercent {
    }

    private static void render(CommandLine cli, List<String> rendered) {
        StringWriter help = new StringWriter();
        cli.usage(new PrintWriter(help));
        String name = cli.getCommandSpec().qualifiedName();
        assertThat(help.toString()).as("help of %s", name).contains("Usage: " + name)
                .doesNotContain("%n").doesNotContain("${");
        assertThat(cli.getCommandSpec().usageMessage().description()).as("description of %s", name).isNotEmpty();
        rendered.add(name);
        cli.getSubcommands().values().stream().distinct().forEach(sub -> render(sub, rendered));
    }

    private static int countCommands(CommandLine cli) {
        return 1 + cli.getSubcommands().values().stream().distinct().mapToInt(HelpTextTest::countCommands).sum();
    }
}
