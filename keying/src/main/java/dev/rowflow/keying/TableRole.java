package dev.rowflow.keying;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The part a table plays for the rows meant for it: keying names the role, the sink's
 * configuration maps each role to a concrete table. A declared input has roles of its own
 * ({@code <input>.data}, {@code <input>.index.<name>}, {@code <input>.summary}); the customer and
 * order tables have the constants below.
 *
 * <p>One instance per name ({@link #of}), so roles compare with {@code ==}; roles sort in the order
 * they were first named, the constants first.
 */
public final class TableRole implements Comparable<TableRole> {
    private static final Map<String, TableRole> ROLES = new ConcurrentHashMap<>();
    private static final AtomicInteger NEXT = new AtomicInteger();

    /** Log events, one row per event (seed 002, case study "Log Data and Timeseries Data"). */
    public static final TableRole LOG_DATA = of("LOG_DATA");
    /** Dual-written secondary index over {@link #LOG_DATA} (seed 002, section 1.9.3). */
    public static final TableRole LOG_INDEX = of("LOG_INDEX");
    /**
     * Counts per host, event type and hour, kept by HBase increments (seed 002, 1.9.4 summary
     * tables and 1.5.1 counters).
     */
    public static final TableRole LOG_SUMMARY = of("LOG_SUMMARY");
    /** Customers, one row each, in their own table (seed 002, 1.11.3). */
    public static final TableRole CUSTOMER = of("CUSTOMER");
    /**
     * Orders: one row per order, or every row of an order in the single-table designs, and in the
     * CUSTOMER++ design the customers' rows too (seed 002, 1.11.3.1 and 1.11.3.2).
     */
    public static final TableRole ORDER = of("ORDER");
    /** Shipping locations of the completely normalized order design (seed 002, 1.11.3.2.1). */
    public static final TableRole SHIPPING_LOCATION = of("SHIPPING_LOCATION");
    /** Line items of the completely normalized order design (seed 002, 1.11.3.2.1). */
    public static final TableRole LINE_ITEM = of("LINE_ITEM");
    /** Dual-written index: order number to the order's row key. */
    public static final TableRole ORDER_INDEX = of("ORDER_INDEX");

    /** The order tables, in the order they are read. */
    public static final List<TableRole> ORDER_TABLES = List.of(CUSTOMER, ORDER, SHIPPING_LOCATION, LINE_ITEM, ORDER_INDEX);

    private final String name;
    private final int rank;

    private TableRole(String name, int rank) {
        this.name = name;
        this.rank = rank;
    }

    /** The role named {@code name}, the same instance for the same name. */
    public static TableRole of(String name) {
        Objects.requireNonNull(name, "name");
        return ROLES.computeIfAbsent(name, n -> new TableRole(n, NEXT.getAndIncrement()));
    }

    public String name() {
        return name;
    }

    @Override
    public int compareTo(TableRole other) {
        return Integer.compare(rank, other.rank);
    }

    @Override
    public String toString() {
        return name;
    }
}
