package dev.rowflow.pipeline.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.TableRole;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.DeclaredInput;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.sinks.query.InputQueries;
import dev.rowflow.sinks.query.LogEventView;
import dev.rowflow.sinks.query.QueryResult;
import dev.rowflow.sinks.query.StoredEvent;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code rowflow query host|range|index}: the log pipeline's rows read as log events, through
 * {@link LogEventView} over the queries of the declared input {@code logs}.
 */
final class LogQueryCommands {
    private static final ObjectMapper JSON = new ObjectMapper();

    private LogQueryCommands() {
    }

    /** Log queries: time bounds, a limit, the events printed. */
    abstract static class LogAction extends QueryCommand.QueryAction {
        @Option(names = "--from", paramLabel = "TIME", defaultValue = "0",
                description = "From this time on, inclusive: epoch milliseconds or ISO-8601 (2026-11-22T10:00:00Z). "
                        + "Default: the beginning.")
        String from;

        @Option(names = "--to", paramLabel = "TIME", description = "Up to this time, exclusive. Default: no end.")
        String to;

        @Option(names = "--limit", defaultValue = "100", paramLabel = "N",
                description = "Most events to print; 0 for all (default: ${DEFAULT-VALUE}).")
        int limit;

        @Override
        int query(PipelinePlan plan, Connection connection, PrintWriter out) throws Exception {
            // The log pipeline is the declared input named logs; its rows are read as log events.
            DeclaredInput logs = declaredInput(plan, "query " + spec.name() + " reads the input",
                    RowflowConfig.LOGS_PIPELINE);
            Map<TableRole, TableName> names = new LinkedHashMap<>();
            logs.tables().forEach(table -> names.put(table.role(), table.definition().name()));
            // One thread per salt bucket scanned at once, at most 16: the fan-out's scans run side by side.
            int buckets = logs.mapping().dataLayout().salt().buckets().orElse(16);
            ExecutorService pool = Executors.newFixedThreadPool(Math.min(16, buckets));
            try {
                printEvents(run(new LogEventView(new InputQueries(connection, logs.indexMapping(), names, pool))), out);
            } finally {
                pool.shutdownNow();
            }
            return 0;
        }

        abstract QueryResult<StoredEvent> run(LogEventView events);

        long fromMillis() {
            return time("--from", from);
        }

        long toMillis() {
            return to == null ? Long.MAX_VALUE : time("--to", to);
        }

        private long time(String option, String value) {
            return QueryCommand.time(spec, option, value);
        }

        private void printEvents(QueryResult<StoredEvent> result, PrintWriter out) throws Exception {
            if (json) {
                ObjectNode root = JSON.createObjectNode();
                ArrayNode events = root.putArray("events");
                for (StoredEvent e : result.rows()) {
                    ObjectNode event = events.addObject();
                    event.put("time", Instant.ofEpochMilli(e.timestamp()).toString());
                    event.put("timestamp", e.timestamp());
                    event.put("hostname", e.hostname());
                    event.put("eventType", e.eventType());
                    event.put("severity", e.severity());
                    event.put("message", e.message());
                    event.set("attributes", JSON.valueToTree(e.attributes()));
                    event.put("rowKey", KeyBytes.toStringBinary(e.rowKey()));
                }
                root.put("scans", result.scans());
                root.put("danglingIndexRows", result.danglingIndexRows());
                out.println(JSON.writeValueAsString(root));
            } else {
                List<String[]> table = new ArrayList<>();
                table.add(new String[]{"time", "host", "type", "severity", "message"});
                for (StoredEvent e : result.rows()) {
                    table.add(new String[]{Instant.ofEpochMilli(e.timestamp()).toString(), e.hostname(), e.eventType(),
                            e.severity() == null ? "" : e.severity(), e.message()});
                }
                RowTable.print(table, out, "");
                out.printf("-- %d events, %d scans, %d dangling index rows skipped%n", result.rows().size(),
                        result.scans(), result.danglingIndexRows());
            }
        }
    }

    @Command(name = "host", mixinStandardHelpOptions = true,
            description = "Events of one host (and event type), newest first, through the index.")
    static final class Host extends LogAction {
        @Parameters(index = "0", paramLabel = "HOSTNAME")
        String hostname;

        @Option(names = "--type", paramLabel = "EVENT_TYPE", description = "Only this event type (one scan).")
        String eventType;

        @Override
        QueryResult<StoredEvent> run(LogEventView events) {
            return events.host(hostname, eventType, fromMillis(), toMillis(), limit);
        }
    }

    @Command(name = "range", mixinStandardHelpOptions = true,
            description = "Events of all hosts in a time range from the time-led data table: one scan per salt "
                    + "bucket, in parallel, merged back in time order.")
    static final class Range extends LogAction {
        @Option(names = "--newest-first", description = "Newest first (default: oldest first).")
        boolean newestFirst;

        @Override
        QueryResult<StoredEvent> run(LogEventView events) {
            return events.timeRange(fromMillis(), toMillis(), newestFirst, limit);
        }
    }

    @Command(name = "index", mixinStandardHelpOptions = true,
            description = {"Events through the index: values for the index layout's leading parts, and --from/--to "
                    + "on the part after them. Index rows whose data row is missing are skipped and counted.",
                    "Example, index layout 'eventType:text, timestamp:rts, hostname:text': rowflow query index auth.fail "
                            + "--from 2026-11-22T00:00:00Z"})
    static final class Index extends LogAction {
        @Parameters(paramLabel = "VALUE", arity = "0..*", description = "Values of the leading index key parts.")
        List<String> values = new ArrayList<>();

        @Override
        QueryResult<StoredEvent> run(LogEventView events) {
            return events.index(new ArrayList<>(values), fromMillis(), toMillis(), limit);
        }
    }
}
