package dev.rowflow.embedded.load;

import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.mapping.EventMapping;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A shop database's change history as Debezium's MySQL connector writes it (JsonConverter without
 * schemas) on two topics, customers and orders, and the database it leaves: a snapshot, then
 * creates, status updates, orders moved to another customer, deletes each with its tombstone,
 * primary-key changes (the delete of one key and the create of another), customers renamed,
 * deleted and created again, orders of customers that do not exist (yet), several changes to a
 * millisecond. Deterministic for a seed.
 *
 * <p>{@link #mapping} declares the inputs rowflow applies it with -- orders joined with their
 * customers, keyed {@code [customer][order]} with a status index -- and {@link #differences}
 * compares the tables with the database: the demo's {@code --format debezium} and the crash test
 * of change events use both.
 */
public final class ShopHistory {
    /** One record: of the customers topic or the orders topic, its key, its value (null: a tombstone). */
    public record Event(boolean customer, String key, String value) {
    }

    /** An order as the database has it. */
    public record Order(long customer, long cents, String status) {
    }

    private static final RowKeyLayout ORDER_KEY = RowKeyLayout.parse("customer_id:long, id:long", null);
    private static final RowKeyLayout STATUS_KEY = RowKeyLayout.parse("status:text, id:long", null);
    private static final RowKeyLayout CUSTOMER_KEY = RowKeyLayout.parse("id:long", null);

    private final List<Event> events = new ArrayList<>();
    private final Map<Long, String[]> customers = new TreeMap<>(); // id -> name, city
    private final Map<Long, Order> orders = new TreeMap<>();
    private final SplittableRandom random;
    private long ts;
    private long position;
    private long changes;
    private long tombstones;

    /**
     * @param count the changes it has (tombstones besides), the snapshot included
     * @param start the time of the first change in the database, ms
     */
    public ShopHistory(long count, long start, long seed) {
        random = new SplittableRandom(seed);
        ts = start;
        int customerCount = (int) Math.max(10, count / 50);
        for (long id = 1; id <= customerCount; id++) {
            putCustomer("r", id, new String[] {"customer " + id, city()});
        }
        long nextOrder = 1;
        for (; nextOrder <= customerCount * 2L; nextOrder++) {
            putOrder("r", nextOrder, new Order(1 + random.nextLong(customerCount), cents(), "new"));
        }
        while (changes < count) {
            ts += position % 3 == 0 ? 1 : 0; // several changes to a millisecond
            int kind = random.nextInt(100);
            Long orderId = randomKey(orders, nextOrder);
            Long customerId = randomKey(customers, customerCount + 4);
            if (kind < 35 || orderId == null) {
                // Now and then an order of a customer not created yet: written without its fields until it is.
                putOrder("c", nextOrder++, new Order(1 + random.nextLong(customerCount + 3), cents(), "new"));
            } else if (kind < 55) {
                Order order = orders.get(orderId);
                putOrder("u", orderId, new Order(order.customer(), order.cents(), "shipped " + position));
            } else if (kind < 65) {
                Order order = orders.get(orderId);
                putOrder("u", orderId, new Order(1 + random.nextLong(customerCount), order.cents(), order.status()));
            } else if (kind < 73) {
                deleteOrder(orderId);
            } else if (kind < 77) {
                // A primary-key change: Debezium sends the delete of the old key and the create of the new one.
                Order order = orders.get(orderId);
                deleteOrder(orderId);
                putOrder("c", nextOrder++, order);
            } else if (kind < 90 && customerId != null) {
                putCustomer("u", customerId, new String[] {"renamed " + position, customers.get(customerId)[1]});
            } else if (kind < 93 && customerId != null) {
                String[] before = customers.remove(customerId);
                add(true, customerId, change("d", customerRow(customerId, before), "null", "customers"));
                add(true, customerId, null);
            } else {
                // A customer created (again, where one was deleted), or now and then one whose orders came first.
                long id = 1 + random.nextLong(customerCount + 3);
                for (int tries = 0; tries < 20 && customers.containsKey(id); tries++) {
                    id = 1 + random.nextLong(customerCount + 3);
                }
                putCustomer(customers.containsKey(id) ? "u" : "c", id, new String[] {"customer " + id + " again",
                        city()});
            }
        }
    }

    /**
     * The declaration that applies the history: inputs {@code customers} and {@code orders} on
     * topics {@code <name>.public.customers} and {@code <name>.public.orders}, into tables
     * {@code <name>_customers}, {@code <name>_orders} and the status index {@code <name>_orders_status};
     * the orders joined with their customers ({@code customer.name} in column {@code cn}).
     */
    public static Map<String, String> mapping(String name) {
        Map<String, String> mapping = new LinkedHashMap<>();
        mapping.put("inputs", "customers,orders");
        for (String input : List.of("customers", "orders")) {
            mapping.put("input." + input + ".topic", name + ".public." + input);
            mapping.put("input." + input + ".format", "json");
            mapping.put("input." + input + ".envelope", "debezium");
            mapping.put("input." + input + ".time", "$source.ts_ms");
            mapping.put("input." + input + ".time.format", "epoch-ms");
            mapping.put("input." + input + ".table", name + "_" + input);
        }
        mapping.put("input.customers.key", "id:long");
        mapping.put("input.customers.columns", "name=n, city=y");
        mapping.put("input.orders.key", "customer_id:long, id:long");
        mapping.put("input.orders.columns", "id=i, total=t, status=s, customer.name=cn, customer.city=cy");
        mapping.put("input.orders.indexes", "status");
        mapping.put("input.orders.index.status.key", "status:text, id:long");
        mapping.put("input.orders.join.input", "customers");
        mapping.put("input.orders.join.on", "customer_id");
        mapping.put("input.orders.join.field", "id");
        mapping.put("input.orders.join.as", "customer");
        return Collections.unmodifiableMap(mapping);
    }

    /** The prefix of the rows of customer {@code id} in the orders table: its orders are one scan. */
    public static byte[] ordersOf(long customer) {
        return RowKeyLayout.parse("customer_id:long", null).encode(customer);
    }

    /** The records, tombstones included, in the order the database made them. */
    public List<Event> events() {
        return Collections.unmodifiableList(events);
    }

    /** The customers at the end: id -> name, city. */
    public Map<Long, String[]> customers() {
        return Collections.unmodifiableMap(customers);
    }

    /** The orders at the end, by id. */
    public Map<Long, Order> orders() {
        return Collections.unmodifiableMap(orders);
    }

    public long changes() {
        return changes;
    }

    public long tombstones() {
        return tombstones;
    }

    /**
     * How many rows of {@link #mapping}'s tables are not as the database has them: see
     * {@link #differenceList}. 0 when the tables hold the database.
     */
    public long differences(Connection connection, String name) throws IOException {
        return differenceList(connection, name).size();
    }

    /**
     * The rows of {@link #mapping}'s tables that are not as the database has them, one line each
     * saying what the database has and what the table holds: an order or customer missing, extra,
     * or with another status, total, customer name (present or absent) or name; a status index row
     * for an order without one, a second one for an order, or one for no order. Empty when the
     * tables hold the database.
     */
    public List<String> differenceList(Connection connection, String name) throws IOException {
        List<String> differences = new ArrayList<>();
        Map<ByteBuffer, Result> orderRows = new HashMap<>(TableRows.scan(connection, name + "_orders"));
        Map<ByteBuffer, Long> orderIds = new HashMap<>();
        for (Map.Entry<Long, Order> entry : orders.entrySet()) {
            Order order = entry.getValue();
            ByteBuffer key = ByteBuffer.wrap(ORDER_KEY.encode(order.customer(), entry.getKey()));
            orderIds.put(key, entry.getKey());
            Result row = orderRows.remove(key);
            String[] customer = customers.get(order.customer());
            String expected = "status=" + order.status() + " total=" + cents(order.cents()) + " customer.name="
                    + (customer == null ? null : customer[0]);
            if (row == null) {
                differences.add("order " + entry.getKey() + " of customer " + order.customer() + " missing: "
                        + expected);
            } else if (!order.status().equals(cell(row, "s")) || !cents(order.cents()).equals(cell(row, "t"))
                    || !Objects.equals(customer == null ? null : customer[0], cell(row, "cn"))) {
                differences.add("order " + entry.getKey() + " of customer " + order.customer() + ": " + expected
                        + ", stored " + describe(row));
            }
        }
        orderRows.values().forEach(row -> differences.add("order row not in the database: " + describe(row)));
        Map<ByteBuffer, Result> customerRows = new HashMap<>(TableRows.scan(connection, name + "_customers"));
        for (Map.Entry<Long, String[]> entry : customers.entrySet()) {
            Result row = customerRows.remove(ByteBuffer.wrap(CUSTOMER_KEY.encode(entry.getKey())));
            if (row == null) {
                differences.add("customer " + entry.getKey() + " missing: name=" + entry.getValue()[0]);
            } else if (!entry.getValue()[0].equals(cell(row, "n"))) {
                differences.add("customer " + entry.getKey() + ": name=" + entry.getValue()[0] + ", stored "
                        + describe(row));
            }
        }
        customerRows.values().forEach(row -> differences.add("customer row not in the database: " + describe(row)));
        Map<ByteBuffer, Integer> indexRowsPerOrder = new HashMap<>();
        for (Result row : TableRows.scan(connection, name + "_orders_status").values()) {
            byte[] dataKey = row.getValue(EventMapping.INDEX_FAMILY, EventMapping.DATA_ROW_KEY);
            ByteBuffer order = dataKey == null ? null : ByteBuffer.wrap(dataKey);
            if (order == null || !orderIds.containsKey(order)) {
                differences.add("status index row for no order: " + describe(row));
            } else if (indexRowsPerOrder.merge(order, 1, Integer::sum) > 1) {
                differences.add("another status index row of order " + orderIds.get(order) + ": " + describe(row));
            } else {
                long id = orderIds.get(order);
                String status = orders.get(id).status();
                if (!Arrays.equals(row.getRow(), STATUS_KEY.encode(status, id))) {
                    differences.add("status index row of order " + id + " not of its status " + status + ": "
                            + describe(row));
                }
            }
        }
        orderIds.forEach((key, id) -> {
            if (!indexRowsPerOrder.containsKey(key)) {
                differences.add("order " + id + " has no status index row: status=" + orders.get(id).status());
            }
        });
        return differences;
    }

    /** A stored row as key and cells, for a difference's line. */
    private static String describe(Result row) {
        StringBuilder s = new StringBuilder(Bytes.toStringBinary(row.getRow())).append(" {");
        for (org.apache.hadoop.hbase.Cell cell : row.rawCells()) {
            s.append(' ').append(Bytes.toString(CellUtil.cloneQualifier(cell))).append('=')
                    .append(Bytes.toStringBinary(CellUtil.cloneValue(cell))).append('@').append(cell.getTimestamp());
        }
        return s.append(" }").toString();
    }

    private static String cell(Result row, String qualifier) {
        byte[] value = row.getValue(Bytes.toBytes("d"), Bytes.toBytes(qualifier));
        return value == null ? null : Bytes.toString(value);
    }

    /** Cents as the text of the decimal the database holds: 1234 -> 12.34. */
    public static String cents(long cents) {
        return BigDecimal.valueOf(cents, 2).toPlainString();
    }

    private void putCustomer(String op, long id, String[] row) {
        String[] before = customers.put(id, row);
        add(true, id, change(op, before == null ? "null" : customerRow(id, before), customerRow(id, row),
                "customers"));
    }

    private void putOrder(String op, long id, Order order) {
        Order before = orders.put(id, order);
        add(false, id, change(op, before == null ? "null" : orderRow(id, before), orderRow(id, order), "orders"));
    }

    private void deleteOrder(long id) {
        Order before = orders.remove(id);
        add(false, id, change("d", orderRow(id, before), "null", "orders"));
        add(false, id, null);
    }

    private void add(boolean customer, long id, String value) {
        events.add(new Event(customer, "{\"id\":" + id + "}", value));
        if (value == null) {
            tombstones++;
        } else {
            changes++;
        }
    }

    private String change(String op, String before, String after, String table) {
        position += 1;
        return "{\"before\":" + before + ",\"after\":" + after + ",\"source\":{\"version\":\"2.7.3.Final\","
                + "\"connector\":\"mysql\",\"name\":\"shop\",\"ts_ms\":" + ts + ",\"snapshot\":\""
                + op.equals("r") + "\",\"db\":\"shop\",\"table\":\"" + table + "\",\"server_id\":223344,"
                + "\"file\":\"mysql-bin.000003\",\"pos\":" + (154 + position * 300) + ",\"row\":0},\"op\":\"" + op
                + "\",\"ts_ms\":" + (ts + 4) + ",\"transaction\":null}";
    }

    private static String customerRow(long id, String[] row) {
        return "{\"id\":" + id + ",\"name\":\"" + row[0] + "\",\"city\":\"" + row[1] + "\"}";
    }

    private static String orderRow(long id, Order order) {
        return "{\"id\":" + id + ",\"customer_id\":" + order.customer() + ",\"total\":\"" + cents(order.cents())
                + "\",\"status\":\"" + order.status() + "\",\"placed_at\":\""
                + Instant.ofEpochMilli(1_795_000_000_000L + id * 1000) + "\"}";
    }

    private String city() {
        return List.of("Lisbon", "Oslo", "Turin", "Leeds", "Ghent").get(random.nextInt(5));
    }

    private long cents() {
        return 100 + random.nextLong(200_000);
    }

    /** A random id of {@code map} below {@code bound}, or null if 50 draws find none. */
    private <V> Long randomKey(Map<Long, V> map, long bound) {
        for (int i = 0; i < 50; i++) {
            long id = 1 + random.nextLong(bound - 1);
            if (map.containsKey(id)) {
                return id;
            }
        }
        return null;
    }
}
