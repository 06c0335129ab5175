package dev.rowflow.keying.order;

import dev.rowflow.events.Customer;
import dev.rowflow.events.Order;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.KeyEncoding;
import dev.rowflow.keying.layout.KeyEncodings;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.Salt;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.RecordSource;
import dev.rowflow.keying.mapping.RecordTree;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The keys and rows of customers and orders (seed 002, case study 1.11.3 "Customer/Order").
 *
 * <h2>Keys</h2>
 * The order layout names the two parts of the seed's order key {@code [customer][order]}, e.g.
 * {@code customerNumber:text, orderNumber:text} (raw), {@code customerNumber:md5, orderNumber:md5}
 * (MD5 + MD5) or {@code customerNumber:uid, orderNumber:md5} (numeric substitution + MD5). Every
 * key of a customer or order starts with the encoded customer part, then:
 * <pre>
 *                         separate tables                 CUSTOMER++ (one table)
 * customer row            [customer]                      [customer] '1'
 * order key [order] =     [customer][order]               [customer] '2' [order]
 * </pre>
 * and each {@link OrderDesign} appends to {@code [order]}: a row type byte ({@code '1'} order,
 * {@code '2'} shipping location, {@code '3'} line item) and 1-based location and line numbers as
 * order-preserving 4-byte ints ({@link KeyEncodings#INT}). A text part that is not last ends with
 * {@code 0x00}, so {@code [customer]} is a prefix of exactly that customer's rows: CUSTOMER++'s
 * "one scan gets everything about a customer" is the scan {@code [customer], [customer]+1)}.
 *
 * <p>Example, CUSTOMER++ with record types, customer {@code C1}, order {@code O7}, second line item
 * of the first location: {@code 'C1' 00 '2' 'O7' 00 '3' 80 00 00 01 80 00 00 02}.
 *
 * <h2>Cells</h2>
 * Family {@code d}, qualifiers in {@link OrderColumns}. Every row of an order carries the order
 * time as cell timestamp, so a replay rewrites the same cells. The order row carries the
 * customer's name, city, state and zip, denormalized (seed 002, 1.9 "denormalization"). The rows
 * are made by the declared mappings of {@link OrderMapping}, as the orders pipeline makes them;
 * this class keeps the keys the order queries read with.
 *
 * <p>Immutable and thread-safe.
 */
public final class OrderRows {
    /** CUSTOMER++ record types, as in seed 002 1.11.3.1: '1' the customer, '2' its orders. */
    public static final byte CUSTOMER_RECORD = '1';
    public static final byte ORDER_RECORD = '2';
    /**
     * Row types below an order key in the single-table designs, chosen so a scan of an order
     * reads it top down: the order, then its shipping locations, then its line items.
     */
    public static final byte ORDER_ROW = '1';
    public static final byte SHIPPING_ROW = '2';
    public static final byte LINE_ROW = '3';

    public static final String DEFAULT_LAYOUT = "customerNumber:text, orderNumber:text";

    private final OrderDesign design;
    private final boolean customerPlusPlus;
    private final KeyPart customerPart;
    private final KeyPart orderPart;
    private final RowKeyLayout customerLayout;
    /** The key of an order's first row: {@code [order]} or {@code [order]'O'}. */
    private final RowKeyLayout orderRowLayout;
    private final RowKeyLayout shippingLayout;
    private final RowKeyLayout lineLayout;
    private final RowKeyLayout indexLayout;
    /** The declared mappings the rows are made by, over the order layout's own (uid-bound) parts. */
    private final EventMapping customerMapping;
    private final EventMapping orderMapping;

    /**
     * @param orderLayout       {@code customerNumber:<encoding>, orderNumber:<encoding>}, no salt
     * @param customerPlusPlus  customers and their orders in one table (seed 002, 1.11.3.1);
     *                          not with the normalized design, which is three tables
     * @throws IllegalArgumentException if the layout or the combination is not one of the above
     */
    public OrderRows(OrderDesign design, RowKeyLayout orderLayout, boolean customerPlusPlus) {
        check(design, orderLayout, customerPlusPlus);
        this.design = design;
        this.customerPlusPlus = customerPlusPlus;
        this.customerPart = orderLayout.parts().get(0);
        this.orderPart = orderLayout.parts().get(1);
        KeyPart recordType = new KeyPart("recordType", KeyEncodings.BYTE);
        KeyPart rowType = new KeyPart("rowType", KeyEncodings.BYTE);
        KeyPart location = new KeyPart("location", KeyEncodings.INT);
        KeyPart line = new KeyPart("line", KeyEncodings.INT);

        List<KeyPart> order = customerPlusPlus ? List.of(customerPart, recordType, orderPart)
                : List.of(customerPart, orderPart);
        this.customerLayout = layout(customerPlusPlus ? List.of(customerPart, recordType) : List.of(customerPart));
        switch (design) {
            case NORMALIZED -> {
                orderRowLayout = layout(order);
                shippingLayout = layout(order, location);
                lineLayout = layout(order, location, line);
            }
            case RECORD_TYPES -> {
                orderRowLayout = layout(order, rowType);
                shippingLayout = layout(order, rowType, location);
                lineLayout = layout(order, rowType, location, line);
            }
            case DENORMALIZED -> {
                orderRowLayout = layout(order, rowType);
                shippingLayout = null;
                lineLayout = layout(order, rowType, line);
            }
            default -> {
                orderRowLayout = layout(order);
                shippingLayout = null;
                lineLayout = null;
            }
        }
        this.indexLayout = layout(List.of(orderPart, customerPart));
        Function<String, RowKeyLayout> layouts = spec -> {
            RowKeyLayout parsed = RowKeyLayout.parse(spec, null);
            List<KeyPart> parts = new ArrayList<>();
            for (KeyPart part : parsed.parts()) {
                parts.add(part.field().equals(customerPart.field()) ? customerPart
                        : part.field().equals(orderPart.field()) ? orderPart : part);
            }
            return new RowKeyLayout(parsed.salt(), parts);
        };
        this.customerMapping = EventMapping.compile(OrderMapping.customers(orderLayout, customerPlusPlus), layouts,
                OrderMapping.customerFormat()::cannotYield);
        this.orderMapping = EventMapping.compile(OrderMapping.orders(design, orderLayout, customerPlusPlus), layouts,
                OrderMapping::cannotYieldJoined);
    }

    /**
     * Checks a combination of design, layout and CUSTOMER++.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    static void check(OrderDesign design, RowKeyLayout orderLayout, boolean customerPlusPlus) {
        checkLayout(orderLayout);
        if (customerPlusPlus && design == OrderDesign.NORMALIZED) {
            throw new IllegalArgumentException("CUSTOMER++ keeps a customer and its orders in one table; "
                    + "the normalized design needs three tables: choose record-types, denormalized or blob");
        }
    }

    /**
     * Checks an order layout: exactly {@code customerNumber}, then {@code orderNumber}, unsalted
     * (a salt over the whole key would scatter one customer's rows).
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public static RowKeyLayout checkLayout(RowKeyLayout layout) {
        List<KeyPart> parts = layout.parts();
        if (parts.size() != 2 || !parts.get(0).field().equals("customerNumber")
                || !parts.get(1).field().equals("orderNumber")) {
            throw new IllegalArgumentException("order layout '" + layout.spec() + "' must be the seed's [customer][order]: "
                    + "customerNumber:<encoding>, orderNumber:<encoding>");
        }
        if (layout.salt().width() > 0) {
            throw new IllegalArgumentException("order layout '" + layout.spec() + "' must not be salted: a customer's rows "
                    + "must share one prefix; spread orders with customerNumber:md5 instead");
        }
        for (KeyPart part : parts) {
            if (!part.encoding().textual()) {
                throw new IllegalArgumentException("part '" + part.spec() + "' of order layout '" + layout.spec()
                        + "': customer and order numbers are strings (encodings text, md5, uid)");
            }
        }
        return layout;
    }

    private static RowKeyLayout layout(List<KeyPart> prefix, KeyPart... more) {
        List<KeyPart> parts = new ArrayList<>(prefix);
        parts.addAll(List.of(more));
        return new RowKeyLayout(new Salt.None(), parts);
    }

    public OrderDesign design() {
        return design;
    }

    public boolean customerPlusPlus() {
        return customerPlusPlus;
    }

    /** The table the customer rows go to: their own, or the order table under CUSTOMER++. */
    public TableRole customerTable() {
        return customerPlusPlus ? TableRole.ORDER : TableRole.CUSTOMER;
    }

    /**
     * The layout each table records in its descriptor (and is checked against at start-up): the
     * key of its first record type.
     */
    public Map<TableRole, RowKeyLayout> tableLayouts() {
        Map<TableRole, RowKeyLayout> layouts = new java.util.TreeMap<>();
        layouts.put(TableRole.ORDER, orderRowLayout);
        if (!customerPlusPlus) {
            layouts.put(TableRole.CUSTOMER, customerLayout);
        }
        if (design == OrderDesign.NORMALIZED) {
            layouts.put(TableRole.SHIPPING_LOCATION, shippingLayout);
            layouts.put(TableRole.LINE_ITEM, lineLayout);
        }
        layouts.put(TableRole.ORDER_INDEX, indexLayout);
        return layouts;
    }

    // ---------------------------------------------------------------- keys

    /** The row key of a customer's record. */
    public byte[] customerKey(String customerNumber) {
        return customerPlusPlus ? customerLayout.encode(customerNumber, CUSTOMER_RECORD)
                : customerLayout.encode(customerNumber);
    }

    /**
     * The bytes every row of the customer starts with in the customer and order tables: scan
     * {@code [prefix, RowKeyLayout.prefixEnd(prefix))} for everything about the customer.
     */
    public byte[] customerPrefix(String customerNumber) {
        return prefix(List.of(customerPart), customerNumber);
    }

    /** The key of the order's row, the one the index points to and the customer fields go on. */
    public byte[] orderRowKey(String customerNumber, String orderNumber) {
        List<Object> values = orderValues(customerNumber, orderNumber);
        if (orderRowLayout.parts().size() > values.size()) {
            values.add(ORDER_ROW);
        }
        return orderRowLayout.encode(values.toArray());
    }

    /** The bytes every row of the order starts with (all of its rows in the single-table designs). */
    public byte[] orderPrefix(String customerNumber, String orderNumber) {
        List<Object> values = orderValues(customerNumber, orderNumber);
        return prefix(orderRowLayout.parts().subList(0, values.size()), values.toArray());
    }

    /**
     * {@link #orderPrefix} from the order row's key alone, as an index row gives it (a hashed
     * customer or order number cannot be decoded back): the key without its row type byte, or,
     * where the order row ends with the order number, the key plus that part's terminator.
     */
    public byte[] orderPrefixOf(byte[] orderRowKey) {
        int orderParts = customerPlusPlus ? 3 : 2;
        if (orderRowLayout.parts().size() > orderParts) {
            return java.util.Arrays.copyOf(orderRowKey, orderRowKey.length - 1);
        }
        KeyEncoding last = orderPart.encoding();
        boolean terminated = last.encodedLength("x", false) != last.encodedLength("x", true);
        return terminated ? java.util.Arrays.copyOf(orderRowKey, orderRowKey.length + 1) : orderRowKey;
    }

    /**
     * The encoded {@code parts} as the start of a longer key: a text part ends with its
     * terminator here, as it does in every key that continues after it.
     */
    private static byte[] prefix(List<KeyPart> parts, Object... values) {
        Object[] withMore = java.util.Arrays.copyOf(values, values.length + 1);
        withMore[values.length] = 0;
        byte[] key = layout(parts, new KeyPart("more", KeyEncodings.BYTE)).encode(withMore);
        return java.util.Arrays.copyOf(key, key.length - 1);
    }

    private List<Object> orderValues(String customerNumber, String orderNumber) {
        List<Object> values = new ArrayList<>(5);
        values.add(customerNumber);
        if (customerPlusPlus) {
            values.add(ORDER_RECORD);
        }
        values.add(orderNumber);
        return values;
    }

    // ---------------------------------------------------------------- rows

    /**
     * The customer's row, at {@code timestamp} (the record's time on the customers topic), as the
     * declared customers mapping ({@link OrderMapping#customers}) makes it.
     *
     * @throws InvalidEventException if the customer number cannot be a key
     */
    public Row customerRow(Customer customer, long timestamp) {
        Map<String, Object> record = RecordTree.ofAvro(customer);
        return customerMapping.apply(record, RecordSource.ofTimestamp(timestamp), () -> new byte[0]).rows().get(0);
    }

    /**
     * Every row of the order under this design, as the declared orders mapping
     * ({@link OrderMapping#orders}) makes it: the order row (with the customer's fields when
     * {@code customer} is known, non-null), its index row, then its location and line item rows.
     *
     * @throws InvalidEventException if a number cannot be a key or the order time is missing
     */
    public List<Row> rowsOf(Order order, Customer customer) {
        Map<String, Object> record = new java.util.LinkedHashMap<>(RecordTree.ofAvro(order));
        if (customer != null) {
            record.put(OrderMapping.CUSTOMER, RecordTree.ofAvro(customer));
        }
        return orderMapping.apply(record, RecordSource.ofTimestamp(-1), () -> OrderBlob.encode(order)).rows();
    }

    /** The order index row's key for an order number: scan this prefix to find the order. */
    public byte[] indexPrefix(String orderNumber) {
        return prefix(indexLayout.parts().subList(0, 1), orderNumber);
    }

}
