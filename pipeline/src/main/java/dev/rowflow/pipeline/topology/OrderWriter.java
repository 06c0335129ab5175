package dev.rowflow.pipeline.topology;

import dev.rowflow.events.Customer;
import dev.rowflow.events.Order;
import dev.rowflow.keying.mapping.TimestampPolicy;
import dev.rowflow.keying.order.OrderRows;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Writes every row of an order, denormalized with its customer's fields when the customer is
 * known; otherwise the order waits in {@code orders-awaiting-customer} for {@link CustomerWriter}
 * to complete it.
 */
final class OrderWriter extends OrderStoresWriter<String, Order> {

    private final TimestampPolicy timestamps;

    OrderWriter(OrderRows rows, TimestampPolicy timestamps, SinkFactory sinks, FlushBeforeCommit flushBeforeCommit) {
        super(rows, sinks, flushBeforeCommit);
        this.timestamps = timestamps;
    }

    @Override
    public void process(Record<String, Order> record) {
        Order order = record.value();
        long time = order.getOrderTime().toEpochMilli();
        long written = timestamps.apply("orderTime", time, record.timestamp());
        if (written != time) {
            order = Order.newBuilder(order).setOrderTime(java.time.Instant.ofEpochMilli(written)).build();
        }
        Customer customer = customers.get(order.getCustomerNumber());
        write(rows.rowsOf(order, customer));
        if (customer == null) {
            awaiting.put(OrderTopology.awaitingKey(order.getCustomerNumber(), order.getOrderNumber()),
                    order.getOrderTime().toEpochMilli());
        }
    }
}
