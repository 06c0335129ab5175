package dev.rowflow.keying.order;

import dev.rowflow.events.Customer;
import dev.rowflow.events.Order;
import dev.rowflow.keying.EventSchemas;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.keying.log.GoldenLogRows;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.RecordSource;
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

        List<List<String>> actual = GoldenOrderRows.recordedRows(customers, orders);

        assertThat(customers).hasSize(GoldenOrderRows.CUSTOMERS);
        assertThat(orders).hasSize(GoldenOrderRows.ORDERS);
        assertThat(actual).hasSize(GoldenOrderRows.VARIANTS.size() * (GoldenOrderRows.CUSTOMERS
                + GoldenOrderRows.ORDERS));
        int line = 0;
        for (List<String> record : actual) {
            line = GoldenOrderRows.compare(expected, line, record);
        }
        assertThat(line).isEqualTo(expected.size());
    }

    /**
     * The path the orders pipeline takes: each record's bytes read by the preset's Avro formats,
     * an order's tree joined with its customer's under {@value OrderMapping#CUSTOMER}, the rows
     * made by the compiled {@link OrderMapping} -- no {@code OrderRows} involved. A record's rows
     * are compared as a set (the order of the rows one record makes is not written anywhere);
     * the cells that complete an order written before its customer are the joined order row's
     * customer cells.
     */
    @Test
    void shouldWriteTheGoldenRowsThroughTheAvroFormatsAndTheDeclaredMappings() {
        Map<String, List<byte[]>> events = GoldenOrderRows.events();
        Map<String, Map<String, Object>> customerTrees = new java.util.HashMap<>();
        for (byte[] bytes : events.get("c")) {
            Map<String, Object> tree = OrderMapping.customerFormat().read(bytes).tree();
            customerTrees.put((String) tree.get("customerNumber"), tree);
        }
        List<String> expected = GoldenOrderRows.rows();
        int line = 0;
        int records = 0;
        for (GoldenOrderRows.Variant variant : GoldenOrderRows.VARIANTS) {
            RowKeyLayout layout = RowKeyLayout.parse(variant.layout(), null);
            EventMapping customers = EventMapping.compile(OrderMapping.customers(layout, variant.customerPlusPlus()),
                    (UidResolver) null, OrderMapping.customerFormat()::cannotYield);
            EventMapping orders = EventMapping.compile(OrderMapping.orders(variant.design(), layout,
                    variant.customerPlusPlus()), (UidResolver) null, OrderMapping::cannotYieldJoined);
            for (byte[] bytes : events.get("c")) {
                ReadRecord read = OrderMapping.customerFormat().read(bytes);
                RecordSource source = RecordSource.ofTimestamp(GoldenOrderRows.CUSTOMER_TIME);
                List<String> rows = lines(variant, customers.apply(read.tree(), source, read.canonical()).rows());
                line = GoldenOrderRows.compare(expected, line, rows);
                records++;
            }
            for (byte[] bytes : events.get("o")) {
                ReadRecord read = OrderMapping.orderFormat().read(bytes);
                Map<String, Object> joined = new java.util.LinkedHashMap<>(read.tree());
                Map<String, Object> customer = customerTrees.get((String) joined.get("customerNumber"));
                if (customer != null) {
                    joined.put(OrderMapping.CUSTOMER, customer);
                }
                List<Row> made = orders.apply(joined, RecordSource.ofTimestamp(0), read.canonical()).rows();
                List<String> rows = lines(variant, made);
                if (customer != null) {
                    rows.add(GoldenLogRows.line(variant.name(), GoldenOrderRows.customerCells(made.get(0))));
                }
                line = GoldenOrderRows.compare(expected, line, rows);
                records++;
            }
        }
        assertThat(records).isEqualTo(GoldenOrderRows.VARIANTS.size() * (GoldenOrderRows.CUSTOMERS
                + GoldenOrderRows.ORDERS));
        assertThat(line).isEqualTo(expected.size());
    }

    private static List<String> lines(GoldenOrderRows.Variant variant, List<Row> rows) {
        List<String> lines = new ArrayList<>();
        rows.forEach(row -> lines.add(GoldenLogRows.line(variant.name(), row)));
        return lines;
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
