package dev.rowflow.pipeline.topology;

import dev.rowflow.events.Customer;
import dev.rowflow.events.Order;
import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.mapping.TimestampPolicy;
import dev.rowflow.keying.order.OrderRows;
import dev.rowflow.pipeline.serde.EventSerdes;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.Stores;

/**
 * The customers-and-orders topology: customers and orders in, each order denormalized with its
 * customer's fields, written in the configured order design (seed 002, 1.11.3).
 *
 * <pre>
 * source(customers) ------------------------------------> customer-writer --+
 * source(orders) --> by-customer --> repartition(orders-by-customer) --> order-writer
 *                                         stores: customers, orders-awaiting-customer (both writers)
 * </pre>
 *
 * <p>The customers topic is keyed by customer number; orders may carry any key, so they are
 * repartitioned by customer number into as many partitions as the customers topic has: the task
 * that writes an order holds its customer.
 *
 * <p><b>An order before its customer</b> is written at once, without the customer fields, and
 * remembered in {@code orders-awaiting-customer}; when the customer arrives, its row is written
 * and the waiting orders are completed with the same cells, at the same timestamp, they would
 * have had (so the end state does not depend on the arrival order). See {@link CustomerWriter}
 * for why that is safe under a crash.
 */
public final class OrderTopology {
    public static final String CUSTOMERS_SOURCE = "customers-source";
    public static final String ORDERS_SOURCE = "orders-source";
    public static final String REPARTITION = "orders-by-customer";
    public static final String CUSTOMER_WRITER = "customer-writer";
    public static final String ORDER_WRITER = "order-writer";
    public static final String CUSTOMERS_STORE = "customers";
    public static final String AWAITING_STORE = "orders-awaiting-customer";

    private OrderTopology() {
    }

    /**
     * @param partitions   partitions of the customers topic, for the repartitioned orders
     * @param maxLineItems most line items of an order; larger ones are set aside
     */
    public static void addTo(StreamsBuilder builder, String customersTopic, String ordersTopic, int partitions,
                             int maxLineItems, OrderRows rows, TimestampPolicy timestamps, SinkFactory sinks,
                             FlushBeforeCommit flushBeforeCommit) {
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(CUSTOMERS_STORE),
                Serdes.String(), EventSerdes.customers()));
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(AWAITING_STORE),
                Serdes.String(), Serdes.Long()));

        builder.stream(customersTopic, Consumed.with(Serdes.ByteArray(), EventSerdes.customers()).withName(CUSTOMERS_SOURCE))
                .process(() -> new CustomerWriter(rows, sinks, flushBeforeCommit), Named.as(CUSTOMER_WRITER),
                        CUSTOMERS_STORE, AWAITING_STORE);

        builder.stream(ordersTopic, Consumed.with(Serdes.ByteArray(), EventSerdes.orders()).withName(ORDERS_SOURCE))
                .selectKey((key, order) -> checked(rows, maxLineItems, order), Named.as("by-customer"))
                .repartition(Repartitioned.with(Serdes.String(), EventSerdes.orders()).withName(REPARTITION)
                        .withNumberOfPartitions(partitions))
                .process(() -> new OrderWriter(rows, timestamps, sinks, flushBeforeCommit), Named.as(ORDER_WRITER),
                        CUSTOMERS_STORE, AWAITING_STORE);
    }

    /**
     * The customer number of a valid order. Checked before the repartition, so a bad order goes
     * to the dead-letter topic with its place in the orders topic.
     */
    private static String checked(OrderRows rows, int maxLineItems, Order order) {
        if (order == null) {
            throw EventRules.tombstone("orders", "an order is kept as it was placed");
        }
        int lineItems = order.getShippingLocations().stream().mapToInt(location -> location.getLineItems().size()).sum();
        if (lineItems > maxLineItems) {
            throw new InvalidEventException("lineItems", lineItems + " line items in order " + order.getOrderNumber(),
                    "more than orders.max.line.items=" + maxLineItems);
        }
        rows.rowsOf(order, null);
        return order.getCustomerNumber();
    }

    /** The internal topic Kafka Streams names for the orders repartitioned by customer. */
    public static String repartitionTopic(String applicationId) {
        return applicationId + "-" + REPARTITION + "-repartition";
    }

    /** The key under which an order waits for its customer: customer number, NUL, order number. */
    static String awaitingKey(String customerNumber, String orderNumber) {
        // Customer numbers never contain NUL (key parts refuse it), so the prefix is exact.
        return customerNumber + '\0' + orderNumber;
    }
}
