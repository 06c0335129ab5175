package dev.rowflow.pipeline.cli;

import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.ConfigDocs;
import dev.rowflow.pipeline.config.RowflowConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.concurrent.Callable;

/** Prints the configuration keys, generated from the definitions ({@link ConfigDocs}). */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = "Print every configuration key with its type, default, valid values and meaning (Markdown).")
final class ConfigCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().print(ConfigDocs.markdownTable());
        spec.commandLine().getOut().printf("%nEach input named in inputs is configured by these keys (index.<index>.* "
                + "for each index named in its indexes):%n%n");
        spec.commandLine().getOut().print(ConfigDocs.inputMarkdownTable());
        spec.commandLine().getOut().printf("%nKeys starting with kafka. go to Kafka Streams and its clients without the "
                + "prefix; keys starting with hbase., zookeeper. or hadoop. go to the HBase client as they are. "
                + "Environment variables %s<KEY> (upper case, _ for .) override the file.%n", ConfigSources.ENV_PREFIX);
        return 0;
    }
}
