package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.DeclaredInput;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.pipeline.ingest.UidBinding;
import dev.rowflow.pipeline.runtime.HBaseConnections;
import dev.rowflow.pipeline.runtime.LiveTables;
import dev.rowflow.sinks.hbase.HBaseUidStore;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * A command that reads rowflow's configuration and works on HBase with it ({@code tables},
 * {@code index}, {@code query}): the plan is built (a bad configuration refused) before HBase is
 * connected, as {@code run} does.
 */
abstract class HBaseCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "Properties file, as for `rowflow run` (ROWFLOW_CONFIG_* variables override it).")
    Path configFile;

    @Override
    public Integer call() throws Exception {
        RowflowConfig config = new RowflowConfig(ConfigSources.load(configFile, System.getenv()));
        UidBinding uids = new UidBinding();
        try (PipelinePlan configured = PipelinePlan.build(config, uids);
             Connection connection = HBaseConnections.connect(config)) {
            uids.bind(uidStore(connection, config));
            // A table a re-key switched is read where its rows now live, with the layout recorded there.
            RowflowConfig live = followsRekeys() ? LiveTables.following(config, configured, connection, change -> {
                spec.commandLine().getErr().println("rowflow: reading the re-keyed table " + change);
                spec.commandLine().getErr().flush();
            }) : config;
            if (live == config) {
                return run(configured, uids, connection, spec.commandLine().getOut());
            }
            try (PipelinePlan plan = PipelinePlan.build(live, uids)) {
                return run(plan, uids, connection, spec.commandLine().getOut());
            }
        }
    }

    /** Whether the command reads a switched table where its rows now live ({@link LiveTables}); yes by default. */
    boolean followsRekeys() {
        return true;
    }

    /** The UID store uid key parts resolve with: names looked up, never assigned, unless a command says otherwise. */
    UidResolver uidStore(Connection connection, RowflowConfig config) {
        return new HBaseUidStore(connection, TableName.valueOf(config.getString(RowflowConfig.UID_TABLE_CONFIG)))
                .lookupOnly();
    }

    /** The command's work; returns the exit code. */
    abstract int run(PipelinePlan plan, UidResolver uids, Connection connection, PrintWriter out) throws Exception;

    /** The declared input (the log pipeline's is {@code logs}) an option names. */
    DeclaredInput declaredInput(PipelinePlan plan, String option, String name) {
        return plan.declaredInput(name).orElseThrow(() -> new ParameterException(spec.commandLine(), option + " " + name
                + ": no such input in the configuration (inputs: " + plan.declaredInputNames() + ")"));
    }
}
