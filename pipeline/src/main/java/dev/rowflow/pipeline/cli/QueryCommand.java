package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import org.apache.hadoop.hbase.client.Connection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** {@code rowflow query}: read rows back the way their keys were designed. */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = "Read log events, customers and orders, and a declared input's rows back from HBase (a table for "
                + "people, --json for scripts).",
        subcommands = {LogQueryCommands.Host.class, LogQueryCommands.Range.class, LogQueryCommands.Index.class,
                OrderQueryCommands.CustomerQuery.class, OrderQueryCommands.OrderQuery.class, InputQueryCommand.class})
final class QueryCommand {

    /** What every query shares: the configuration, the UIDs (looked up, never assigned), the output format. */
    abstract static class QueryAction extends HBaseCommand {
        @Option(names = "--json", description = "Print one JSON object instead of a table.")
        boolean json;

        UidResolver uids;

        @Override
        int run(PipelinePlan plan, UidResolver uids, Connection connection, PrintWriter out) throws Exception {
            this.uids = uids;
            return query(plan, connection, out);
        }

        abstract int query(PipelinePlan plan, Connection connection, PrintWriter out) throws Exception;
    }

    /**
     * A time given on the command line: epoch milliseconds or an ISO-8601 instant.
     *
     * @throws picocli.CommandLine.ParameterException naming the option and the value
     */
    static long time(picocli.CommandLine.Model.CommandSpec spec, String option, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException notMillis) {
            try {
                return Instant.parse(value).toEpochMilli();
            } catch (DateTimeParseException e) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                        option + ": '" + value + "' is neither epoch milliseconds nor an ISO-8601 instant");
            }
        }
    }
}
