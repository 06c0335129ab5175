package dev.rowflow.keying.order;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How an order (Order -> ShippingLocation -> LineItem) is laid out in rows: the four order
 * object designs of seed 002, section 1.11.3.2. {@code [order]} below is the order row key
 * ({@code [customer][order]}, see {@link OrderRows}).
 */
public enum OrderDesign {
    /**
     * 1.11.3.2.1, completely normalized: three tables. ORDER {@code [order]}, SHIPPING_LOCATION
     * {@code [order][location]}, LINE_ITEM {@code [order][location][line]}.
     */
    NORMALIZED("normalized"),
    /**
     * 1.11.3.2.2, single table with record types: {@code [order]'O'}, {@code [order]'S'[location]},
     * {@code [order]'L'[location][line]}: one scan of {@code [order]} reads the whole order.
     */
    RECORD_TYPES("record-types"),
    /**
     * 1.11.3.2.3, denormalized: {@code [order]'O'} and {@code [order]'L'[line]}, line numbers unique
     * across the order, each line item carrying its shipping location's fields.
     */
    DENORMALIZED("denormalized"),
    /**
     * 1.11.3.2.4, object BLOB: one row {@code [order]}, the whole order as Avro (single-object
     * encoding, so the writer schema's fingerprint travels with it) in one column.
     */
    BLOB("blob");

    private final String token;

    OrderDesign(String token) {
        this.token = token;
    }

    /** The name of the design in configuration, e.g. {@code record-types}. */
    public String token() {
        return token;
    }

    /** @throws IllegalArgumentException naming the designs there are */
    public static OrderDesign of(String token) {
        for (OrderDesign design : values()) {
            if (design.token.equals(token)) {
                return design;
            }
        }
        throw new IllegalArgumentException("no order design '" + token + "' (designs: " + tokens() + ")");
    }

    public static String tokens() {
        return Arrays.stream(values()).map(OrderDesign::token).collect(Collectors.joining(", "));
    }
}
