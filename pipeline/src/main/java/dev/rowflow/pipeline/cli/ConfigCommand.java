package dev.rowflow.pipeline.cli;

import dev.rowflow.pipeline.config.ConfigDocs;
import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.EffectiveConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Prints the configuration keys, generated from the definitions ({@link ConfigDocs}); with
 * {@code --effective}, the configuration a process would run with ({@link EffectiveConfig}).
 */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = {"Print every configuration key with its type, default, valid values and meaning (Markdown).",
                "With --effective: the configuration `rowflow run` would run with (the file, overridden by "
                        + "ROWFLOW_CONFIG_* variables, and the defaults), each value with its source, secrets hidden; "
                        + "a configuration `run` would refuse is refused the same way (exit code 2)."})
final class ConfigCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--effective", description = "Print the effective configuration instead of the key reference.")
    boolean effective;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "With --effective: the properties file, as for `rowflow run`.")
    Path configFile;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (!effective) {
            if (configFile != null) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                        "--config is read with --effective only (`rowflow config --effective -c FILE`)");
            }
            printReference(out);
            return 0;
        }
        Map<String, String> file = ConfigSources.load(configFile, Map.of());
        List<EffectiveConfig.Entry> entries = EffectiveConfig.of(file, System.getenv());
        // What run refuses as a whole (a mapping that does not fit its format, two tables of one name), refused here too.
        Map<String, String> merged = new java.util.LinkedHashMap<>(file);
        merged.putAll(ConfigSources.fromEnvironment(System.getenv()));
        dev.rowflow.pipeline.ingest.PipelinePlan.build(new dev.rowflow.pipeline.config.RowflowConfig(merged), null)
                .close();
        int keyWidth = entries.stream().mapToInt(e -> e.key().length()).max().orElse(3);
        int valueWidth = Math.min(60, entries.stream().mapToInt(e -> e.value().length()).max().orElse(5));
        String row = "%-" + keyWidth + "s  %-" + valueWidth + "s  %s%n";
        out.printf(row, "KEY", "VALUE", "SOURCE");
        for (EffectiveConfig.Entry entry : entries) {
            out.printf(row, entry.key(), entry.value(), entry.describeSource());
        }
        return 0;
    }

    private static void printReference(PrintWriter out) {
        out.print(ConfigDocs.markdownTable());
        out.printf("%nEach input named in inputs is configured by these keys (index.<index>.* "
                + "for each index named in its indexes, rows.<kind>.* for each kind of rows named in its rows):%n%n");
        out.print(ConfigDocs.inputMarkdownTable());
        out.printf("%nKeys starting with kafka. go to Kafka Streams and its clients without the "
                + "prefix; keys starting with hbase., zookeeper. or hadoop. go to the HBase client as they are. "
                + "Environment variables %s<KEY> (upper case, _ for .) override the file; "
                + "`rowflow config --effective -c FILE` shows the result.%n", ConfigSources.ENV_PREFIX);
    }
}
