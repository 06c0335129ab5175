package dev.rowflow.pipeline.topology;

import dev.rowflow.events.Customer;
import dev.rowflow.events.Order;
import dev.rowflow.keying.order.OrderRows;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Writes every row of an order, denormalized with its customer's fields when the customer is
 * known; otherwise the order waits in {@code orders-awaiting-customer} for {@link CustomerWriter}
 * to complete it.
 */
final class OrderWriter extends RowWriter<String, Order> {
    private final OrderRows rows;
    private KeyValueStore<String, Customer> customers;
    private KeyValueStore<String, Long> awaiting;

    OrderWriter(OrderRows rows, SinkFactory sinks, FlushBeforeCommit flushBeforeCommit) {
        super(sinks, flushBeforeCommit);
        this.rows = rows;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        super.init(context);
        customers = context.getStateStore(OrderTopology.CUSTOMERS_STORE);
        awaiting = context.getStateStore(OrderTopology.AWAITING_STORE);
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
