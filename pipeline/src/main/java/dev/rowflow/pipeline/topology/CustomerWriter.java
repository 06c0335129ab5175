package dev.rowflow.pipeline.topology;

import dev.rowflow.events.Customer;
import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.order.OrderRows;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes each customer's row, keeps the customer for the orders that follow, and completes the
 * orders that arrived before it.
 *
 * <p>Why completing is safe under a crash: a store change reaches its changelog whenever the
 * producer sends, possibly before the HBase rows written with it are flushed. Forgetting a
 * waiting order before its completion is durable could lose the completion for good (the store
 * restored without the entry, the customer record replayed, nothing left to complete). So the
 * completions are flushed to HBase first, synchronously, and only then are the entries deleted.
 * That flush happens only for customers that had orders waiting.
 */
final class CustomerWriter extends OrderStoresWriter<byte[], Customer> {

    CustomerWriter(OrderRows rows, SinkFactory sinks, FlushBeforeCommit flushBeforeCommit) {
        super(rows, sinks, flushBeforeCommit);
    }

    @Override
    public void process(Record<byte[], Customer> record) {
        Customer customer = record.value();
        if (customer == null) {
            throw EventRules.tombstone("customers", "a customer's deletion is not applied; rowflow keeps what the "
                    + "customer ordered");
        }
        String number = customer.getCustomerNumber();
        String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        if (!number.equals(key)) {
            // Compaction keeps the last record per key: a customer under another key would
            // survive beside its update, and orders, partitioned by number, would not find it.
            throw new InvalidEventException("key", key, "must be the customer number '" + number + "'");
        }
        List<Row> written = new ArrayList<>();
        written.add(rows.customerRow(customer, record.timestamp()));
        List<String> completed = new ArrayList<>();
        try (KeyValueIterator<String, Long> waiting = awaiting.prefixScan(OrderTopology.awaitingKey(number, ""),
                new StringSerializer())) {
            while (waiting.hasNext()) {
                KeyValue<String, Long> order = waiting.next();
                String orderNumber = order.key.substring(number.length() + 1);
                written.add(rows.customerColumns(orderNumber, order.value, customer));
                completed.add(order.key);
            }
        }
        write(written);
        customers.put(number, customer);
        if (!completed.isEmpty()) {
            flush();
            completed.forEach(awaiting::delete);
        }
    }
}
