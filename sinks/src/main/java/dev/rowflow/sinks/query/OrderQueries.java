package dev.rowflow.sinks.query;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.KeyRange;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UnknownNameException;
import dev.rowflow.keying.order.OrderColumns;
import dev.rowflow.keying.order.OrderRows;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads customers and orders back (seed 002, 1.11.3): everything about one customer -- under
 * CUSTOMER++ the single scan {@code [customer], [customer]+1)} of the order table -- and one order
 * with its shipping locations and line items, found through the order index.
 *
 * <p>Rows come table by table (customer, order, shipping location, line item), each in key
 * order: under the single-table designs that is an order's rows top down (order, locations,
 * items). Customer and order numbers in a UID layout are looked up, never assigned.
 */
public final class OrderQueries {
    /** Tables in the order their rows are returned. */
    private static final List<TableRole> READ_ORDER = List.of(TableRole.CUSTOMER, TableRole.ORDER,
            TableRole.SHIPPING_LOCATION, TableRole.LINE_ITEM);
    private final Connection connection;
    private final Map<TableRole, TableName> tables;
    private final OrderRows rows;

    /** @param tables the configured design's tables by role (as {@code RowflowConfig.orderTables}) */
    public OrderQueries(Connection connection, Map<TableRole, TableName> tables, OrderRows rows) {
        this.connection = connection;
        this.tables = tables;
        this.rows = rows;
    }

    /**
     * The customer's row and every row of every order of the customer: a get from the customer
     * table and one scan per order table of the design, one scan in all under CUSTOMER++.
     */
    public QueryResult<StoredRow> customer(String customerNumber) {
        byte[] prefix;
        byte[] customerKey;
        try {
            prefix = rows.customerPrefix(customerNumber);
            customerKey = rows.customerKey(customerNumber);
        } catch (UnknownNameException e) {
            return new QueryResult<>(List.of(), 0, 0);
        }
        List<StoredRow> found = new ArrayList<>();
        int scans = 0;
        for (TableRole role : READ_ORDER) {
            if (role == TableRole.CUSTOMER && tables.containsKey(role)) {
                // In its own table the customer's key ends with the number (no terminator): a get.
                StoredRow customer = get(role, customerKey);
                if (!customer.cells().isEmpty()) {
                    found.add(customer);
                }
                scans++;
            } else if (tables.containsKey(role)) {
                found.addAll(scan(role, prefix));
                scans++;
            }
        }
        return new QueryResult<>(found, scans, 0);
    }

    /**
     * The order's rows (order, shipping locations, line items), found through the order index.
     * An index row whose order row is missing is skipped and counted. More than one order under
     * one number (two customers' orders that share a number) are returned one after the other.
     */
    public QueryResult<StoredRow> order(String orderNumber) {
        byte[] indexPrefix;
        try {
            indexPrefix = rows.indexPrefix(orderNumber);
        } catch (UnknownNameException e) {
            return new QueryResult<>(List.of(), 0, 0);
        }
        List<StoredRow> found = new ArrayList<>();
        long dangling = 0;
        int scans = 1;
        for (StoredRow indexRow : scan(TableRole.ORDER_INDEX, indexPrefix)) {
            byte[] orderRowKey = indexRow.cells().stream()
                    .filter(c -> java.util.Arrays.equals(c.qualifier(), OrderColumns.ORDER_ROW_KEY))
                    .findFirst().orElseThrow().value();
            if (!exists(TableRole.ORDER, orderRowKey)) {
                dangling++;
                continue;
            }
            byte[] orderPrefix = rows.orderPrefixOf(orderRowKey);
            for (TableRole role : List.of(TableRole.ORDER, TableRole.SHIPPING_LOCATION, TableRole.LINE_ITEM)) {
                if (role == TableRole.ORDER && rows.design() == dev.rowflow.keying.order.OrderDesign.NORMALIZED) {
                    // The normalized order row ends with the order number: a prefix scan would also
                    // read orders whose number extends this one.
                    found.add(get(role, orderRowKey));
                    scans++;
                } else if (tables.containsKey(role)) {
                    found.addAll(scan(role, orderPrefix));
                    scans++;
                }
            }
        }
        return new QueryResult<>(found, scans, dangling);
    }

    private List<StoredRow> scan(TableRole role, byte[] prefix) {
        KeyRange range = new KeyRange(prefix, RowKeyLayout.prefixEnd(prefix));
        List<StoredRow> found = new ArrayList<>();
        try (Table table = connection.getTable(tables.get(role));
             ResultScanner scanner = table.getScanner(new Scan().withStartRow(range.start()).withStopRow(range.stop()))) {
            for (Result result : scanner) {
                found.add(StoredRow.of(role, result));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("scan of " + tables.get(role) + " " + range + " failed", e);
        }
        return found;
    }

    private boolean exists(TableRole role, byte[] key) {
        try (Table table = connection.getTable(tables.get(role))) {
            return table.exists(new Get(key));
        } catch (IOException e) {
            throw new UncheckedIOException("get from " + tables.get(role) + " failed", e);
        }
    }

    private StoredRow get(TableRole role, byte[] key) {
        try (Table table = connection.getTable(tables.get(role))) {
            return StoredRow.of(role, table.get(new Get(key)));
        } catch (IOException e) {
            throw new UncheckedIOException("get from " + tables.get(role) + " failed", e);
        }
    }
}
