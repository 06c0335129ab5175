package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.TableRole;
import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.LogPipeline;
import dev.rowflow.sinks.hbase.TableAdmin;
import dev.rowflow.sinks.hbase.TableDefinition;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code rowflow tables}: the configured tables, created, described and updated online. */
@Command(name = "tables", mixinStandardHelpOptions = true,
        description = "Create, describe and update the configured tables (families, TTLs, versions, pre-splits, key layout).",
        subcommands = {TablesCommand.Create.class, TablesCommand.Describe.class, TablesCommand.Update.class})
final class TablesCommand {

    /** What every subcommand shares: the configuration and an HBase admin over it. */
    abstract static class TablesAction implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = {"-c", "--config"}, paramLabel = "FILE",
                description = "Properties file, as for `rowflow run` (ROWFLOW_CONFIG_* variables override it).")
        Path configFile;

        @Override
        public Integer call() throws Exception {
            RowflowConfig config = new RowflowConfig(ConfigSources.load(configFile, System.getenv()));
            Map<TableRole, TableDefinition> tables = config.logTables(config.logEventRows(null));
            try (Connection connection = ConnectionFactory.createConnection(LogPipeline.hbaseConfiguration(config));
                 Admin admin = connection.getAdmin()) {
                return run(config, new TableAdmin(admin), tables, spec.commandLine().getOut());
            }
        }

        abstract int run(RowflowConfig config, TableAdmin admin, Map<TableRole, TableDefinition> tables, PrintWriter out)
                throws Exception;
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Create the tables that do not exist (idempotent) and check the key layout of those that do.")
    static final class Create extends TablesAction {
        @Override
        int run(RowflowConfig config, TableAdmin admin, Map<TableRole, TableDefinition> tables, PrintWriter out)
                throws Exception {
            LogPipeline.createOrCheck(admin, tables, config);
            for (TableDefinition table : tables.values()) {
                out.print(admin.describe(table.name()));
            }
            return 0;
        }
    }

    @Command(name = "describe", mixinStandardHelpOptions = true,
            description = "Print each table's key layout, family settings and regions.")
    static final class Describe extends TablesAction {
        @Override
        int run(RowflowConfig config, TableAdmin admin, Map<TableRole, TableDefinition> tables, PrintWriter out)
                throws Exception {
            for (TableDefinition table : tables.values()) {
                out.print(admin.describe(table.name()));
            }
            return 0;
        }
    }

    @Command(name = "update", mixinStandardHelpOptions = true,
            description = "Apply the configured family settings (TTL, versions, bloom filter, compression, block size) "
                    + "to the existing tables, online. The key layout cannot change.")
    static final class Update extends TablesAction {
        @Override
        int run(RowflowConfig config, TableAdmin admin, Map<TableRole, TableDefinition> tables, PrintWriter out)
                throws Exception {
            for (TableDefinition table : tables.values()) {
                out.println("table " + table.name() + ": " + (admin.update(table) ? "updated" : "already as configured"));
                out.print(admin.describe(table.name()));
            }
            return 0;
        }
    }
}
