package dev.rowflow.keying.order;

import dev.rowflow.events.Customer;
import dev.rowflow.events.Order;
import dev.rowflow.keying.EventSchemas;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Records and blobs written with version 1 of the schemas are read by the current version. */
class SchemaEvolutionTest {

    static byte[] orderV1(String customerNumber, String orderNumber) throws Exception {
        Schema v1 = EventSchemas.historic("Order-v1.avsc");
        Schema location = v1.getField("shippingLocations").schema().getElementType();
        Schema item = location.getField("lineItems").schema().getElementType();
        GenericRecord line = new GenericData.Record(item);
        line.put("itemNumber", "I-1");
        line.put("quantity", 3);
        line.put("priceCents", 250L);
        GenericRecord loc = new GenericData.Record(location);
        loc.put("line1", "1 Main St");
        loc.put("line2", null);
        loc.put("city", "Springfield");
        loc.put("state", "IL");
        loc.put("zip", "62701");
        loc.put("lineItems", List.of(line));
        GenericRecord order = new GenericData.Record(v1);
        order.put("orderNumber", orderNumber);
        order.put("customerNumber", customerNumber);
        order.put("orderTime", 1_600_000_000_000L);
        order.put("shippingLocations", List.of(loc));
        return bytes(new BinaryMessageEncoder<GenericRecord>(GenericData.get(), v1).encode(order));
    }

    static byte[] customerV1(String customerNumber) throws Exception {
        Schema v1 = EventSchemas.historic("Customer-v1.avsc");
        GenericRecord address = new GenericData.Record(v1.getField("address").schema());
        address.put("street", "1 Elm");
        address.put("city", "Austin");
        address.put("state", "TX");
        address.put("zip", "73301");
        GenericRecord customer = new GenericData.Record(v1);
        customer.put("customerNumber", customerNumber);
        customer.put("name", "Old Timer");
        customer.put("address", address);
        customer.put("phoneNumbers", List.of("555-0100"));
        return bytes(new BinaryMessageEncoder<GenericRecord>(GenericData.get(), v1).encode(customer));
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] b = new byte[buffer.remaining()];
        buffer.get(b);
        return b;
    }

    @Test
    void shouldReadAVersionOneOrderWithTheDefaultOfTheAddedField() throws Exception {
        Order order = EventSchemas.orders().decode(orderV1("C1", "O1"));

        assertThat(order.getCurrency()).isEqualTo("USD");
        assertThat(order.getShippingLocations().get(0).getLineItems().get(0).getPriceCents()).isEqualTo(250L);
        assertThat(order.getOrderTime().toEpochMilli()).isEqualTo(1_600_000_000_000L);
    }

    @Test
    void shouldReadAVersionOneOrderBlob() throws Exception {
        Order order = OrderBlob.decode(orderV1("C1", "O1"));

        assertThat(order.getOrderNumber()).isEqualTo("O1");
        assertThat(order.getCurrency()).isEqualTo("USD");
    }

    @Test
    void shouldReadAVersionOneCustomerWithoutEmail() throws Exception {
        Customer customer = EventSchemas.customers().decode(customerV1("C9"));

        assertThat(customer.getName()).isEqualTo("Old Timer");
        assertThat(customer.getEmail()).isNull();
    }

    @Test
    void shouldChangeTheFingerprintWithTheVersion() throws Exception {
        byte[] v1 = orderV1("C1", "O1");
        byte[] v2 = OrderBlob.encode(Order.newBuilder(EventSchemas.orders().decode(v1)).build());

        assertThat(java.util.Arrays.copyOfRange(v1, 2, 10)).isNotEqualTo(java.util.Arrays.copyOfRange(v2, 2, 10));
        assertThatThrownBy(() -> OrderBlob.decode(new byte[] {(byte) 0xC3, 1, 1, 2, 3, 4, 5, 6, 7, 8, 0}))
                .hasMessageContaining("not an order blob of a known schema version");
    }
}
