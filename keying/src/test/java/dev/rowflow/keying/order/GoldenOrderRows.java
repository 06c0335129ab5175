package dev.rowflow.keying.order;

import dev.rowflow.events.Address;
import dev.rowflow.events.Customer;
import dev.rowflow.events.LineItem;
import dev.rowflow.events.Order;
import dev.rowflow.events.ShippingLocation;
import dev.rowflow.keying.EventSchemas;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.log.GoldenLogRows;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The golden fixture of the order tables, recorded from the hand-written order rows before the
 * orders pipeline became a preset of declared inputs ({@link OrderMapping}): 60 customers and 400 orders (Avro single-object
 * encoding, base64, one per line, {@code c } or {@code o } before each, in {@value #EVENTS}) and
 * every row the order keying makes of them under each design, with and without CUSTOMER++ (where the design
 * allows it), and with a hashed key (in {@value #ROWS}, gzipped, one line per row as {@link GoldenLogRows#line}
 * writes it): each customer's row, each order's rows with its customer's fields (none for an order
 * whose customer never comes), and the customer's fields onto an order written before its
 * customer. A declared preset must reproduce it byte for byte.
 *
 * <p>Rewrite (only when the byte format changes on purpose, which it must not): run this class's
 * {@code main} with the keying module's test classpath and the argument
 * {@code keying/src/test/resources/golden}. A record's rows are compared as a set ({@link #compare}):
 * the order of the rows one record makes is not written anywhere.
 */
public final class GoldenOrderRows {
    public static final String EVENTS = "order-events.b64";
    public static final String ROWS = "order-rows.txt.gz";
    public static final int CUSTOMERS = 60;
    public static final int ORDERS = 400;

    /** A design, CUSTOMER++ or not, and the order key layout. */
    public record Variant(String name, OrderDesign design, boolean customerPlusPlus, String layout) {
    }

    public static final List<Variant> VARIANTS = variants();

    private static List<Variant> variants() {
        List<Variant> variants = new ArrayList<>();
        for (OrderDesign design : OrderDesign.values()) {
            variants.add(new Variant(design.token(), design, false, OrderRows.DEFAULT_LAYOUT));
            if (design != OrderDesign.NORMALIZED) { // CUSTOMER++ needs one table for customer and order
                variants.add(new Variant(design.token() + "+cpp", design, true, OrderRows.DEFAULT_LAYOUT));
            }
        }
        variants.add(new Variant("record-types+md5", OrderDesign.RECORD_TYPES, false,
                "customerNumber:md5, orderNumber:md5"));
        return List.copyOf(variants);
    }

    private GoldenOrderRows() {
    }

    /**
     * Customers with one to three phones, some without an email; orders of one to four shipping
     * locations (some with a second address line) of one to six line items, some sharing a
     * millisecond, a tenth of customers 61 to 66 that never come.
     */
    static Map<String, List<Object>> generate() {
        SplittableRandom random = new SplittableRandom(20261125L);
        String[][] cities = {{"Springfield", "IL", "627"}, {"Portland", "OR", "972"}, {"Austin", "TX", "787"},
                {"Ghent", "NY", "120"}};
        List<Object> customers = new ArrayList<>();
        for (int i = 1; i <= CUSTOMERS; i++) {
            String[] city = cities[random.nextInt(cities.length)];
            List<String> phones = new ArrayList<>();
            for (int p = 0, n = 1 + random.nextInt(3); p < n; p++) {
                phones.add(String.format("+1-555-%04d", random.nextInt(10_000)));
            }
            customers.add(Customer.newBuilder().setCustomerNumber(String.format("C%05d", i))
                    .setName("Customer " + i + (i % 7 == 0 ? " \u00e9\u2713" : ""))
                    .setAddress(new Address(i + " Main St", city[0], city[1], city[2] + String.format("%02d", i % 100)))
                    .setPhoneNumbers(phones).setEmail(i % 4 == 0 ? null : "c" + i + "@example.com").build());
        }
        List<Object> orders = new ArrayList<>();
        long time = 1_795_000_000_000L;
        for (int o = 1; o <= ORDERS; o++) {
            time += random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(60_000);
            List<ShippingLocation> locations = new ArrayList<>();
            for (int l = 0, n = 1 + random.nextInt(4); l < n; l++) {
                String[] city = cities[random.nextInt(cities.length)];
                List<LineItem> items = new ArrayList<>();
                for (int i = 0, m = 1 + random.nextInt(6); i < m; i++) {
                    items.add(new LineItem(String.format("I-%05d", random.nextInt(50_000)), 1 + random.nextInt(5),
                            99L + random.nextInt(50_000)));
                }
                locations.add(new ShippingLocation(l + " Dock Rd", random.nextInt(4) == 0 ? "Apt " + l : null,
                        city[0], city[1], city[2] + "00", items));
            }
            int customer = random.nextInt(10) == 0 ? CUSTOMERS + 1 + random.nextInt(6) : 1 + random.nextInt(CUSTOMERS);
            orders.add(Order.newBuilder().setOrderNumber(String.format("O%06d", o))
                    .setCustomerNumber(String.format("C%05d", customer)).setOrderTime(Instant.ofEpochMilli(time))
                    .setShippingLocations(locations).setCurrency(o % 5 == 0 ? "EUR" : "USD").build());
        }
        Map<String, List<Object>> events = new LinkedHashMap<>();
        events.put("c", customers);
        events.put("o", orders);
        return events;
    }

    /**
     * The rows of every variant, one list per record: per customer its row (at a fixed time), then
     * per order its rows with its customer's fields and, where its customer exists, the customer's
     * fields alone on the order row ({@link #customerCells}), as they complete an order written
     * before its customer.
     */
    static List<List<String>> recordedRows(List<Customer> customers, List<Order> orders) {
        Map<String, Customer> byNumber = new LinkedHashMap<>();
        customers.forEach(customer -> byNumber.put(customer.getCustomerNumber(), customer));
        List<List<String>> records = new ArrayList<>();
        for (Variant variant : VARIANTS) {
            OrderRows rows = new OrderRows(variant.design(), RowKeyLayout.parse(variant.layout(), null),
                    variant.customerPlusPlus());
            for (Customer customer : customers) {
                records.add(List.of(GoldenLogRows.line(variant.name(), rows.customerRow(customer, CUSTOMER_TIME))));
            }
            for (Order order : orders) {
                Customer customer = byNumber.get(order.getCustomerNumber());
                List<Row> made = rows.rowsOf(order, customer);
                List<String> lines = new ArrayList<>();
                made.forEach(row -> lines.add(GoldenLogRows.line(variant.name(), row)));
                if (customer != null) {
                    lines.add(GoldenLogRows.line(variant.name(), customerCells(made.get(0))));
                }
                records.add(lines);
            }
        }
        return records;
    }

    /** The time customer rows are recorded at (their record's timestamp). */
    static final long CUSTOMER_TIME = 1_795_000_000_000L;

    /** The order row's customer cells alone: what completes an order written before its customer. */
    static Row customerCells(Row orderRow) {
        Set<String> customerQualifiers = Set.of("cn", "cc", "cs", "cz");
        return new Row(orderRow.table(), orderRow.key(), orderRow.timestamp(), orderRow.cells().stream()
                .filter(cell -> customerQualifiers.contains(new String(cell.qualifier(), StandardCharsets.UTF_8)))
                .toList());
    }

    /**
     * Compares one record's rows with the golden lines from {@code from} on, as sets (the order
     * of the rows one record makes is not written anywhere); returns the line after them.
     */
    static int compare(List<String> golden, int from, List<String> record) {
        if (from + record.size() > golden.size()) {
            throw new AssertionError("golden lines end before the record at line " + (from + 1));
        }
        List<String> expected = new ArrayList<>(golden.subList(from, from + record.size()));
        List<String> actual = new ArrayList<>(record);
        java.util.Collections.sort(expected);
        java.util.Collections.sort(actual);
        if (!expected.equals(actual)) {
            throw new AssertionError("the rows of the record at golden line " + (from + 1) + " differ:\nexpected "
                    + expected + "\nactual   " + actual);
        }
        return from + record.size();
    }

    /** The recorded events, {@code c} customers and {@code o} orders, as their bytes. */
    public static Map<String, List<byte[]>> events() {
        Map<String, List<byte[]>> events = new LinkedHashMap<>();
        events.put("c", new ArrayList<>());
        events.put("o", new ArrayList<>());
        for (String line : read(EVENTS, false)) {
            events.get(line.substring(0, 1)).add(Base64.getDecoder().decode(line.substring(2)));
        }
        return events;
    }

    /** The recorded row lines, in order. */
    public static List<String> rows() {
        return read(ROWS, true);
    }

    private static List<String> read(String name, boolean gzipped) {
        java.io.InputStream in = GoldenOrderRows.class.getResourceAsStream("/golden/" + name);
        if (in == null) {
            throw new IllegalStateException("golden fixture /golden/" + name + " is missing from the test classpath");
        }
        List<String> lines = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(gzipped ? new GZIPInputStream(in) : in,
                StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return lines;
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        Files.createDirectories(dir);
        // The rows are made of the events as the pipeline sees them: decoded from their bytes.
        List<Customer> customers = new ArrayList<>();
        List<Order> orders = new ArrayList<>();
        try (BufferedWriter out = Files.newBufferedWriter(dir.resolve(EVENTS))) {
            for (Map.Entry<String, List<Object>> kind : generate().entrySet()) {
                for (Object event : kind.getValue()) {
                    ByteBuffer bytes = event instanceof Customer customer ? Customer.getEncoder().encode(customer)
                            : Order.getEncoder().encode((Order) event);
                    byte[] array = new byte[bytes.remaining()];
                    bytes.get(array);
                    out.write(kind.getKey() + " " + Base64.getEncoder().encodeToString(array));
                    out.newLine();
                    if (event instanceof Customer) {
                        customers.add(EventSchemas.customers().decode(array));
                    } else {
                        orders.add(EventSchemas.orders().decode(array));
                    }
                }
            }
        }
        try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(
                new GZIPOutputStream(Files.newOutputStream(dir.resolve(ROWS))), StandardCharsets.UTF_8))) {
            for (List<String> record : recordedRows(customers, orders)) {
                for (String line : record) {
                    out.write(line);
                    out.newLine();
                }
            }
        }
    }
}
