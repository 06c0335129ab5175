package dev.rowflow.pipeline.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.DecodedKey;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.keying.order.OrderBlob;
import dev.rowflow.keying.order.OrderColumns;
import dev.rowflow.keying.order.OrderRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.DeclaredInput;
import dev.rowflow.pipeline.ingest.OrderJoin;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.sinks.hbase.TableDefinition;
import dev.rowflow.sinks.query.InputQueries;
import dev.rowflow.sinks.query.LogEventView;
import dev.rowflow.sinks.query.OrderQueries;
import dev.rowflow.sinks.query.QueryResult;
import dev.rowflow.sinks.query.StoredEvent;
import dev.rowflow.sinks.query.StoredRow;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** {@code rowflow query}: read rows back the way their keys were designed. */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = "Read log events, customers and orders, and a declared input's rows back from HBase (a table for "
                + "people, --json for scripts).",
        subcommands = {QueryCommand.Host.class, QueryCommand.Range.class, QueryCommand.Index.class,
                QueryCommand.CustomerQuery.class, QueryCommand.OrderQuery.class, InputQueryCommand.class})
final class QueryCommand {
    private static final ObjectMapper JSON = new ObjectMapper();

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

    /** Log queries: time bounds, a limit, the events printed. */
    abstract static class LogAction extends QueryAction {
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
                printTable(table, out);
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

    /** Order queries: rows of several record types, printed with decoded keys and named cells. */
    abstract static class OrderAction extends QueryAction {
        @Override
        int query(PipelinePlan plan, Connection connection, PrintWriter out) throws Exception {
            OrderJoin orders = plan.ingest(OrderJoin.NAME, OrderJoin.class).orElseThrow(() -> new ParameterException(
                    spec.commandLine(), "query " + spec.name() + " reads the orders pipeline, which the configuration "
                    + "does not run (" + RowflowConfig.PIPELINES_CONFIG + "=" + plan.config().getList(
                    RowflowConfig.PIPELINES_CONFIG) + ")"));
            OrderRows rows = orders.rows();
            Map<TableRole, TableDefinition> tables = new java.util.TreeMap<>();
            orders.tables().forEach(table -> tables.put(table.role(), table.definition()));
            Map<TableRole, TableName> names = new java.util.TreeMap<>();
            tables.forEach((role, table) -> names.put(role, table.name()));
            QueryResult<StoredRow> result = run(new OrderQueries(connection, names, rows));
            printRows(result, tables, out);
            return 0;
        }

        abstract QueryResult<StoredRow> run(OrderQueries queries);

        private void printRows(QueryResult<StoredRow> result, Map<TableRole, TableDefinition> tables, PrintWriter out)
                throws Exception {
            ObjectNode root = JSON.createObjectNode();
            ArrayNode rowsNode = root.putArray("rows");
            for (StoredRow row : result.rows()) {
                ObjectNode node = rowsNode.addObject();
                node.put("table", tables.get(row.table()).name().getNameAsString());
                node.put("key", KeyBytes.toStringBinary(row.key()));
                node.set("keyParts", JSON.valueToTree(keyParts(tables.get(row.table()).layout(), row.key())));
                ObjectNode cells = node.putObject("cells");
                for (StoredRow.StoredCell cell : row.cells()) {
                    cells.put(new String(cell.qualifier(), StandardCharsets.UTF_8), render(cell));
                }
            }
            root.put("scans", result.scans());
            root.put("danglingIndexRows", result.danglingIndexRows());
            if (json) {
                out.println(JSON.writeValueAsString(root));
                return;
            }
            for (var node : rowsNode) {
                out.printf("%s  %s  %s%n", node.get("table").asText(), node.get("key").asText(), node.get("keyParts"));
                node.get("cells").fields().forEachRemaining(c -> out.printf("    %-3s %s%n", c.getKey(), c.getValue().asText()));
            }
            out.printf("-- %d rows, %d scans, %d dangling index rows skipped%n", result.rows().size(), result.scans(),
                    result.danglingIndexRows());
        }

        /**
         * The key's parts by field, UIDs resolved back to names; empty when the key is of another
         * record type than the table's recorded layout (CUSTOMER++ tables hold two).
         */
        private Map<String, Object> keyParts(RowKeyLayout layout, byte[] key) {
            Map<String, Object> parts = new LinkedHashMap<>();
            DecodedKey decoded;
            try {
                decoded = layout.decode(key);
            } catch (IllegalArgumentException otherRecordType) {
                return parts;
            }
            for (KeyPart part : layout.parts()) {
                Object value = decoded.fields().get(part.field());
                if (part.encoding().needsUids() && value instanceof Long id) {
                    value = uids.nameOf(part.field(), id).orElse("uid " + id);
                }
                parts.put(part.field(), value == null ? null : value.toString());
            }
            return parts;
        }
    }

    @Command(name = "customer", mixinStandardHelpOptions = true,
            description = "Everything about one customer: its row and every row of its orders (one scan under CUSTOMER++).")
    static final class CustomerQuery extends OrderAction {
        @Parameters(index = "0", paramLabel = "CUSTOMER_NUMBER")
        String customerNumber;

        @Override
        QueryResult<StoredRow> run(OrderQueries queries) {
            return queries.customer(customerNumber);
        }
    }

    @Command(name = "order", mixinStandardHelpOptions = true,
            description = "One order with its shipping locations and line items, through the order index.")
    static final class OrderQuery extends OrderAction {
        @Parameters(index = "0", paramLabel = "ORDER_NUMBER")
        String orderNumber;

        @Override
        QueryResult<StoredRow> run(OrderQueries queries) {
            return queries.order(orderNumber);
        }
    }

    /** A cell value for people: text if it is text, the whole order if it is the blob, else a number or hex. */
    static String render(StoredRow.StoredCell cell) {
        if (java.util.Arrays.equals(cell.qualifier(), OrderColumns.ORDER_BLOB)) {
            return OrderBlob.decode(cell.value()).toString();
        }
        byte[] value = cell.value();
        if (value.length == Long.BYTES && !printable(value)) {
            return Long.toString(java.nio.ByteBuffer.wrap(value).getLong());
        }
        if (value.length == Integer.BYTES && !printable(value)) {
            return Integer.toString(java.nio.ByteBuffer.wrap(value).getInt());
        }
        return printable(value) ? new String(value, StandardCharsets.UTF_8) : KeyBytes.toStringBinary(value);
    }

    private static boolean printable(byte[] value) {
        try {
            String text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(value)).toString();
            return text.chars().noneMatch(c -> Character.isISOControl(c));
        } catch (CharacterCodingException e) {
            return false;
        }
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

    static void printTable(List<String[]> rows, PrintWriter out) {
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], i == row.length - 1 ? 0 : row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(i == row.length - 1 ? row[i] : String.format("%-" + widths[i] + "s  ", row[i]));
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
