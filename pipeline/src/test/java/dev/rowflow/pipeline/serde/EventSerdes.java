package dev.rowflow.pipeline.serde;

import dev.rowflow.events.Customer;
import dev.rowflow.events.LogEvent;
import dev.rowflow.events.Order;
import dev.rowflow.keying.EventSchemas;

/**
 * The serdes tests write rowflow's own events with: single-object Avro, current schema version
 * written, every released version read (see {@link EventSchemas}).
 */
public final class EventSerdes {
    private EventSerdes() {
    }

    public static SingleObjectAvroSerde<LogEvent> logEvents() {
        return new SingleObjectAvroSerde<>(LogEvent.getEncoder(), EventSchemas.logEvents());
    }

    public static SingleObjectAvroSerde<Customer> customers() {
        return new SingleObjectAvroSerde<>(Customer.getEncoder(), EventSchemas.customers());
    }

    public static SingleObjectAvroSerde<Order> orders() {
        return new SingleObjectAvroSerde<>(Order.getEncoder(), EventSchemas.orders());
    }
}
