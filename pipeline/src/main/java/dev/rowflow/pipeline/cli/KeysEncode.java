package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UnknownNameException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** {@code rowflow keys encode}: the row key of given field values. */
@Command(name = "encode", mixinStandardHelpOptions = true,
        description = {"Print the row key of the given field values (checked as the pipeline checks them).",
                "With --stdin, one key per input line, each line FIELD=VALUE words separated by tabs (or spaces "
                        + "if the line has no tab); the first bad line stops it with exit code 2."})
final class KeysEncode extends KeyValuesCommand {
    @Parameters(paramLabel = "FIELD=VALUE", arity = "0..*",
            description = "One per key part. ts/rts values: milliseconds or an ISO-8601 instant.")
    List<String> values = new ArrayList<>();

    @Option(names = "--stdin", description = "Read the values from stdin, one key per line.")
    boolean stdin;

    @Override
    public Integer call() throws Exception {
        if (stdin == !values.isEmpty()) {
            throw usage(stdin ? "give the values either as arguments or with --stdin, not both"
                    : "missing FIELD=VALUE arguments (or --stdin)");
        }
        try {
            RowKeyLayout layout = source.resolve(true);
            PrintWriter out = spec.commandLine().getOut();
            if (!stdin) {
                out.println(format.print(encode(layout, values, "")));
                return 0;
            }
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            int number = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                number++;
                out.println(format.print(encode(layout, words(line), "line " + number + ": ")));
                out.flush();
            }
            return 0;
        } catch (UnknownNameException e) {
            spec.commandLine().getErr().println("rowflow: " + e.getMessage());
            return ErrorMessages.NO;
        } finally {
            source.close();
        }
    }
}
