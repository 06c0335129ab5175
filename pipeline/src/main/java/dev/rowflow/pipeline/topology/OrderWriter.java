package dev.rowflow.pipeline.topology;

import dev.rowflow.events.Customer;
import dev.rowflow.events.Order;
import dev.rowflow.keying.order.OrderRows;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Writes every row of an order, denormalized with its customer's fields when the customer is
 * known; otherwise the order waits in {@code orders-awaiting-customer} for {@link CustomerWriter}
 * to complete it.
 */
final class OrderWriter extends OrderStoresWriter<String, Order> {

    OrderWriter(OrderRows rows, SinkFactory sinks, FlushBeforeCommit flushBeforeCommit) {
        super(rows, sinks, flushBeforeCommit);
    }

    @Override
    public void process(Record<String, Order> record) {
        Order order = record.value();
        Customer customer = customers.get(order.getCustomerNumber());
        write(rows.rowsOf(order, customer));
        if (customer == null) {
            awaiting.put(OrderTopology.awaitingKey(order.getCustomerNumber(), order.getOrderNumber()),
                    order.getOrderTime().toEpochMilli());
        }
    }
}
