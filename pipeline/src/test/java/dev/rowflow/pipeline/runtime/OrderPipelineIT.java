package dev.rowflow.pipeline.runtime;

import dev.rowflow.embedded.load.Offsets;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.events.Customer;
import dev.rowflow.events.Order;
import dev.rowflow.keying.Cell;
import dev.rowflow.keying.EventSchemas;
import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.order.OrderBlob;
import dev.rowflow.keying.order.OrderColumns;
import dev.rowflow.keying.order.OrderRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.embedded.load.OlderSchemas;
import dev.rowflow.embedded.load.OrderGenerator;
import dev.rowflow.embedded.load.OrderProducer;
import dev.rowflow.pipeline.serde.EventSerdes;
import dev.rowflow.sinks.hbase.HBaseUidStore;
import dev.rowflow.sinks.hbase.TableDefinition;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Customers and orders end to end on the real embedded stack, for each order design: rows read
 * back with plain hbase-client and compared cell by cell with the rows computed from the input.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class OrderPipelineIT {
    private static final int CUSTOMERS = 100;
    /** Customers sent before the orders; the others arrive after theirs. */
    private static final int EARLY_CUSTOMERS = 60;
    private static final int ORDERS = 300;
    private static final long CUSTOMER_TIME = 1_650_000_000_000L;
    private static EmbeddedStack stack;

    @BeforeAll
    static void shareStack(EmbeddedStack shared) {
        stack = shared;
    }

    @ParameterizedTest(name = "{0}, CUSTOMER++ {1}, {2}")
    @CsvSource(delimiter = ';', value = {
            "normalized; false; customerNumber:text, orderNumber:text",
            "record-types; true; customerNumber:text, orderNumber:text",
            "denormalized; false; customerNumber:md5, orderNumber:md5",
            "blob; true; customerNumber:uid, orderNumber:md5"})
    void shouldWriteExactlyTheRowsOfEachOrderAndCompleteOrdersThatCameBeforeTheirCustomer(
            String design, boolean customerPlusPlus, String layout) throws Exception {
        String name = "orders-" + design + (customerPlusPlus ? "-cpp" : "");
        RowflowConfig config = config(name, Map.of(RowflowConfig.ORDER_DESIGN_CONFIG, design,
                RowflowConfig.CUSTOMER_PLUS_PLUS_CONFIG, String.valueOf(customerPlusPlus),
                RowflowConfig.ORDER_LAYOUT_CONFIG, layout));
        createTopics(config);
        OrderGenerator generator = new OrderGenerator(11, CUSTOMERS, 1_700_000_000_000L);
        List<Order> orders = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            orders.add(generator.nextOrder());
        }

        try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry());
             OrderProducer producer = OrderProducer.open(config.kafkaProperties(), topic(config, true),
                     topic(config, false))) {
            for (int c = 1; c <= EARLY_CUSTOMERS; c++) {
                producer.send(OrderGenerator.customer(c), CUSTOMER_TIME + c);
            }
            producer.flush();
            for (int i = 0; i < orders.size(); i++) {
                // Some producers are still on version 1 of the Order schema.
                if (i % 50 == 0) {
                    producer.sendRawOrder(orders.get(i).getOrderNumber(),
                            OlderSchemas.encode(orders.get(i), EventSchemas.historic("Order-v1.avsc")));
                } else {
                    producer.send(orders.get(i));
                }
            }
            producer.flush();
            OrderRows rows = dev.rowflow.pipeline.ingest.OrderIngest.rows(config, uids(config));
            awaitCommitted(pipeline, config);

            // Documented: an order whose customer is unknown is written at once, without the
            // customer fields, and waits.
            Map<String, Set<String>> early = stored(config, rows);
            for (Order order : orders) {
                int customer = Integer.parseInt(order.getCustomerNumber().substring(1));
                Set<String> orderRow = early.get(TableRole.ORDER + " " + KeyBytes.toStringBinary(
                        rows.orderRowKey(order.getCustomerNumber(), order.getOrderNumber())));
                assertThat(orderRow).as("order row of %s", order.getOrderNumber()).isNotNull();
                assertThat(orderRow.stream().anyMatch(c -> c.startsWith("d:cn=")))
                        .as("customer fields on order %s of customer %d", order.getOrderNumber(), customer)
                        .isEqualTo(customer <= EARLY_CUSTOMERS);
            }

            for (int c = EARLY_CUSTOMERS + 1; c <= CUSTOMERS; c++) {
                producer.send(OrderGenerator.customer(c), CUSTOMER_TIME + c);
            }
            producer.flush();
            awaitCommitted(pipeline, config);

            Map<String, Set<String>> expected = expected(rows, orders);
            assertThat(stored(config, rows)).isEqualTo(expected);
            assertThat(countOf(expected, TableRole.ORDER_INDEX)).isEqualTo(ORDERS);
            assertRowCounts(design, customerPlusPlus, orders, expected);

            if (customerPlusPlus) {
                for (int c : List.of(1, 61, 99)) {
                    assertOneScanReadsEverythingAbout(config, rows, OrderGenerator.customer(c), orders);
                }
            }
        }
    }

    /**
     * Bad customers and orders among good ones on the real stack: an empty customer number on each
     * topic, a tombstone on each topic, an order of 100,000 line items (1.3 MB, on a topic that
     * takes 4 MB) and one that is not Avro (set aside in the exactly-once transaction of its task). Each bad record is set aside unchanged on its input's dead-letter topic with its
     * reason; every good one becomes exactly its rows; nothing else happens.
     */
    @Test
    void shouldSetAsideBadCustomersAndOrdersAndWriteEveryGoodOne() throws Exception {
        RowflowConfig config = config("orders-bad", Map.of());
        int topicMaxBytes = 4 * 1024 * 1024;
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            admin.createTopics(List.of(
                    new NewTopic(topic(config, true), 2, (short) 1).configs(Map.of("cleanup.policy", "compact")),
                    new NewTopic(topic(config, false), 2, (short) 1).configs(Map.of("max.message.bytes",
                            Integer.toString(topicMaxBytes))))).all().get();
            KafkaTopics.awaitLeaders(admin, topic(config, true), Duration.ofSeconds(30));
            KafkaTopics.awaitLeaders(admin, topic(config, false), Duration.ofSeconds(30));
        }
        OrderGenerator generator = new OrderGenerator(13, CUSTOMERS, 1_700_000_000_000L);
        List<Order> orders = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            orders.add(generator.nextOrder());
        }
        Order noCustomer = Order.newBuilder(generator.nextOrder()).setCustomerNumber("").build();
        Order huge = generator.nextOrder();
        List<dev.rowflow.events.LineItem> items = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            items.add(new dev.rowflow.events.LineItem(String.format("I-%05d", i % 50_000), 1, 99L));
        }
        huge.getShippingLocations().get(0).setLineItems(items);
        huge.getShippingLocations().subList(1, huge.getShippingLocations().size()).clear();
        byte[] hugeBytes = EventSerdes.orders().serializer().serialize(topic(config, false), huge);
        assertThat(hugeBytes.length).as("the large order's size").isBetween(1024 * 1024, topicMaxBytes);
        Customer emptyNumber = Customer.newBuilder(OrderGenerator.customer(1)).setCustomerNumber("").build();
        byte[] emptyNumberBytes = EventSerdes.customers().serializer().serialize(topic(config, true), emptyNumber);

        io.micrometer.core.instrument.MeterRegistry registry = new SimpleMeterRegistry();
        Map<String, Object> producerProps = new HashMap<>(config.kafkaProperties());
        producerProps.put("max.request.size", topicMaxBytes);
        try (RowflowPipeline pipeline = RowflowPipeline.start(config, registry);
             org.apache.kafka.clients.producer.KafkaProducer<byte[], byte[]> producer =
                     new org.apache.kafka.clients.producer.KafkaProducer<>(producerProps,
                             new org.apache.kafka.common.serialization.ByteArraySerializer(),
                             new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            String customers = topic(config, true);
            String ordersTopic = topic(config, false);
            for (int c = 1; c <= CUSTOMERS; c++) {
                Customer customer = OrderGenerator.customer(c);
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(customers, null, CUSTOMER_TIME + c,
                        bytes(customer.getCustomerNumber()), EventSerdes.customers().serializer().serialize(customers, customer)));
                if (c == 30) {
                    producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(customers, bytes(""), emptyNumberBytes));
                    producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(customers,
                            bytes(OrderGenerator.customerNumber(7)), null));
                }
            }
            producer.flush();
            for (int i = 0; i < orders.size(); i++) {
                Order order = orders.get(i);
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(ordersTopic,
                        bytes(order.getOrderNumber()), EventSerdes.orders().serializer().serialize(ordersTopic, order)));
                if (i == 50) {
                    producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(ordersTopic,
                            bytes(noCustomer.getOrderNumber()), EventSerdes.orders().serializer().serialize(ordersTopic, noCustomer)));
                    producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(ordersTopic,
                            bytes(orders.get(3).getOrderNumber()), null));
                    producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(ordersTopic,
                            bytes(huge.getOrderNumber()), hugeBytes));
                    // Unreadable: set aside by the deserialization handler, in the task's transaction.
                    producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(ordersTopic,
                            bytes("not-an-order"), bytes("not avro")));
                }
            }
            producer.flush();
            awaitCommitted(pipeline, config);

            OrderRows rows = dev.rowflow.pipeline.ingest.OrderIngest.rows(config, uids(config));
            Map<String, Set<String>> expected = expected(rows, orders);
            assertThat(stored(config, rows)).isEqualTo(expected);
            assertThat(countOf(expected, TableRole.ORDER_INDEX)).isEqualTo(orders.size());

            String customersDead = config.getString(RowflowConfig.CUSTOMERS_DEAD_LETTER_TOPIC_CONFIG);
            String ordersDead = config.getString(RowflowConfig.ORDERS_DEAD_LETTER_TOPIC_CONFIG);
            assertThat(deadLettersByReason(registry, customersDead))
                    .isEqualTo(Map.of("invalid customerNumber", 1.0, "invalid value", 1.0));
            assertThat(deadLettersByReason(registry, ordersDead))
                    .isEqualTo(Map.of("invalid customerNumber", 1.0, "invalid value", 1.0, "invalid lineItems", 1.0,
                            "SerializationException", 1.0));

            var deadCustomers = TopicReader.readAll(stack.kafka().bootstrapServers(), customersDead, 2);
            assertThat(deadCustomers).hasSize(2);
            assertThat(deadCustomers).allSatisfy(r -> assertThat(TopicReader.header(r, "__streams.errors.topic"))
                    .isEqualTo(customers));
            assertThat(deadCustomers).anySatisfy(r -> assertThat(r.value()).isEqualTo(emptyNumberBytes));
            assertThat(deadCustomers).anySatisfy(r -> assertThat(r.value()).isNull());

            var deadOrders = TopicReader.readAll(stack.kafka().bootstrapServers(), ordersDead, 4);
            assertThat(deadOrders).hasSize(4);
            assertThat(deadOrders).anySatisfy(r -> assertThat(r.value()).isEqualTo(bytes("not avro")));
            assertThat(deadOrders).allSatisfy(r -> assertThat(TopicReader.header(r, "__streams.errors.topic"))
                    .isEqualTo(ordersTopic));
            var hugeDead = deadOrders.stream().filter(r -> r.value() != null && r.value().length == hugeBytes.length)
                    .findFirst().orElseThrow();
            assertThat(hugeDead.value()).as("the large order, unchanged").isEqualTo(hugeBytes);
            assertThat(TopicReader.header(hugeDead, "__streams.errors.message"))
                    .contains("100000 line items").contains("orders.max.line.items=10000");
        }
    }

    private static Map<String, Double> deadLettersByReason(io.micrometer.core.instrument.MeterRegistry registry,
                                                           String topic) {
        Map<String, Double> byReason = new TreeMap<>();
        registry.find("rowflow.dead.letters").tag("topic", topic).counters()
                .forEach(c -> byReason.put(c.getId().getTag("reason"), c.count()));
        return byReason;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The row counts each design promises, counted from the order structure, not from keying. */
    private static void assertRowCounts(String design, boolean customerPlusPlus, List<Order> orders,
                                        Map<String, Set<String>> stored) {
        int locations = orders.stream().mapToInt(o -> o.getShippingLocations().size()).sum();
        int items = orders.stream().flatMap(o -> o.getShippingLocations().stream())
                .mapToInt(l -> l.getLineItems().size()).sum();
        int customerRows = CUSTOMERS;
        switch (design) {
            case "normalized" -> {
                assertThat(countOf(stored, TableRole.ORDER)).isEqualTo(ORDERS);
                assertThat(countOf(stored, TableRole.SHIPPING_LOCATION)).isEqualTo(locations);
                assertThat(countOf(stored, TableRole.LINE_ITEM)).isEqualTo(items);
                assertThat(countOf(stored, TableRole.CUSTOMER)).isEqualTo(customerRows);
            }
            case "record-types" -> assertThat(countOf(stored, TableRole.ORDER))
                    .isEqualTo(ORDERS + locations + items + (customerPlusPlus ? customerRows : 0));
            case "denormalized" -> assertThat(countOf(stored, TableRole.ORDER))
                    .isEqualTo(ORDERS + items + (customerPlusPlus ? customerRows : 0));
            default -> assertThat(countOf(stored, TableRole.ORDER))
                    .isEqualTo(ORDERS + (customerPlusPlus ? customerRows : 0));
        }
    }

    /** CUSTOMER++: the scan [customer, customer+1) returns the customer's record and its orders, nothing else. */
    private static void assertOneScanReadsEverythingAbout(RowflowConfig config, OrderRows rows, Customer customer,
                                                          List<Order> orders) throws Exception {
        byte[] prefix = rows.customerPrefix(customer.getCustomerNumber());
        Set<String> expected = new TreeSet<>();
        expected.add(KeyBytes.toStringBinary(rows.customerKey(customer.getCustomerNumber())));
        orders.stream().filter(o -> o.getCustomerNumber().equals(customer.getCustomerNumber()))
                .flatMap(o -> rows.rowsOf(o, customer).stream())
                .filter(r -> r.table() == TableRole.ORDER)
                .forEach(r -> expected.add(KeyBytes.toStringBinary(r.key())));
        Set<String> scanned = new TreeSet<>();
        try (Table table = stack.hbase().connection().getTable(TableName.valueOf(
                config.getString(RowflowConfig.ORDER_TABLE_CONFIG)));
             ResultScanner scanner = table.getScanner(new Scan().withStartRow(prefix)
                     .withStopRow(RowKeyLayout.prefixEnd(prefix)))) {
            for (Result result : scanner) {
                scanned.add(KeyBytes.toStringBinary(result.getRow()));
            }
        }
        assertThat(expected).hasSizeGreaterThan(1);
        assertThat(scanned).as("one scan of customer %s", customer.getCustomerNumber()).isEqualTo(expected);
    }

    @Test
    void shouldReadABlobWrittenWithTheFirstOrderSchemaAfterTheSchemaChanged() throws Exception {
        RowflowConfig config = config("orders-old-blob", Map.of(RowflowConfig.ORDER_DESIGN_CONFIG, "blob"));
        OrderRows rows = dev.rowflow.pipeline.ingest.OrderIngest.rows(config, null);
        Order order = new OrderGenerator(3, 1, 1_600_000_000_000L).nextOrder();
        byte[] oldBlob = OlderSchemas.encode(order, EventSchemas.historic("Order-v1.avsc"));
        byte[] key = rows.orderRowKey(order.getCustomerNumber(), order.getOrderNumber());
        try (org.apache.hadoop.hbase.client.Admin admin = stack.hbase().connection().getAdmin()) {
            RowflowPipeline.createOrCheck(new dev.rowflow.sinks.hbase.TableAdmin(admin),
                    dev.rowflow.pipeline.ingest.PipelinePlan.build(config, null));
        }
        TableName orderTable = TableName.valueOf(config.getString(RowflowConfig.ORDER_TABLE_CONFIG));
        try (Table table = stack.hbase().connection().getTable(orderTable)) {
            // As an earlier rowflow, built with Order v1, wrote it.
            table.put(new Put(key).addColumn(OrderColumns.FAMILY, OrderColumns.ORDER_BLOB, oldBlob));
            byte[] stored = table.get(new org.apache.hadoop.hbase.client.Get(key)).getValue(OrderColumns.FAMILY,
                    OrderColumns.ORDER_BLOB);

            Order read = OrderBlob.decode(stored);
            assertThat(read.getCurrency()).isEqualTo("USD");
            assertThat(Order.newBuilder(read).setCurrency(order.getCurrency()).build()).isEqualTo(order);
        }
    }

    private static long countOf(Map<String, Set<String>> rows, TableRole role) {
        return OrderTableContents.countOf(rows, role);
    }

    /** Every row the input should leave: {@link OrderTableContents#expected} of the test's customers. */
    private static Map<String, Set<String>> expected(OrderRows rows, List<Order> orders) {
        Map<Customer, Long> customers = new java.util.LinkedHashMap<>();
        for (int c = 1; c <= CUSTOMERS; c++) {
            customers.put(OrderGenerator.customer(c), CUSTOMER_TIME + c);
        }
        return OrderTableContents.expected(rows, customers, orders,
                order -> OrderGenerator.customer(Integer.parseInt(order.getCustomerNumber().substring(1))));
    }

    private static Map<String, Set<String>> stored(RowflowConfig config, OrderRows rows) throws Exception {
        return OrderTableContents.stored(stack.hbase().connection(), config, rows);
    }

    private static HBaseUidStore uids(RowflowConfig config) {
        return new HBaseUidStore(stack.hbase().connection(),
                TableName.valueOf(config.getString(RowflowConfig.UID_TABLE_CONFIG)));
    }

    private static RowflowConfig config(String name, Map<String, String> overrides) {
        Map<String, Object> props = new HashMap<>(stack.rowflowProperties());
        String tables = name.replace('-', '_');
        props.put(RowflowConfig.PIPELINES_CONFIG, RowflowConfig.ORDERS_PIPELINE);
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, name);
        props.put(RowflowConfig.CUSTOMERS_TOPIC_CONFIG, name + "-customers");
        props.put(RowflowConfig.ORDERS_TOPIC_CONFIG, name + "-orders");
        props.put(RowflowConfig.CUSTOMERS_DEAD_LETTER_TOPIC_CONFIG, name + "-customers.dead-letter");
        props.put(RowflowConfig.ORDERS_DEAD_LETTER_TOPIC_CONFIG, name + "-orders.dead-letter");
        props.put(RowflowConfig.CUSTOMER_TABLE_CONFIG, tables + "_customer");
        props.put(RowflowConfig.ORDER_TABLE_CONFIG, tables + "_order");
        props.put(RowflowConfig.SHIPPING_LOCATION_TABLE_CONFIG, tables + "_shipping_location");
        props.put(RowflowConfig.LINE_ITEM_TABLE_CONFIG, tables + "_line_item");
        props.put(RowflowConfig.ORDER_INDEX_TABLE_CONFIG, tables + "_order_index");
        props.put(RowflowConfig.UID_TABLE_CONFIG, tables + "_uid");
        props.put("kafka.commit.interval.ms", "500");
        props.putAll(overrides);
        return new RowflowConfig(props);
    }

    private static String topic(RowflowConfig config, boolean customers) {
        return config.getString(customers ? RowflowConfig.CUSTOMERS_TOPIC_CONFIG : RowflowConfig.ORDERS_TOPIC_CONFIG);
    }

    private static void createTopics(RowflowConfig config) throws Exception {
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            admin.createTopics(List.of(
                    new NewTopic(topic(config, true), 3, (short) 1).configs(Map.of("cleanup.policy", "compact")),
                    new NewTopic(topic(config, false), 2, (short) 1))).all().get();
            KafkaTopics.awaitLeaders(admin, topic(config, true), Duration.ofSeconds(30));
            KafkaTopics.awaitLeaders(admin, topic(config, false), Duration.ofSeconds(30));
        }
    }

    /** Waits until the group has committed every record of the inputs and of the join's internal topics. */
    private static void awaitCommitted(RowflowPipeline pipeline, RowflowConfig config) throws Exception {
        String group = config.getString(RowflowConfig.APPLICATION_ID_CONFIG);
        List<String> topics = new java.util.ArrayList<>(List.of(topic(config, true), topic(config, false)));
        topics.addAll(dev.rowflow.pipeline.ingest.OrderIngest.internalTopics(group));
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            Offsets.awaitCommitted(admin, group, topics, -1, java.time.Duration.ofSeconds(120),
                    polled -> assertThat(pipeline.state()).isNotEqualTo(org.apache.kafka.streams.KafkaStreams.State.ERROR));
            long uncommitted = 0;
            for (String topic : topics) {
                uncommitted += KafkaTopics.partitions(admin, topic).isEmpty() ? 1 : Offsets.uncommitted(admin, group, topic);
            }
            assertThat(uncommitted).as("records not committed by the pipeline").isZero();
        }
    }
}
