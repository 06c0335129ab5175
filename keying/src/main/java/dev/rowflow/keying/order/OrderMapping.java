package dev.rowflow.keying.order;

import dev.rowflow.events.Customer;
import dev.rowflow.events.Order;
import dev.rowflow.keying.EventSchemas;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.format.AvroFormat;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.mapping.ColumnSpec;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.MappingSpec;
import dev.rowflow.keying.mapping.TimeFormat;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The customer and order tables as declared mappings: the preset the {@code orders} pipeline
 * runs, over {@link Customer} and {@link Order} (the order joined with its customer under
 * {@value #CUSTOMER}). What it declares, with {@code C} and {@code O} the two parts of the order
 * layout ({@code customerNumber:text, orderNumber:text} by default) and {@code T} the record-type
 * byte CUSTOMER++ adds (see {@link OrderRows} for the byte layout; the golden fixture of the order
 * tables holds it to the bytes):
 * <pre>
 * customers  time $timestamp          key C [T=49]
 *            columns {@value #CUSTOMER_COLUMNS}
 * orders     time orderTime, epoch-ms key C [T=50] O + per design
 *            columns {@value #ORDER_COLUMNS}
 *                    [, $value=ob (blob)], {@value #CUSTOMER_FIELDS}
 *            index   O, C -> the order row's key
 *            rows per shipping location (shippingLocations as location) and line item
 *            (location.lineItems as item), keyed and placed by the design:
 *
 *                    order row       location row                 line item row
 * normalized         [order]         [order][location]            [order][location][line]     three tables
 * record-types       [order] 49      [order] 50 [location]        [order] 51 [location][line]
 * denormalized       [order] 49      -                            [order] 51 [$ordinal], the location's fields copied
 * blob               [order], the whole order in ob
 * </pre>
 * Row types are the bytes of {@code '1' '2' '3'}; locations and lines are 1-based
 * {@code $position}s as 4-byte ints.
 */
public final class OrderMapping {
    /** Where the order's record holds its customer's (the joined record's) fields. */
    public static final String CUSTOMER = "customer";
    public static final String CUSTOMER_COLUMNS = "customerNumber=cu, name=cn, address.street=ca, address.city=cc, "
            + "address.state=cs, address.zip=cz, phoneNumbers.*=p*, email=em";
    public static final String ORDER_COLUMNS = "customerNumber=cu, orderNumber=on, orderTime:int64=ot, currency=cy, "
            + "size(shippingLocations):int32=nl, size(shippingLocations[*].lineItems[*]):int32=ni";
    /** The customer's fields an order row carries, denormalized. */
    public static final String CUSTOMER_FIELDS = CUSTOMER + ".name=cn, " + CUSTOMER + ".address.city=cc, " + CUSTOMER
            + ".address.state=cs, " + CUSTOMER + ".address.zip=cz";
    static final String LOCATION_COLUMNS = "location.line1=l1, location.line2=l2, location.city=ci, "
            + "location.state=st, location.zip=zp";
    static final String ITEM_COLUMNS = "item.itemNumber=it, item.quantity:int32=qt, item.priceCents:int64=pr";
    static final String SHIP_TO_COLUMNS = "$position.location:int32=sn, location.line1=s1, location.line2=s2, "
            + "location.city=sc, location.state=ss, location.zip=sz";
    public static final String ORDER_TIME = "orderTime";
    /** The order index's name in the mapping. */
    public static final String INDEX = "order";

    /** The formats read every released version of the schemas (added fields take their defaults). */
    private static final AvroFormat CUSTOMERS = new AvroFormat(Customer.getClassSchema(),
            EventSchemas.CUSTOMER_HISTORY.stream().map(EventSchemas::historic).toList());
    private static final AvroFormat ORDERS = new AvroFormat(Order.getClassSchema(),
            EventSchemas.ORDER_HISTORY.stream().map(EventSchemas::historic).toList());

    private OrderMapping() {
    }

    /**
     * The customers' mapping.
     *
     * @param orderLayout the order layout ({@link OrderRows#checkLayout}): its customer part keys
     *                    the customer row
     */
    public static MappingSpec customers(RowKeyLayout orderLayout, boolean customerPlusPlus) {
        String customer = OrderRows.checkLayout(orderLayout).parts().get(0).spec();
        return new MappingSpec(customerPlusPlus ? TableRole.ORDER : TableRole.CUSTOMER, "d",
                customerPlusPlus ? customer + ", " + (int) OrderRows.CUSTOMER_RECORD + ":byte" : customer,
                ColumnSpec.parseList(CUSTOMER_COLUMNS), "$timestamp", TimeFormat.parse("epoch-ms", ZoneOffset.UTC),
                false, 0, List.of(), null, 0);
    }

    /**
     * The orders' mapping under a design.
     *
     * @throws IllegalArgumentException for a layout that is not the seed's {@code [customer][order]}, or
     *                                  CUSTOMER++ with the normalized design
     */
    public static MappingSpec orders(OrderDesign design, RowKeyLayout orderLayout, boolean customerPlusPlus) {
        OrderRows.check(design, orderLayout, customerPlusPlus);
        List<KeyPart> parts = orderLayout.parts();
        String customer = parts.get(0).spec();
        String number = parts.get(1).spec();
        String order = customerPlusPlus ? customer + ", " + (int) OrderRows.ORDER_RECORD + ":byte, " + number
                : customer + ", " + number;
        String location = "$position.location:int";
        String line = "$position.item:int";
        String locations = "shippingLocations as location";
        String items = "shippingLocations as location, location.lineItems as item";
        String columns = ORDER_COLUMNS + (design == OrderDesign.BLOB ? ", $value=ob" : "") + ", " + CUSTOMER_FIELDS;
        List<MappingSpec.ElementRowsSpec> rows = new ArrayList<>();
        String orderKey;
        switch (design) {
            case NORMALIZED -> {
                orderKey = order;
                rows.add(new MappingSpec.ElementRowsSpec("locations", TableRole.SHIPPING_LOCATION, locations,
                        order + ", " + location, ColumnSpec.parseList(LOCATION_COLUMNS)));
                rows.add(new MappingSpec.ElementRowsSpec("items", TableRole.LINE_ITEM, items,
                        order + ", " + location + ", " + line, ColumnSpec.parseList(ITEM_COLUMNS)));
            }
            case RECORD_TYPES -> {
                orderKey = order + ", " + type(OrderRows.ORDER_ROW);
                rows.add(new MappingSpec.ElementRowsSpec("locations", TableRole.ORDER, locations,
                        order + ", " + type(OrderRows.SHIPPING_ROW) + ", " + location,
                        ColumnSpec.parseList(LOCATION_COLUMNS)));
                rows.add(new MappingSpec.ElementRowsSpec("items", TableRole.ORDER, items,
                        order + ", " + type(OrderRows.LINE_ROW) + ", " + location + ", " + line,
                        ColumnSpec.parseList(ITEM_COLUMNS)));
            }
            case DENORMALIZED -> {
                orderKey = order + ", " + type(OrderRows.ORDER_ROW);
                rows.add(new MappingSpec.ElementRowsSpec("items", TableRole.ORDER, items,
                        order + ", " + type(OrderRows.LINE_ROW) + ", $ordinal:int",
                        ColumnSpec.parseList(ITEM_COLUMNS + ", " + SHIP_TO_COLUMNS)));
            }
            default -> orderKey = order;
        }
        return new MappingSpec(TableRole.ORDER, "d", orderKey, ColumnSpec.parseList(columns), ORDER_TIME,
                TimeFormat.parse("epoch-ms", ZoneOffset.UTC), false, 0,
                List.of(new MappingSpec.IndexSpec(INDEX, TableRole.ORDER_INDEX, number + ", " + customer, false)),
                null, 0).withElementRows(rows);
    }

    private static String type(byte rowType) {
        return (int) rowType + ":byte";
    }

    /** The Avro format of the customers topic. */
    public static AvroFormat customerFormat() {
        return CUSTOMERS;
    }

    /** The Avro format of the orders topic. */
    public static AvroFormat orderFormat() {
        return ORDERS;
    }

    /**
     * Why no order joined with its customer has a value at {@code path}, or empty: paths under
     * {@value #CUSTOMER} are the customer's, the others the order's.
     */
    public static Optional<String> cannotYieldJoined(FieldPath path) {
        List<Object> steps = path.steps();
        if (steps.size() > 1 && CUSTOMER.equals(steps.get(0))) {
            return CUSTOMERS.cannotYield(FieldPath.parse(path.text().substring(CUSTOMER.length() + 1)));
        }
        return ORDERS.cannotYield(path);
    }
}
