package dev.rowflow.keying.order;

import dev.rowflow.events.Address;
import dev.rowflow.events.Customer;
import dev.rowflow.events.LineItem;
import dev.rowflow.events.Order;
import dev.rowflow.events.ShippingLocation;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderRowsTest {
    private static final HexFormat HEX = HexFormat.of().withUpperCase();
    private static final RowKeyLayout RAW = RowKeyLayout.parse(OrderRows.DEFAULT_LAYOUT, null);

    static Customer customer(String number) {
        return Customer.newBuilder().setCustomerNumber(number).setName("Ada Lovelace")
                .setAddress(new Address("12 St James's Square", "London", "LDN", "SW1Y"))
                .setPhoneNumbers(List.of("+44 20 1234", "+44 20 5678")).build();
    }

    /** Two locations: the first with two items, the second with one. */
    static Order order(String customerNumber, String orderNumber) {
        LineItem a = new LineItem("I-1", 2, 1999L);
        LineItem b = new LineItem("I-2", 1, 500L);
        LineItem c = new LineItem("I-3", 7, 120L);
        return Order.newBuilder().setOrderNumber(orderNumber).setCustomerNumber(customerNumber)
                .setOrderTime(Instant.ofEpochMilli(1_700_000_000_000L))
                .setShippingLocations(List.of(
                        new ShippingLocation("1 Main St", null, "Springfield", "IL", "62701", List.of(a, b)),
                        new ShippingLocation("9 Side Rd", "Unit 4", "Shelbyville", "IL", "62565", List.of(c))))
                .build();
    }

    private static String hex(byte[] b) {
        return HEX.formatHex(b);
    }

    private static String hex(String s) {
        return hex(s.getBytes(StandardCharsets.UTF_8));
    }

    /** The rows in the order of their keys (as a scan returns them), whatever order they were made in. */
    private static List<Row> byKey(List<Row> rows) {
        return rows.stream().sorted((a, b) -> Arrays.compareUnsigned(a.key(), b.key())).toList();
    }

    private static Map<TableRole, Long> countByTable(List<Row> rows) {
        return rows.stream().collect(Collectors.groupingBy(Row::table, Collectors.counting()));
    }

    @Test
    void shouldLayOutTheNormalizedDesignInThreeTables() {
        List<Row> rows = byKey(new OrderRows(OrderDesign.NORMALIZED, RAW, false).rowsOf(order("C1", "O7"),
                customer("C1")));

        assertThat(countByTable(rows)).isEqualTo(Map.of(TableRole.ORDER, 1L, TableRole.SHIPPING_LOCATION, 2L,
                TableRole.LINE_ITEM, 3L, TableRole.ORDER_INDEX, 1L));
        assertThat(hex(rows.get(0).key())).isEqualTo(hex("C1\0O7"));
        assertThat(hex(rows.get(1).key())).isEqualTo(hex("C1\0O7\0") + "80000001");
        assertThat(hex(rows.get(2).key())).isEqualTo(hex("C1\0O7\0") + "80000001" + "80000001");
        assertThat(hex(rows.get(3).key())).isEqualTo(hex("C1\0O7\0") + "80000001" + "80000002");
        assertThat(hex(rows.get(5).key())).isEqualTo(hex("C1\0O7\0") + "80000002" + "80000001");
        assertThat(rows).allSatisfy(r -> assertThat(r.timestamp()).isEqualTo(1_700_000_000_000L));
    }

    @Test
    void shouldPutEveryRecordTypeUnderTheOrderKeyInOneTable() {
        OrderRows rows = new OrderRows(OrderDesign.RECORD_TYPES, RAW, false);
        List<Row> written = rows.rowsOf(order("C1", "O7"), null).stream()
                .filter(row -> row.table().equals(TableRole.ORDER)).toList();

        assertThat(countByTable(rows.rowsOf(order("C1", "O7"), null)))
                .isEqualTo(Map.of(TableRole.ORDER, 6L, TableRole.ORDER_INDEX, 1L));
        String order = hex("C1\0O7\0");
        assertThat(written.subList(0, 6)).extracting(r -> hex(r.key())).containsExactlyInAnyOrder(
                order + "31",
                order + "32" + "80000001",
                order + "33" + "80000001" + "80000001",
                order + "33" + "80000001" + "80000002",
                order + "32" + "80000002",
                order + "33" + "80000002" + "80000001");
        assertThat(written.subList(0, 6)).allSatisfy(r -> assertThat(hex(r.key())).startsWith(order));
        assertThat(hex(rows.orderPrefix("C1", "O7"))).isEqualTo(order);
    }

    @Test
    void shouldCopyTheShippingLocationOntoEachLineItemNumberedAcrossTheOrder() {
        List<Row> rows = byKey(new OrderRows(OrderDesign.DENORMALIZED, RAW, false).rowsOf(order("C1", "O7"), null));

        assertThat(rows).hasSize(1 + 3 + 1);
        assertThat(rows.subList(1, 4)).extracting(r -> hex(r.key())).containsExactly(
                hex("C1\0O7\0") + "3380000001", hex("C1\0O7\0") + "3380000002", hex("C1\0O7\0") + "3380000003");
        Row third = rows.get(3);
        assertThat(value(third, OrderColumns.SHIP_TO_CITY)).isEqualTo("Shelbyville");
        assertThat(value(third, OrderColumns.SHIP_TO_LINE2)).isEqualTo("Unit 4");
        assertThat(value(third, OrderColumns.ITEM_NUMBER)).isEqualTo("I-3");
        assertThat(value(rows.get(1), OrderColumns.SHIP_TO_LINE2)).isNull();
    }

    @Test
    void shouldKeepTheWholeOrderInOneBlob() {
        Order order = order("C1", "O7");
        List<Row> rows = new OrderRows(OrderDesign.BLOB, RAW, false).rowsOf(order, null);

        assertThat(rows).hasSize(2);
        byte[] blob = rows.get(0).cells().stream().filter(c -> Arrays.equals(c.qualifier(), OrderColumns.ORDER_BLOB))
                .findFirst().orElseThrow().value();
        assertThat(hex(blob)).startsWith("C301");
        assertThat(OrderBlob.decode(blob)).isEqualTo(order);
    }

    @Test
    void shouldKeepACustomerAndItsOrdersUnderOnePrefixInCustomerPlusPlus() {
        OrderRows rows = new OrderRows(OrderDesign.RECORD_TYPES, RAW, true);

        assertThat(hex(rows.customerRow(customer("C1"), 5L).key())).isEqualTo(hex("C1\0" + "1"));
        assertThat(hex(rows.orderRowKey("C1", "O7"))).isEqualTo(hex("C1\0" + "2" + "O7\0" + "1"));
        assertThat(rows.rowsOf(order("C1", "O7"), null)).extracting(row -> hex(row.key()))
                .contains(hex("C1\0" + "2" + "O7\0" + "3") + "8000000180000001");
        assertThat(hex(rows.customerPrefix("C1"))).isEqualTo(hex("C1\0"));
        assertThat(rows.customerTable()).isEqualTo(TableRole.ORDER);
        // "C10" is another customer: not under the prefix of "C1".
        assertThat(hex(rows.customerRow(customer("C10"), 5L).key())).doesNotStartWith(hex(rows.customerPrefix("C1")));
    }

    @Test
    void shouldHashBothPartsForMd5AndMd5() {
        OrderRows rows = new OrderRows(OrderDesign.BLOB, RowKeyLayout.parse("customerNumber:md5, orderNumber:md5", null),
                false);

        assertThat(rows.orderRowKey("C1", "O7")).hasSize(32);
        assertThat(rows.customerPrefix("C1")).hasSize(16);
        assertThat(hex(rows.orderRowKey("C1", "O7"))).startsWith(hex(rows.customerPrefix("C1")));
    }

    @Test
    void shouldWriteTheCustomersFieldsOnTheOrderRowOnlyWhenTheCustomerIsKnown() {
        OrderRows rows = new OrderRows(OrderDesign.RECORD_TYPES, RAW, false);
        Order order = order("C1", "O7");
        Row complete = rows.rowsOf(order, customer("C1")).get(0);
        Row incomplete = rows.rowsOf(order, null).get(0);

        assertThat(incomplete.key()).isEqualTo(complete.key());
        assertThat(incomplete.timestamp()).isEqualTo(complete.timestamp());
        assertThat(complete.cells()).containsAll(incomplete.cells());
        assertThat(complete.cells()).extracting(c -> new String(c.qualifier(), StandardCharsets.UTF_8))
                .containsAll(List.of("cn", "cc", "cs", "cz"));
        assertThat(complete.cells()).hasSize(incomplete.cells().size() + 4);
    }

    @Test
    void shouldPointTheIndexFromOrderNumberToOrderRow() {
        OrderRows rows = new OrderRows(OrderDesign.NORMALIZED, RAW, false);
        List<Row> written = rows.rowsOf(order("C1", "O7"), null);
        Row index = written.stream().filter(row -> row.table().equals(TableRole.ORDER_INDEX)).findFirst().orElseThrow();

        assertThat(index.table()).isEqualTo(TableRole.ORDER_INDEX);
        assertThat(hex(index.key())).isEqualTo(hex("O7\0C1"));
        assertThat(hex(rows.indexPrefix("O7"))).isEqualTo(hex("O7\0"));
        assertThat(index.cells().get(0).value()).isEqualTo(written.get(0).key());
    }

    @Test
    void shouldRefuseLayoutsThatAreNotCustomerThenOrder() {
        assertThatThrownBy(() -> new OrderRows(OrderDesign.BLOB, RowKeyLayout.parse("orderNumber:text, customerNumber:text",
                null), false)).hasMessageContaining("customerNumber:<encoding>, orderNumber:<encoding>");
        assertThatThrownBy(() -> new OrderRows(OrderDesign.BLOB, RowKeyLayout.parse(
                "hex(2) | customerNumber:text, orderNumber:text", null), false)).hasMessageContaining("must not be salted");
        assertThatThrownBy(() -> new OrderRows(OrderDesign.NORMALIZED, RAW, true))
                .hasMessageContaining("normalized design needs three tables");
    }

    @Test
    void shouldRefuseAnEmptyCustomerNumber() {
        assertThatThrownBy(() -> new OrderRows(OrderDesign.BLOB, RAW, false).rowsOf(order("", "O7"), null))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("customerNumber");
    }

    static String value(Row row, byte[] qualifier) {
        return row.cells().stream().filter(c -> Arrays.equals(c.qualifier(), qualifier))
                .map(c -> new String(c.value(), StandardCharsets.UTF_8)).findFirst().orElse(null);
    }
}
