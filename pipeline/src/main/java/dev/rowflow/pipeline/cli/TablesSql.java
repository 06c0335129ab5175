package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.pipeline.sql.PhoenixViews;
import dev.rowflow.sinks.hbase.TableAdmin;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.io.PrintWriter;
import java.util.List;

/** {@code rowflow tables sql}: the Phoenix DDL of the configured tables. */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = {"Print the Apache Phoenix views of the configured tables (data, index, summary and element-row "
                + "tables of every input, the log and order tables): each table's recorded key layout as a composite "
                + "primary key, its cells as \"family\".\"qualifier\" columns, in the types whose bytes rowflow "
                + "writes: CREATE VIEW for a table Phoenix has no view of yet, ALTER VIEW ... ADD IF NOT EXISTS "
                + "of the columns an existing view lacks (run it with sqlline or psql.py).",
                "A wildcard's columns are the qualifiers found in the first --sample-rows rows of the table."})
final class TablesSql extends HBaseCommand {
    @Option(names = "--input", paramLabel = "NAME", description = "Only the tables of this input (logs for the log pipeline).")
    String input;

    @Option(names = "--table", paramLabel = "TABLE", description = "Only this table.")
    String table;

    @Option(names = "--sample-rows", paramLabel = "N", defaultValue = "1000",
            description = "Rows read per table with a wildcard to find its qualifiers (default ${DEFAULT-VALUE}; 0: none).")
    int sampleRows;

    @Override
    int run(PipelinePlan plan, UidResolver uids, Connection connection, PrintWriter out) throws Exception {
        if (input != null) {
            declaredInput(plan, "--input", input);
        }
        try (Admin admin = connection.getAdmin()) {
            List<PhoenixViews.View> views = PhoenixViews.of(plan, new TableAdmin(admin), connection, sampleRows,
                    selected -> (input == null || input.equals(selected.input()))
                            && (table == null || table.equals(selected.table())));
            if (views.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--table " + table
                        + ": no configured table of that name" + (input == null ? "" : " in input " + input));
            }
            for (int i = 0; i < views.size(); i++) {
                out.print((i == 0 ? "" : "\n") + views.get(i).script());
            }
        }
        return 0;
    }
}
