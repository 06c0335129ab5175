package dev.rowflow.sinks.query;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.events.Customer;
import dev.rowflow.events.LineItem;
import dev.rowflow.events.Order;
import dev.rowflow.events.ShippingLocation;
import dev.rowflow.keying.Cell;
import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.order.OrderColumns;
import dev.rowflow.keying.order.OrderDesign;
import dev.rowflow.keying.order.OrderRows;
import dev.rowflow.sinks.hbase.FamilySettings;
import dev.rowflow.sinks.hbase.Store;
import dev.rowflow.sinks.hbase.HBaseRowSink;
import dev.rowflow.sinks.hbase.SinkSettings;
import dev.rowflow.sinks.hbase.TableAdmin;
import dev.rowflow.sinks.hbase.TableDefinition;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Everything about a customer and one order with its line items, read back from each order design
 * on real HBase: exactly the rows the input makes, table by table in key order.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
@ParameterizedClass(name = "{0}")
@EnumSource(Store.class)
class OrderQueriesIT {
    private static final long T0 = 1_700_000_000_000L;
    private final Store store;
    private final Connection connection;

    OrderQueriesIT(Store store, EmbeddedStack stack) {
        EmbeddedStackExtension.assumeStoreAvailable(store.token());
        this.store = store;
        this.connection = stack.connection(store.token());
    }

    private Customer customer(String number) {
        return Customer.newBuilder().setCustomerNumber(number).setName("Name " + number)
                .setAddress(new dev.rowflow.events.Address("1 Main St", "Springfield", "IL", "62701"))
                .setPhoneNumbers(List.of("555-0100")).build();
    }

    /** Order {@code n} of a customer: n locations of n+1 line items each. */
    private Order order(String customer, String number, int n) {
        List<ShippingLocation> locations = new ArrayList<>();
        for (int l = 1; l <= n; l++) {
            List<LineItem> items = new ArrayList<>();
            for (int i = 1; i <= n + 1; i++) {
                items.add(new LineItem("I-" + l + "-" + i, i, 100L * i));
            }
            locations.add(new ShippingLocation(l + " Elm St", null, "Shelbyville", "IL", "6270" + l, items));
        }
        return Order.newBuilder().setOrderNumber(number).setCustomerNumber(customer)
                .setOrderTime(Instant.ofEpochMilli(T0 + n)).setShippingLocations(locations).build();
    }

    /** A row as "ROLE key cells": what the reads are compared by. */
    private static String text(TableRole role, byte[] key, List<String> cells) {
        return role + " " + KeyBytes.toStringBinary(key) + " " + cells;
    }

    private static String text(StoredRow row) {
        return text(row.table(), row.key(), row.cells().stream().map(c -> KeyBytes.toStringBinary(c.qualifier()) + "="
                + KeyBytes.toStringBinary(c.value()) + "@" + c.timestamp()).sorted().toList());
    }

    private static String text(Row row, TableRole storedIn) {
        return text(storedIn, row.key(), row.cells().stream().map(c -> KeyBytes.toStringBinary(c.qualifier()) + "="
                + KeyBytes.toStringBinary(c.value()) + "@" + row.timestamp()).sorted().toList());
    }

    @ParameterizedTest(name = "{0}, CUSTOMER++ {1}, {2}")
    @CsvSource(delimiter = ';', value = {
            "normalized; false; customerNumber:text, orderNumber:text",
            "record-types; true; customerNumber:text, orderNumber:text",
            "denormalized; false; customerNumber:md5, orderNumber:md5",
            "blob; true; customerNumber:text, orderNumber:md5"})
    void shouldReadACustomerWithEverythingAndAnOrderWithItsLineItems(String design, boolean customerPlusPlus,
                                                                     String layout) throws Exception {
        OrderRows rows = new OrderRows(OrderDesign.of(design), RowKeyLayout.parse(layout, null), customerPlusPlus);
        String name = "q_orders_" + design.replace('-', '_') + (customerPlusPlus ? "_cpp" : "");
        Map<TableRole, TableDefinition> tables = new java.util.TreeMap<>();
        try (Admin admin = connection.getAdmin()) {
            for (Map.Entry<TableRole, RowKeyLayout> table : rows.tableLayouts().entrySet()) {
                TableDefinition definition = new TableDefinition(TableName.valueOf(name + "_" + table.getKey().name().toLowerCase()),
                        table.getKey() == TableRole.ORDER_INDEX ? OrderColumns.INDEX_FAMILY : OrderColumns.FAMILY,
                        FamilySettings.DEFAULT, table.getValue());
                new TableAdmin(admin).createOrCheck(definition);
                tables.put(table.getKey(), definition);
            }
        }
        // C1 is a prefix of C10 and O1 of O10 and O100: prefix scans must not mix them up.
        List<String> customers = List.of("C1", "C10", "C2");
        List<Order> orders = new ArrayList<>();
        for (String c : customers) {
            orders.add(order(c, "O" + c.substring(1), 1));
            orders.add(order(c, "O" + c.substring(1) + "00", 2));
            orders.add(order(c, "O" + c.substring(1) + "05", 3));
        }
        List<Row> written = new ArrayList<>();
        for (String c : customers) {
            written.add(rows.customerRow(customer(c), T0));
        }
        for (Order order : orders) {
            written.addAll(rows.rowsOf(order, customer(order.getCustomerNumber())));
        }
        try (HBaseRowSink sink = new HBaseRowSink(connection, tables, new SinkSettings(0, 0))) {
            for (Row row : written) {
                sink.write(row);
            }
            sink.flush();
        }
        Map<TableRole, TableName> names = new java.util.TreeMap<>();
        tables.forEach((role, table) -> names.put(role, table.name()));
        OrderQueries queries = new OrderQueries(connection, names, rows);

        // Everything about C1: its row and its three orders' rows, table by table, in key order.
        QueryResult<StoredRow> c1 = queries.customer("C1");
        List<Row> ofC1 = new ArrayList<>(List.of(rows.customerRow(customer("C1"), T0)));
        orders.stream().filter(o -> o.getCustomerNumber().equals("C1"))
                .forEach(o -> ofC1.addAll(rows.rowsOf(o, customer("C1"))));
        assertThat(c1.rows().stream().map(OrderQueriesIT::text).toList())
                .containsExactlyElementsOf(expected(ofC1, r -> r.table() != TableRole.ORDER_INDEX));
        assertThat(c1.scans()).as("gets and scans").isEqualTo(customerPlusPlus ? 1 : tables.size() - 1);
        assertThat(c1.rows()).hasSize(expectedCount(design, customerPlusPlus));

        // One order with its line items, through the index.
        Order o100 = orders.get(1); // C1's order O100: 2 locations of 3 items
        QueryResult<StoredRow> order = queries.order("O100");
        List<String> expectedOrder = expected(rows.rowsOf(o100, customer("C1")), r -> r.table() != TableRole.ORDER_INDEX);
        assertThat(order.rows().stream().map(OrderQueriesIT::text).toList()).containsExactlyElementsOf(expectedOrder);
        assertThat(order.danglingIndexRows()).isZero();
        assertThat(queries.order("O404").rows()).isEmpty();

        // An index row whose order is gone: skipped and counted.
        try (Table orderTable = connection.getTable(names.get(TableRole.ORDER))) {
            orderTable.delete(new Delete(rows.orderRowKey("C2", "O205")));
        }
        QueryResult<StoredRow> gone = queries.order("O205");
        assertThat(gone.rows()).isEmpty();
        assertThat(gone.danglingIndexRows()).isEqualTo(1);
    }

    /** The rows the reads promise: table by table (customer, order, location, item), then key order. */
    private List<String> expected(List<Row> written, java.util.function.Predicate<Row> filter) {
        List<TableRole> tableOrder = List.of(TableRole.CUSTOMER, TableRole.ORDER, TableRole.SHIPPING_LOCATION,
                TableRole.LINE_ITEM);
        // Rows of one key merge into one stored row (the denormalized customer columns).
        Map<String, Row> merged = new java.util.TreeMap<>();
        for (Row row : written) {
            if (!filter.test(row)) {
                continue;
            }
            TableRole storedIn = row.table();
            String key = tableOrder.indexOf(storedIn) + " " + KeyBytes.toStringBinary(row.key());
            Row before = merged.get(key);
            if (before == null) {
                merged.put(key, row);
            } else {
                List<Cell> cells = new ArrayList<>(before.cells());
                cells.addAll(row.cells());
                merged.put(key, new Row(storedIn, row.key(), row.timestamp(), cells));
            }
        }
        return merged.values().stream()
                .sorted(Comparator.comparing((Row r) -> tableOrder.indexOf(r.table()))
                        .thenComparing(Row::key, Arrays::compareUnsigned))
                .map(r -> text(r, r.table())).toList();
    }

    private int expectedCount(String design, boolean customerPlusPlus) {
        // One customer row, plus per order n (1..3): order row, n locations, n*(n+1) items.
        int orderRows = switch (design) {
            case "normalized", "record-types" -> (1 + 1 + 2) + (1 + 2 + 6) + (1 + 3 + 12);
            case "denormalized" -> (1 + 2) + (1 + 6) + (1 + 12);
            default -> 3;
        };
        return 1 + orderRows;
    }

}
