package dev.rowflow.pipeline.topology;

import dev.rowflow.events.Customer;
import dev.rowflow.events.Order;
import dev.rowflow.keying.Cell;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.order.OrderDesign;
import dev.rowflow.keying.order.OrderRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.embedded.load.OlderSchemas;
import dev.rowflow.embedded.load.OrderGenerator;
import dev.rowflow.keying.EventSchemas;
import dev.rowflow.pipeline.runtime.StreamsProperties;
import dev.rowflow.pipeline.serde.EventSerdes;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The production orders topology -- the customers and orders inputs of the {@code OrderMapping}
 * preset, orders joining customers -- with the production Streams properties, on TopologyTestDriver.
 */
class OrderTopologyTest {
    private final InMemoryRowSink sink = new InMemoryRowSink();
    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> customers;
    private TestInputTopic<byte[], byte[]> orders;
    private OrderRows rows;

    private void start(OrderDesign design, boolean customerPlusPlus) {
        rows = new OrderRows(design, RowKeyLayout.parse(OrderRows.DEFAULT_LAYOUT, null), customerPlusPlus);
        RowflowConfig config = new RowflowConfig(Map.of("kafka.bootstrap.servers", "unused:9092",
                RowflowConfig.PIPELINES_CONFIG, "orders", RowflowConfig.ORDER_DESIGN_CONFIG, design.token(),
                RowflowConfig.CUSTOMER_PLUS_PLUS_CONFIG, Boolean.toString(customerPlusPlus)));
        driver = ProductionTopology.driver(config, sink, Map.of("customers", 1));
        customers = driver.createInputTopic("customers", new ByteArraySerializer(), new ByteArraySerializer());
        orders = driver.createInputTopic("orders", new ByteArraySerializer(), new ByteArraySerializer());
    }

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private void send(Customer customer) {
        customers.pipeInput(customer.getCustomerNumber().getBytes(StandardCharsets.UTF_8),
                EventSerdes.customers().serializer().serialize("customers", customer), 42L);
    }

    private void send(Order order) {
        orders.pipeInput(order.getOrderNumber().getBytes(StandardCharsets.UTF_8),
                EventSerdes.orders().serializer().serialize("orders", order));
    }

    /** What HBase would hold: the cells of every row written, merged per table and key. */
    private Map<String, List<Cell>> stored() {
        return merged(sink);
    }

    private static Map<String, List<Cell>> merged(InMemoryRowSink sink) {
        List<Row> written = new ArrayList<>(sink.flushed());
        written.addAll(sink.buffered());
        Map<String, List<Cell>> cells = new TreeMap<>();
        for (Row row : written) {
            List<Cell> rowCells = cells.computeIfAbsent(row.table() + "/" + KeyBytes.toStringBinary(row.key())
                    + "@" + row.timestamp(), k -> new ArrayList<>());
            row.cells().stream().filter(c -> !rowCells.contains(c)).forEach(rowCells::add);
        }
        cells.values().forEach(l -> l.sort(java.util.Comparator.comparing(Cell::toString)));
        return cells;
    }

    /** What HBase would hold had the rows been written as {@code rows} says. */
    private static Map<String, List<Cell>> stored(List<Row> rows) {
        InMemoryRowSink expected = new InMemoryRowSink();
        expected.buffered().addAll(rows);
        return merged(expected);
    }

    @Test
    void shouldDenormalizeTheCustomerOntoTheOrderRow() {
        start(OrderDesign.RECORD_TYPES, false);
        OrderGenerator generator = new OrderGenerator(7, 1, 1_700_000_000_000L);
        Customer customer = OrderGenerator.customer(1);
        Order order = generator.nextOrder();

        send(customer);
        send(order);

        List<Row> expected = new ArrayList<>();
        expected.add(rows.customerRow(customer, 42L));
        expected.addAll(rows.rowsOf(order, customer));
        assertThat(stored()).isEqualTo(stored(expected));
    }

    @Test
    void shouldCompleteAnOrderThatArrivedBeforeItsCustomerWithTheCellsItWouldHaveHad() {
        OrderGenerator generator = new OrderGenerator(7, 1, 1_700_000_000_000L);
        Customer customer = OrderGenerator.customer(1);
        Order first = generator.nextOrder();
        Order second = generator.nextOrder();

        start(OrderDesign.DENORMALIZED, true);
        send(customer);
        send(first);
        send(second);
        Map<String, List<Cell>> customerFirst = stored();
        driver.close();
        sink.flushed().clear();
        sink.buffered().clear();

        start(OrderDesign.DENORMALIZED, true);
        send(first);
        send(second);
        assertThat(stored().get("ORDER/" + KeyBytes.toStringBinary(rows.orderRowKey("C0000001",
                first.getOrderNumber())) + "@" + first.getOrderTime().toEpochMilli()))
                .noneMatch(c -> new String(c.qualifier(), StandardCharsets.UTF_8).equals("cn"));
        send(customer);

        assertThat(stored()).isEqualTo(customerFirst);
    }

    @Test
    void shouldRewriteTheOrdersOfARenamedCustomerWithItsNewName() {
        start(OrderDesign.NORMALIZED, false);
        OrderGenerator generator = new OrderGenerator(7, 1, 1_700_000_000_000L);
        Customer customer = OrderGenerator.customer(1);
        Order first = generator.nextOrder();
        Order second = generator.nextOrder();
        Customer renamed = Customer.newBuilder(customer).setName("Renamed Ltd").build();

        send(customer);
        send(first);
        send(second);
        send(renamed);

        List<Row> expected = new ArrayList<>();
        expected.add(rows.customerRow(renamed, 42L));
        expected.addAll(rows.rowsOf(first, renamed));
        expected.addAll(rows.rowsOf(second, renamed));
        Map<String, List<Cell>> latest = new TreeMap<>();
        // The last cell of each qualifier is what a read returns: the new name, the old one below it.
        stored().forEach((row, cells) -> {
            Map<String, Cell> byQualifier = new java.util.LinkedHashMap<>();
            sink.buffered().stream().filter(r -> (r.table() + "/" + KeyBytes.toStringBinary(r.key()) + "@"
                    + r.timestamp()).equals(row)).flatMap(r -> r.cells().stream()).forEach(cell -> byQualifier.put(
                    new String(cell.qualifier(), StandardCharsets.UTF_8), cell));
            List<Cell> last = new ArrayList<>(byQualifier.values());
            last.sort(java.util.Comparator.comparing(Cell::toString));
            latest.put(row, last);
        });
        assertThat(latest).isEqualTo(stored(expected));
    }

    @Test
    void shouldReadTheInternalTopicsTheOrdersPipelineNames() {
        RowflowConfig config = new RowflowConfig(Map.of("kafka.bootstrap.servers", "unused:9092",
                RowflowConfig.PIPELINES_CONFIG, "orders"));
        try (dev.rowflow.pipeline.ingest.PipelinePlan plan = dev.rowflow.pipeline.ingest.PipelinePlan.build(config,
                null)) {
            String description = plan.topology(new dev.rowflow.pipeline.ingest.Wiring(() -> sink,
                    new FlushBeforeCommit(), Map.of())).describe().toString();
            java.util.Set<String> read = new java.util.TreeSet<>();
            java.util.regex.Matcher topics = java.util.regex.Pattern.compile("Source: \\S+ \\(topics: \\[([^]]+)]")
                    .matcher(description);
            while (topics.find()) {
                read.add(topics.group(1));
            }
            java.util.Set<String> expected = new java.util.TreeSet<>(List.of("customers", "orders"));
            dev.rowflow.pipeline.ingest.OrderIngest.internalTopics("app")
                    .forEach(topic -> expected.add(topic.substring("app-".length())));
            assertThat(read).isEqualTo(expected);
        }
    }

    @Test
    void shouldReadAnOrderWrittenWithSchemaVersionOne() {
        start(OrderDesign.BLOB, false);
        Order order = new OrderGenerator(7, 1, 1_700_000_000_000L).nextOrder();
        orders.pipeInput("O1".getBytes(StandardCharsets.UTF_8),
                OlderSchemas.encode(order, EventSchemas.historic("Order-v1.avsc")));

        assertThat(sink.buffered()).hasSize(2);
        assertThat(sink.buffered().get(0).cells()).anyMatch(c -> new String(c.qualifier(), StandardCharsets.UTF_8)
                .equals("cy") && new String(c.value(), StandardCharsets.UTF_8).equals("USD"));
    }

    @Test
    void shouldSetBadCustomersAndOrdersAsideOnTheirOwnDeadLetterTopics() {
        start(OrderDesign.NORMALIZED, false);
        TestOutputTopic<byte[], byte[]> badCustomers = driver.createOutputTopic("customers.dead-letter",
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        TestOutputTopic<byte[], byte[]> badOrders = driver.createOutputTopic("orders.dead-letter",
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        OrderGenerator generator = new OrderGenerator(7, 1, 1_700_000_000_000L);
        Order noCustomer = Order.newBuilder(generator.nextOrder()).setCustomerNumber("").build();
        byte[] noCustomerBytes = EventSerdes.orders().serializer().serialize("orders", noCustomer);
        Customer customer = OrderGenerator.customer(1);

        customers.pipeInput("someone-else".getBytes(StandardCharsets.UTF_8),
                EventSerdes.customers().serializer().serialize("customers", customer));
        orders.pipeInput("x".getBytes(StandardCharsets.UTF_8), noCustomerBytes);
        // An unreadable order is OrderPipelineIT's: the orders pipeline runs exactly-once, and the test
        // driver drops what the deserialization handler sets aside in a transaction not yet committed.
        Order good = generator.nextOrder();
        send(good);

        List<TestRecord<byte[], byte[]>> deadCustomers = badCustomers.readRecordsToList();
        assertThat(deadCustomers).hasSize(1);
        assertThat(header(deadCustomers.get(0), "__streams.errors.message")).isEqualTo("invalid key 'someone-else': "
                + "must be the customer number: the customers topic is compacted and keyed by it");
        List<TestRecord<byte[], byte[]>> deadOrders = badOrders.readRecordsToList();
        assertThat(deadOrders).hasSize(1);
        assertThat(deadOrders.get(0).value()).isEqualTo(noCustomerBytes);
        assertThat(header(deadOrders.get(0), "__streams.errors.exception")).isEqualTo(InvalidEventException.class.getName());
        assertThat(header(deadOrders.get(0), "__streams.errors.topic")).isEqualTo("orders");
        assertThat(sink.buffered()).filteredOn(r -> r.table() == TableRole.ORDER).extracting(Row::key)
                .containsOnly(rows.orderRowKey(good.getCustomerNumber(), good.getOrderNumber()));
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
