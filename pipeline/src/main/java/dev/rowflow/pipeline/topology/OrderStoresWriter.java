package dev.rowflow.pipeline.topology;

import dev.rowflow.events.Customer;
import dev.rowflow.keying.order.OrderRows;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * What the customer and order writers share: the rows of the configured design and the two
 * stores of {@link OrderTopology} -- the customers by number, and the orders awaiting their
 * customer (customer number NUL order number -> order time).
 */
abstract class OrderStoresWriter<K, V> extends RowWriter<K, V> {
    final OrderRows rows;
    KeyValueStore<String, Customer> customers;
    KeyValueStore<String, Long> awaiting;

    OrderStoresWriter(OrderRows rows, SinkFactory sinks, FlushBeforeCommit flushBeforeCommit) {
        super(sinks, flushBeforeCommit);
        this.rows = rows;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        super.init(context);
        customers = context.getStateStore(OrderTopology.CUSTOMERS_STORE);
        awaiting = context.getStateStore(OrderTopology.AWAITING_STORE);
    }
}
