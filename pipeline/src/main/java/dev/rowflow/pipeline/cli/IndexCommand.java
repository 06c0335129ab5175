package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.sinks.hbase.HBaseUidStore;
import dev.rowflow.sinks.hbase.IndexReport;
import dev.rowflow.sinks.hbase.LogIndex;
import dev.rowflow.sinks.hbase.TableDefinition;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.Map;

/** {@code rowflow index}: verify, backfill and repair the dual-written log index. */
@Command(name = "index", mixinStandardHelpOptions = true,
        description = "Verify and backfill the log index (seed 002, 1.9.2-1.9.3).",
        subcommands = {IndexCommand.Verify.class, IndexCommand.Backfill.class})
final class IndexCommand {

    /** What both subcommands share: the configured layouts and tables, and a {@link LogIndex} over them. */
    abstract static class IndexAction extends HBaseCommand {
        @Override
        int run(RowflowConfig config, Connection connection, PrintWriter out) throws Exception {
            UidResolver uids = new HBaseUidStore(connection,
                    TableName.valueOf(config.getString(RowflowConfig.UID_TABLE_CONFIG)));
            LogEventRows rows = config.logEventRows(uids);
            if (rows.timeBucketMillis() > 0) {
                throw new org.apache.kafka.common.config.ConfigException(RowflowConfig.LOG_TIME_BUCKET_SECONDS_CONFIG,
                        config.getInt(RowflowConfig.LOG_TIME_BUCKET_SECONDS_CONFIG),
                        "rows as columns keep no index to verify or backfill");
            }
            Map<TableRole, TableDefinition> tables = config.logTables(rows);
            return run(new LogIndex(connection, tables.get(TableRole.LOG_DATA), tables.get(TableRole.LOG_INDEX), rows), out);
        }

        abstract int run(LogIndex index, PrintWriter out) throws Exception;
    }

    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = "Scan data -> index and index -> data; report unindexed data rows and dangling index rows. "
                    + "Exit code 1 if there are any.")
    static final class Verify extends IndexAction {
        @Option(names = "--examples", defaultValue = "20", paramLabel = "N",
                description = "Problems to list (default: ${DEFAULT-VALUE}).")
        int examples;

        @Override
        int run(LogIndex index, PrintWriter out) throws Exception {
            IndexReport report = index.verify(examples);
            out.print(report);
            return report.clean() ? 0 : 1;
        }
    }

    @Command(name = "backfill", mixinStandardHelpOptions = true,
            description = "Write the index row of every data row (idempotent: same cells as the pipeline writes); "
                    + "with --repair first delete the dangling index rows.")
    static final class Backfill extends IndexAction {
        @Option(names = "--repair", description = "Also delete dangling index rows.")
        boolean repair;

        @Override
        int run(LogIndex index, PrintWriter out) throws Exception {
            if (repair) {
                out.println("dangling index rows deleted: " + index.removeDangling());
            }
            out.println("index rows written: " + index.backfill());
            return 0;
        }
    }
}
