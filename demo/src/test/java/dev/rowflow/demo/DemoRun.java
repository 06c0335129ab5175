package dev.rowflow.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.pipeline.cli.Rowflow;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One {@code rowflow demo ... --json} run in-process, as the demo tests drive it: it must exit 0,
 * and its summary is the JSON object on the last line of stdout.
 *
 * @param summary the summary
 * @param err     what it printed on stderr (progress, the declaration it runs)
 */
record DemoRun(JsonNode summary, String err) {

    /** Runs {@code rowflow demo} with {@code args} (and {@code --json}). */
    static DemoRun of(String... args) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Rowflow.commandLine(new DemoCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        String[] line = new String[args.length + 2];
        line[0] = "demo";
        System.arraycopy(args, 0, line, 1, args.length);
        line[line.length - 1] = "--json";

        int exitCode = cli.execute(line);

        assertThat(exitCode).as("exit code; stderr:%n%s", err).isZero();
        List<String> lines = out.toString().lines().toList();
        return new DemoRun(new ObjectMapper().readTree(lines.get(lines.size() - 1)), err.toString());
    }
}
