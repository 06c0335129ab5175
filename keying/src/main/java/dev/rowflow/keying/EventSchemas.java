package dev.rowflow.keying;

import dev.rowflow.events.Customer;
import dev.rowflow.events.LogEvent;
import dev.rowflow.events.Order;
import org.apache.avro.Schema;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.SchemaStore;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Readers of rowflow's events in Avro single-object encoding that know every schema version
 * ever released: a record (or an order blob) names its writer schema by fingerprint, and the
 * reader resolves it to the current version, filling added fields with their defaults.
 *
 * <p>Earlier versions live as resources in {@code dev/rowflow/events/history/<Name>-v<N>.avsc}
 * and are never edited; a new version adds a file here and a field with a default to the
 * {@code .avsc} of {@code src/main/avro}.
 */
public final class EventSchemas {
    /** Earlier versions of Customer, oldest first. */
    public static final List<String> CUSTOMER_HISTORY = List.of("Customer-v1.avsc");
    /** Earlier versions of Order, oldest first. */
    public static final List<String> ORDER_HISTORY = List.of("Order-v1.avsc");

    private EventSchemas() {
    }

    public static BinaryMessageDecoder<LogEvent> logEvents() {
        return LogEvent.createDecoder(new SchemaStore.Cache());
    }

    public static BinaryMessageDecoder<Customer> customers() {
        return Customer.createDecoder(history(CUSTOMER_HISTORY));
    }

    public static BinaryMessageDecoder<Order> orders() {
        return Order.createDecoder(history(ORDER_HISTORY));
    }

    /** An earlier schema version, e.g. {@code Order-v1.avsc}. */
    public static Schema historic(String file) {
        try (InputStream in = EventSchemas.class.getResourceAsStream("/dev/rowflow/events/history/" + file)) {
            if (in == null) {
                throw new IllegalStateException("schema history file " + file + " is missing from the classpath");
            }
            return new Schema.Parser().parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static SchemaStore history(List<String> files) {
        SchemaStore.Cache store = new SchemaStore.Cache();
        files.forEach(file -> store.addSchema(historic(file)));
        return store;
    }
}
