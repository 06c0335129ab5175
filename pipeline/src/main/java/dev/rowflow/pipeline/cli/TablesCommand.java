package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.sinks.hbase.TableAdmin;
import dev.rowflow.sinks.hbase.TableDefinition;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import dev.rowflow.pipeline.runtime.TableSplits;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code rowflow tables}: the configured tables, created, described and updated online. */
@Command(name = "tables", mixinStandardHelpOptions = true,
        description = "Create, describe and update the configured tables (families, TTLs, versions, pre-splits, key layout).",
        subcommands = {TablesCommand.Create.class, TablesCommand.Describe.class, TablesCommand.Update.class,
                TablesSql.class, TablesRekey.class})
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
            description = {"Create the tables that do not exist (idempotent) and check the key layout of those that do.",
                    "Each new table is pre-split: at its salt's buckets, or (keys not spread by design, such as a "
                            + "host-led index) at the quantiles of the keys made of the last "
                            + "tables.split.sample.records records of its input topic, as a first `run` does. A table "
                            + "left with one region is warned about on stderr."})
    static final class Create extends TablesAction {
        @Option(names = "--sample-topic", paramLabel = "TOPIC", arity = "0..1", fallbackValue = "",
                description = "Draw split points from this topic's records instead of each input's own topic (e.g. "
                        + "one holding the same records while the input topic is still empty); without a value, "
                        + "each input's own topic, which is also what happens without the option.")
        String sampleTopic;

        @Override
        int run(PipelinePlan plan, TableAdmin admin, Map<TableRole, TableDefinition> tables, PrintWriter out)
                throws Exception {
            Optional<String> topic = Optional.ofNullable(sampleTopic).filter(t -> !t.isEmpty());
            List<String> warnings = RowflowPipeline.createOrCheck(admin, plan, new TableSplits(plan.config(), topic));
            for (TableDefinition table : tables.values()) {
                out.print(admin.describe(table.name()));
            }
            warnings.forEach(warning -> spec.commandLine().getErr().println("warning: " + warning));
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
