package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.Row;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.pipeline.config.RowflowConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Orders joining customers by foreign key on the production topology (TopologyTestDriver): each
 * order's row carries its customer's present name, follows a rename, a move to another customer
 * and the customer's deletion, and goes with the order.
 */
class JoinTopologyTest {
    private static final RowKeyLayout ORDER_KEY = RowKeyLayout.parse("customer_id:long, id:long", null);

    private final InMemoryRowSink sink = new InMemoryRowSink();
    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> customers;
    private TestInputTopic<byte[], byte[]> orders;
    private TestOutputTopic<byte[], byte[]> deadLetters;

    @BeforeEach
    void start() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("kafka.bootstrap.servers", "unused:9092");
        props.put("pipelines", "");
        props.put("inputs", "customers, orders");
        props.put("input.customers.topic", "shop.public.customers");
        props.put("input.customers.envelope", "debezium");
        props.put("input.customers.time", "$source.ts_ms");
        props.put("input.customers.time.format", "epoch-ms");
        props.put("input.customers.key", "id:long");
        props.put("input.customers.columns", "name=n");
        props.put("input.orders.topic", "shop.public.orders");
        props.put("input.orders.envelope", "debezium");
        props.put("input.orders.time", "$source.ts_ms");
        props.put("input.orders.time.format", "epoch-ms");
        props.put("input.orders.key", "customer_id:long, id:long");
        props.put("input.orders.columns", "status=s, customer.name=cn");
        props.put("input.orders.join.input", "customers");
        props.put("input.orders.join.on", "customer_id");
        props.put("input.orders.join.field", "id");
        props.put("input.orders.join.as", "customer");
        RowflowConfig config = new RowflowConfig(props);
        driver = ProductionTopology.driver(config, sink, Map.of());
        customers = driver.createInputTopic("shop.public.customers", new ByteArraySerializer(), new ByteArraySerializer());
        orders = driver.createInputTopic("shop.public.orders", new ByteArraySerializer(), new ByteArraySerializer());
        deadLetters = driver.createOutputTopic("shop.public.orders.dead-letter", new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void shouldKeepEachOrderWithItsCustomersPresentFieldsWhicheverSideChanges() throws IOException {
        customers.pipeInput(key(1), change("r", null, "{\"id\":1,\"name\":\"Ada\"}", 1));
        customers.pipeInput(key(2), change("r", null, "{\"id\":2,\"name\":\"Bob\"}", 1));
        orders.pipeInput(key(10), change("r", null, "{\"id\":10,\"customer_id\":1,\"status\":\"new\"}", 2));
        orders.pipeInput(key(11), change("c", null, "{\"id\":11,\"customer_id\":2,\"status\":\"new\"}", 3));
        // An order before its customer: written without the customer's fields, completed when it comes.
        orders.pipeInput(key(12), change("c", null, "{\"id\":12,\"customer_id\":3,\"status\":\"new\"}", 4));
        assertThat(orderRows()).containsExactly(
                Map.entry("1/10", "s=new cn=Ada"), Map.entry("2/11", "s=new cn=Bob"), Map.entry("3/12", "s=new"));

        customers.pipeInput(key(3), change("c", null, "{\"id\":3,\"name\":\"Cy\"}", 5));
        customers.pipeInput(key(1), change("u", null, "{\"id\":1,\"name\":\"Ada Lovelace\"}", 6));
        orders.pipeInput(key(11), change("u", null, "{\"id\":11,\"customer_id\":1,\"status\":\"moved\"}", 7));
        assertThat(orderRows()).containsExactly(Map.entry("1/10", "s=new cn=Ada Lovelace"),
                Map.entry("1/11", "s=moved cn=Ada Lovelace"), Map.entry("3/12", "s=new cn=Cy"));

        customers.pipeInput(key(1), change("d", "{\"id\":1}", null, 8));
        customers.pipeInput(key(1), (byte[]) null);
        orders.pipeInput(key(12), change("d", "{\"id\":12}", null, 9));
        orders.pipeInput(key(12), (byte[]) null);
        assertThat(orderRows()).containsExactly(Map.entry("1/10", "s=new"), Map.entry("1/11", "s=moved"));
        assertThat(deadLetters.isEmpty()).isTrue();
    }

    @Test
    void shouldSetAsideAJoinedRowTheMappingRefusesWithItsReason() throws IOException {
        customers.pipeInput(key(2), change("r", null, "{\"id\":2,\"name\":\"Bob\"}", 1));
        orders.pipeInput(key(13), change("c", null, "{\"id\":13,\"customer_id\":\"two\",\"status\":\"new\"}", 2));
        orders.pipeInput(key(14), change("c", null, "{\"id\":14,\"customer_id\":2,\"status\":\"new\"}", 3));

        assertThat(orderRows()).containsExactly(Map.entry("2/14", "s=new cn=Bob"));
        var dead = deadLetters.readRecord();
        assertThat(new String(dead.headers().lastHeader("__streams.errors.message").value(), StandardCharsets.UTF_8))
                .startsWith("invalid customer_id 'two'");
        assertThat(dead.key()).isEqualTo(key(13));
        assertThat(deadLetters.isEmpty()).isTrue();
    }

    /** The order rows present, by {@code customer/order}, each as its cells. */
    private Map<String, String> orderRows() throws IOException {
        sink.flush();
        Map<String, String> rows = new TreeMap<>();
        for (Row row : sink.flushed()) {
            if (!row.table().name().equals("orders.data")) {
                continue;
            }
            Map<String, Object> parts = ORDER_KEY.decode(row.key()).fields();
            StringBuilder cells = new StringBuilder();
            row.cells().forEach(cell -> cells.append(cells.isEmpty() ? "" : " ").append(new String(cell.qualifier(),
                    StandardCharsets.UTF_8)).append('=').append(new String(cell.value(), StandardCharsets.UTF_8)));
            rows.put(parts.get("customer_id") + "/" + parts.get("id"), cells.toString());
        }
        return rows;
    }

    private static byte[] key(long id) {
        return ("{\"id\":" + id + "}").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] change(String op, String before, String after, long ts) {
        return ("{\"before\":" + before + ",\"after\":" + after + ",\"source\":{\"ts_ms\":" + ts + ",\"lsn\":" + ts
                + "},\"op\":\"" + op + "\",\"ts_ms\":" + ts + "}").getBytes(StandardCharsets.UTF_8);
    }
}
