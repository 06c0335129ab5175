package dev.rowflow.keying.order;

import dev.rowflow.events.Customer;
import dev.rowflow.events.Order;
import dev.rowflow.keying.EventSchemas;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order tables byte for byte against the golden fixture ({@link GoldenOrderRows}): 60
 * customers and 400 orders under every design, with and without CUSTOMER++, and a hashed key.
 */
class OrderRowsGoldenTest {

    @Test
    void shouldWriteTheGoldenRowsForTheRecordedCustomersAndOrders() throws IOException {
        Map<String, List<byte[]>> events = GoldenOrderRows.events();
        List<Customer> customers = new ArrayList<>();
        for (byte[] bytes : events.get("c")) {
            customers.add(EventSchemas.customers().decode(bytes));
        }
        List<Order> orders = new ArrayList<>();
        for (byte[] bytes : events.get("o")) {
            orders.add(EventSchemas.orders().decode(bytes));
        }
        List<String> expected = GoldenOrderRows.rows();

        List<String> actual = GoldenOrderRows.recordedRows(customers, orders);

        assertThat(customers).hasSize(GoldenOrderRows.CUSTOMERS);
        assertThat(orders).hasSize(GoldenOrderRows.ORDERS);
        assertThat(expected).hasSizeGreaterThan(GoldenOrderRows.VARIANTS.size() * (GoldenOrderRows.CUSTOMERS
                + GoldenOrderRows.ORDERS));
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i)).as("line %d of the golden rows", i + 1).isEqualTo(expected.get(i));
        }
        assertThat(actual).hasSize(expected.size());
    }

    @Test
    void shouldRecordOrdersThatCoverEveryShapeTheRowsDependOn() {
        List<Object> customers = GoldenOrderRows.generate().get("c");
        List<Object> orders = GoldenOrderRows.generate().get("o");
        assertThat(customers).anyMatch(c -> ((Customer) c).getEmail() == null)
                .anyMatch(c -> ((Customer) c).getPhoneNumbers().size() == 3);
        assertThat(orders).anyMatch(o -> ((Order) o).getCustomerNumber().compareTo(
                        String.format("C%05d", GoldenOrderRows.CUSTOMERS)) > 0)
                .anyMatch(o -> ((Order) o).getShippingLocations().size() == 4)
                .anyMatch(o -> ((Order) o).getShippingLocations().stream().anyMatch(l -> l.getLine2() != null))
                .anyMatch(o -> ((Order) o).getCurrency().equals("EUR"));
    }
}
