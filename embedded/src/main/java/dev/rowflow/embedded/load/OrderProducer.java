package dev.rowflow.embedded.load;

import dev.rowflow.events.Customer;
import dev.rowflow.events.Order;
import org.apache.kafka.common.serialization.Serializer;

import java.util.Map;

/**
 * Produces customers (keyed by customer number, as the compacted topic needs) and orders (keyed
 * by order number: rowflow repartitions them by customer) with the guarantees of
 * {@link TopicProducer}.
 */
public final class OrderProducer implements AutoCloseable {
    private final TopicProducer customers;
    private final TopicProducer orders;
    private final Serializer<Customer> customerSerializer = SingleObjectBytes.serializer(Customer.getEncoder());
    private final Serializer<Order> orderSerializer = SingleObjectBytes.serializer(Order.getEncoder());

    private OrderProducer(TopicProducer customers, TopicProducer orders) {
        this.customers = customers;
        this.orders = orders;
    }

    public static OrderProducer open(Map<String, Object> kafkaProperties, String customersTopic, String ordersTopic)
            throws InterruptedException {
        return new OrderProducer(TopicProducer.open(kafkaProperties, customersTopic),
                TopicProducer.open(kafkaProperties, ordersTopic));
    }

    /** Sends a customer with the record timestamp {@code timestamp}, its rows' cell timestamp. */
    public void send(Customer customer, long timestamp) {
        customers.send(customer.getCustomerNumber(), timestamp, customerSerializer.serialize(customers.topic(), customer));
    }

    public void send(Order order) {
        orders.send(order.getOrderNumber(), order.getOrderTime().toEpochMilli(),
                orderSerializer.serialize(orders.topic(), order));
    }

    /** Sends an order as bytes already encoded (an older schema version, or not an order at all). */
    public void sendRawOrder(String key, byte[] value) {
        orders.send(key, null, value);
    }

    /** Waits until everything sent so far is acknowledged. */
    public void flush() {
        customers.flush();
        orders.flush();
    }

    @Override
    public void close() {
        try {
            customers.close();
        } finally {
            orders.close();
        }
    }
}
