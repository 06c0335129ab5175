package dev.rowflow.pipeline.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.DecodedKey;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.order.OrderBlob;
import dev.rowflow.keying.order.OrderColumns;
import dev.rowflow.keying.order.OrderRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.OrderIngest;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.sinks.hbase.TableDefinition;
import dev.rowflow.sinks.query.OrderQueries;
import dev.rowflow.sinks.query.QueryResult;
import dev.rowflow.sinks.query.StoredRow;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code rowflow query customer|order}: the orders pipeline's rows of several record types, read
 * the way the order designs were made for (seed 002, 1.11.3).
 */
final class OrderQueryCommands {
    private static final ObjectMapper JSON = new ObjectMapper();

    private OrderQueryCommands() {
    }

    /** Order queries: rows of several record types, printed with decoded keys and named cells. */
    abstract static class OrderAction extends QueryCommand.QueryAction {
        @Override
        int query(PipelinePlan plan, Connection connection, PrintWriter out) throws Exception {
            if (!plan.config().runs(RowflowConfig.ORDERS_PIPELINE)) {
                throw new ParameterException(spec.commandLine(), "query " + spec.name() + " reads the orders "
                        + "pipeline, which the configuration does not run (" + RowflowConfig.PIPELINES_CONFIG + "="
                        + plan.config().pipelines() + ")");
            }
            OrderRows rows = OrderIngest.rows(plan.config(), uids);
            Map<TableRole, TableDefinition> tables = new java.util.TreeMap<>();
            plan.tables().forEach((role, table) -> {
                if (TableRole.ORDER_TABLES.contains(role)) {
                    tables.put(role, table);
                }
            });
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
}
