package dev.rowflow.pipeline.cli;

import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import org.apache.hadoop.hbase.client.Connection;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** A command that reads rowflow's configuration and works on HBase with it ({@code tables}, {@code index}). */
abstract class HBaseCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "Properties file, as for `rowflow run` (ROWFLOW_CONFIG_* variables override it).")
    Path configFile;

    @Override
    public Integer call() throws Exception {
        RowflowConfig config = new RowflowConfig(ConfigSources.load(configFile, System.getenv()));
        try (Connection connection = RowflowPipeline.connect(config)) {
            return run(config, connection, spec.commandLine().getOut());
        }
    }

    /** The command's work; returns the exit code. */
    abstract int run(RowflowConfig config, Connection connection, PrintWriter out) throws Exception;
}
