package dev.rowflow.pipeline.runtime;

import dev.rowflow.events.Customer;
import dev.rowflow.events.Order;
import dev.rowflow.keying.Cell;
import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.order.OrderRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.sinks.hbase.TableDefinition;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The order tables' contents in one comparable form, "ROLE key" -> cells
 * "family:qualifier=value@timestamp": computed from the input ({@link #expected}) or read back from
 * HBase ({@link #stored}), every version of every cell.
 */
public final class OrderTableContents {
    private OrderTableContents() {
    }

    /**
     * Every row the input should leave: each customer's row at its record's timestamp, each
     * order's rows completed with its customer's fields.
     *
     * @param customers each customer and the timestamp of its record
     * @param customerOf the customer of an order
     */
    public static Map<String, Set<String>> expected(OrderRows rows, Map<Customer, Long> customers, List<Order> orders,
                                                    java.util.function.Function<Order, Customer> customerOf) {
        List<Row> all = new ArrayList<>();
        customers.forEach((customer, timestamp) -> all.add(rows.customerRow(customer, timestamp)));
        for (Order order : orders) {
            all.addAll(rows.rowsOf(order, customerOf.apply(order)));
        }
        Map<String, Set<String>> expected = new TreeMap<>();
        for (Row row : all) {
            Set<String> cells = expected.computeIfAbsent(row.table() + " " + KeyBytes.toStringBinary(row.key()),
                    k -> new TreeSet<>());
            for (Cell cell : row.cells()) {
                cells.add(KeyBytes.toStringBinary(cell.family()) + ":" + KeyBytes.toStringBinary(cell.qualifier()) + "="
                        + KeyBytes.toStringBinary(cell.value()) + "@" + row.timestamp());
            }
        }
        return expected;
    }

    /** What HBase holds in the order tables of {@code config}, in the form of {@link #expected}. */
    public static Map<String, Set<String>> stored(Connection connection, RowflowConfig config, OrderRows rows)
            throws java.io.IOException {
        Map<String, Set<String>> stored = new TreeMap<>();
        Map<TableRole, TableDefinition> tables = new TreeMap<>();
        dev.rowflow.pipeline.ingest.OrderIngest.of(config, null).forEach(input -> input.tables()
                .forEach(table -> tables.put(table.role(), table.definition())));
        for (Map.Entry<TableRole, TableDefinition> table : tables.entrySet()) {
            try (Table t = connection.getTable(table.getValue().name());
                 ResultScanner scanner = t.getScanner(new Scan().readAllVersions())) {
                for (Result result : scanner) {
                    Set<String> cells = new TreeSet<>();
                    for (org.apache.hadoop.hbase.Cell cell : result.rawCells()) {
                        cells.add(KeyBytes.toStringBinary(CellUtil.cloneFamily(cell)) + ":"
                                + KeyBytes.toStringBinary(CellUtil.cloneQualifier(cell)) + "="
                                + KeyBytes.toStringBinary(CellUtil.cloneValue(cell)) + "@" + cell.getTimestamp());
                    }
                    // Under CUSTOMER++ the customers live in the order table: role ORDER, as expected.
                    stored.put(table.getKey() + " " + KeyBytes.toStringBinary(result.getRow()), cells);
                }
            }
        }
        return stored;
    }

    /** How many rows of {@code role} there are. */
    public static long countOf(Map<String, Set<String>> rows, TableRole role) {
        return rows.keySet().stream().filter(k -> k.startsWith(role + " ")).count();
    }
}
