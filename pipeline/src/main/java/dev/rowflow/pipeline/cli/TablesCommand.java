package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.sinks.hbase.TableAdmin;
import dev.rowflow.sinks.hbase.TableDefinition;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.Map;

/** {@code rowflow tables}: the configured tables, created, described and updated online. */
@Command(name = "tables", mixinStandardHelpOptions = true,
        description = "Create, describe and update the configured tables (families, TTLs, versions, pre-splits, key layout).",
        subcommands = {TablesCommand.Create.class, TablesCommand.Describe.class, TablesCommand.Update.class})
final class TablesCommand {

    /** What every subcommand shares: the configured tables and an HBase admin. */
    abstract static class TablesAction extends HBaseCommand {
        @Override
        int run(PipelinePlan plan, UidResolver uids, Connection connection, PrintWriter out) throws Exception {
            try (Admin admin = connection.getAdmin()) {
                return run(plan, new TableAdmin(admin), plan.tables(), out);
            }
        }

        abstract int run(PipelinePlan plan, TableAdmin admin, Map<TableRole, TableDefinition> tables, PrintWriter out)
                throws Exception;
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Create the tables that do not exist (idempotent) and check the key layout of those that do.")
    static final class Create extends TablesAction {
        @Override
        int run(PipelinePlan plan, TableAdmin admin, Map<TableRole, TableDefinition> tables, PrintWriter out)
                throws Exception {
            dev.rowflow.pipeline.runtime.RowflowPipeline.createOrCheck(admin, plan);
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
        int run(PipelinePlan plan, TableAdmin admin, Map<TableRole, TableDefinition> tables, PrintWriter out)
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
        int run(PipelinePlan plan, TableAdmin admin, Map<TableRole, TableDefinition> tables, PrintWriter out)
                throws Exception {
            for (TableDefinition table : tables.values()) {
                out.println("table " + table.name() + ": " + (admin.update(table) ? "updated" : "already as configured"));
                out.print(admin.describe(table.name()));
            }
            return 0;
        }
    }
}
