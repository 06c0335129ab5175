package dev.rowflow.keying.order;

import java.nio.charset.StandardCharsets;

/**
 * Column family and qualifiers of the customer and order tables. Two-byte names because HBase
 * stores them with every cell (seed 002, 1.3.2). Texts are UTF-8; numbers are big-endian like
 * HBase's {@code Bytes.toBytes}: quantities and counts 4 bytes, times and prices 8 bytes.
 *
 * <p>DO NOT modify the values specified here: they are on disk in every table rowflow wrote.
 */
public final class OrderColumns {
    /** The one family of the customer and order tables. */
    public static final byte[] FAMILY = bytes("d");

    // Customer row; the same qualifiers carry the customer's fields denormalized onto an order row.
    /** Customer name. */
    public static final byte[] CUSTOMER_NAME = bytes("cn");
    /** Customer street (customer row only). */
    public static final byte[] CUSTOMER_STREET = bytes("ca");
    /** Customer city. */
    public static final byte[] CUSTOMER_CITY = bytes("cc");
    /** Customer state. */
    public static final byte[] CUSTOMER_STATE = bytes("cs");
    /** Customer zip. */
    public static final byte[] CUSTOMER_ZIP = bytes("cz");
    /** Prefix of the phone number columns: {@code p0}, {@code p1}, ... (customer row only). */
    public static final String PHONE_PREFIX = "p";
    /** E-mail, when known (customer row only; schema version 2). */
    public static final byte[] CUSTOMER_EMAIL = bytes("em");

    // Order row.
    /** Customer number, raw (the key may hold it hashed or substituted). */
    public static final byte[] CUSTOMER_NUMBER = bytes("cu");
    /** Order number, raw. */
    public static final byte[] ORDER_NUMBER = bytes("on");
    /** Order time, 8 bytes, ms since the epoch. */
    public static final byte[] ORDER_TIME = bytes("ot");
    /** Currency of the prices. */
    public static final byte[] CURRENCY = bytes("cy");
    /** Number of shipping locations, 4 bytes. */
    public static final byte[] LOCATION_COUNT = bytes("nl");
    /** Number of line items over all locations, 4 bytes. */
    public static final byte[] LINE_COUNT = bytes("ni");
    /** The whole order as single-object Avro (BLOB design only). */
    public static final byte[] ORDER_BLOB = bytes("ob");

    // Shipping location row (normalized and record-types designs).
    public static final byte[] LINE1 = bytes("l1");
    public static final byte[] LINE2 = bytes("l2");
    public static final byte[] CITY = bytes("ci");
    public static final byte[] STATE = bytes("st");
    public static final byte[] ZIP = bytes("zp");

    // Line item row.
    public static final byte[] ITEM_NUMBER = bytes("it");
    /** Quantity, 4 bytes. */
    public static final byte[] QUANTITY = bytes("qt");
    /** Unit price in cents, 8 bytes. */
    public static final byte[] PRICE = bytes("pr");
    /** Denormalized design: the number of the shipping location the line item goes to, 4 bytes. */
    public static final byte[] SHIP_TO_LOCATION = bytes("sn");
    /** Denormalized design: shipToLine1 (seed 002, 1.11.3.2.3). */
    public static final byte[] SHIP_TO_LINE1 = bytes("s1");
    /** Denormalized design: shipToLine2. */
    public static final byte[] SHIP_TO_LINE2 = bytes("s2");
    /** Denormalized design: shipToCity. */
    public static final byte[] SHIP_TO_CITY = bytes("sc");
    /** Denormalized design: shipToState. */
    public static final byte[] SHIP_TO_STATE = bytes("ss");
    /** Denormalized design: shipToZip. */
    public static final byte[] SHIP_TO_ZIP = bytes("sz");

    /** The one family of the order index table. */
    public static final byte[] INDEX_FAMILY = bytes("i");
    /** Index cell holding the order row key. */
    public static final byte[] ORDER_ROW_KEY = bytes("r");

    private OrderColumns() {
    }

    /** The qualifier of the {@code i}-th phone number, from 0. */
    public static byte[] phone(int i) {
        return bytes(PHONE_PREFIX + i);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
