package dev.rowflow.keying;

/**
 * The tables a row can be meant for. Keying names the role; the sink's configuration maps each
 * role to a concrete table name.
 */
public enum TableRole {
    /** Log events, one row per event (seed 002, case study "Log Data and Timeseries Data"). */
    LOG_DATA,
    /** Dual-written secondary index over {@link #LOG_DATA} (seed 002, section 1.9.3). */
    LOG_INDEX,
    /**
     * Counts per host, event type and hour, kept by HBase increments (seed 002, 1.9.4 summary
     * tables and 1.5.1 counters).
     */
    LOG_SUMMARY,
    /** Customers, one row each, in their own table (seed 002, 1.11.3). */
    CUSTOMER,
    /**
     * Orders: one row per order, or every row of an order in the single-table designs, and in the
     * CUSTOMER++ design the customers' rows too (seed 002, 1.11.3.1 and 1.11.3.2).
     */
    ORDER,
    /** Shipping locations of the completely normalized order design (seed 002, 1.11.3.2.1). */
    SHIPPING_LOCATION,
    /** Line items of the completely normalized order design (seed 002, 1.11.3.2.1). */
    LINE_ITEM,
    /** Dual-written index: order number to the order's row key. */
    ORDER_INDEX
}
