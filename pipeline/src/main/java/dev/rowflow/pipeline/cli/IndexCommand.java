package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.DeclaredInput;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.sinks.hbase.HBaseUidStore;
import dev.rowflow.sinks.hbase.IndexReport;
import dev.rowflow.sinks.hbase.DualWriteIndex;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/** {@code rowflow index}: verify, backfill and repair the dual-written log index. */
@Command(name = "index", mixinStandardHelpOptions = true,
        description = "Verify and backfill the log index or a declared input's index (seed 002, 1.9.2-1.9.3).",
        subcommands = {IndexCommand.Verify.class, IndexCommand.Backfill.class})
final class IndexCommand {

    /** What both subcommands share: the configured layouts and tables, and a {@link DualWriteIndex} over them. */
    abstract static class IndexAction extends HBaseCommand {
        @Option(names = "--input", paramLabel = "NAME",
                description = "The declared input (inputs=...) whose index to work on (default: ${DEFAULT-VALUE}, the log "
                        + "pipeline's).", defaultValue = RowflowConfig.LOGS_PIPELINE)
        String input;

        @Option(names = "--index", paramLabel = "NAME",
                description = "Which of the input's indexes (input.<name>.indexes); default: its first.")
        String indexName;

        /** Index rows are written here (backfill), so names without an id yet get one, as the pipeline does. */
        @Override
        UidResolver uidStore(Connection connection, RowflowConfig config) {
            return new HBaseUidStore(connection, TableName.valueOf(config.getString(RowflowConfig.UID_TABLE_CONFIG)));
        }

        @Override
        int run(PipelinePlan plan, UidResolver uids, Connection connection, PrintWriter out) throws Exception {
            DeclaredInput declared = declaredInput(plan, "--input", input);
            Map<String, TableRole> indexes = declared.indexes();
            if (indexes.isEmpty()) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--input " + input
                        + ": the input keeps no index (none declared, or rows as columns, which are keyed by the data "
                        + "layout already)");
            }
            String name = indexName == null ? indexes.keySet().iterator().next() : indexName;
            if (!indexes.containsKey(name)) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--index " + name
                        + ": input " + declared.name() + " has the indexes " + List.copyOf(indexes.keySet()));
            }
            TableRole data = declared.indexMapping().spec().dataTable();
            return run(new DualWriteIndex(connection, declared.table(data).orElseThrow(),
                    declared.table(indexes.get(name)).orElseThrow(), declared.indexMapping(), indexes.get(name)), out);
        }

        abstract int run(DualWriteIndex index, PrintWriter out) throws Exception;
    }

    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = "Scan data -> index and index -> data; report unindexed data rows and dangling index rows. "
                    + "Exit code 1 if there are any.")
    static final class Verify extends IndexAction {
        @Option(names = "--examples", defaultValue = "20", paramLabel = "N",
                description = "Problems to list (default: ${DEFAULT-VALUE}).")
        int examples;

        @Override
        int run(DualWriteIndex index, PrintWriter out) throws Exception {
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
        int run(DualWriteIndex index, PrintWriter out) throws Exception {
            if (repair) {
                out.println("dangling index rows deleted: " + index.removeDangling());
            }
            out.println("index rows written: " + index.backfill());
            return 0;
        }
    }
}
