package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.KeyBytes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.events.Customer;
import dev.rowflow.events.LogEvent;
import dev.rowflow.events.Order;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.keying.order.OrderRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.embedded.load.OrderGenerator;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import dev.rowflow.sinks.hbase.HBaseRowSink;
import dev.rowflow.sinks.hbase.HBaseUidStore;
import dev.rowflow.sinks.hbase.SinkSettings;
import dev.rowflow.sinks.hbase.TableAdmin;
import dev.rowflow.sinks.hbase.TableDefinition;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rowflow query} as a user runs it: a configuration file, rows in real HBase written as the
 * pipeline writes them (UID host names included), the answers printed as tables and as JSON.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class QueryCommandIT {
    private static final long T0 = 1_700_000_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static EmbeddedStack stack;

    @BeforeAll
    static void shareStack(EmbeddedStack shared) {
        stack = shared;
    }

    @Test
    void shouldAnswerEachQueryKindFromTheConfiguredTables(@TempDir Path dir) throws Exception {
        Map<String, String> props = new LinkedHashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.PIPELINES_CONFIG, "logs,orders");
        props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, "cli_q_data");
        props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, "cli_q_index");
        props.put(RowflowConfig.LOG_DATA_LAYOUT_CONFIG, "bucket(4) | timestamp:ts, hostname:uid, eventType:text");
        props.put(RowflowConfig.LOG_INDEX_LAYOUT_CONFIG, "hostname:uid, eventType:text, timestamp:rts");
        props.put(RowflowConfig.UID_TABLE_CONFIG, "cli_q_uid");
        props.put(RowflowConfig.CUSTOMER_TABLE_CONFIG, "cli_q_customer");
        props.put(RowflowConfig.ORDER_TABLE_CONFIG, "cli_q_order");
        props.put(RowflowConfig.ORDER_INDEX_TABLE_CONFIG, "cli_q_order_index");
        props.put(RowflowConfig.CUSTOMER_PLUS_PLUS_CONFIG, "true");
        Path configFile = dir.resolve("rowflow.properties");
        Files.writeString(configFile, props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")));
        RowflowConfig config = new RowflowConfig(props);

        List<LogEvent> events = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            events.add(LogEvent.newBuilder().setHostname("web-" + (i % 3)).setEventType(i % 2 == 0 ? "auth" : "gc")
                    .setTimestamp(Instant.ofEpochMilli(T0 + i)).setMessage("event " + i).build());
        }
        OrderGenerator generator = new OrderGenerator(5, 10, T0);
        List<Order> orders = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            orders.add(generator.nextOrder());
        }
        Connection connection = stack.hbase().connection();
        HBaseUidStore uids = new HBaseUidStore(connection, TableName.valueOf("cli_q_uid"));
        try (Admin admin = connection.getAdmin()) {
            HBaseUidStore.createIfAbsent(admin, TableName.valueOf("cli_q_uid"));
            dev.rowflow.pipeline.ingest.PipelinePlan plan = dev.rowflow.pipeline.ingest.PipelinePlan.build(config, uids);
            Map<TableRole, TableDefinition> tables = plan.tables();
            RowflowPipeline.createOrCheck(new TableAdmin(admin), plan);
            LogEventRows logRows = dev.rowflow.pipeline.ingest.LogIngest.rows(config, uids);
            OrderRows orderRows = dev.rowflow.pipeline.ingest.OrderIngest.rows(config, uids);
            try (HBaseRowSink sink = new HBaseRowSink(connection, tables, new SinkSettings(0, 0))) {
                for (LogEvent event : events) {
                    for (Row row : logRows.rowsOf(event)) {
                        sink.write(row);
                    }
                }
                for (int c = 1; c <= 10; c++) {
                    sink.write(orderRows.customerRow(OrderGenerator.customer(c), T0));
                }
                for (Order order : orders) {
                    Customer customer = OrderGenerator.customer(Integer.parseInt(order.getCustomerNumber().substring(1)));
                    for (Row row : orderRows.rowsOf(order, customer)) {
                        sink.write(row);
                    }
                }
                sink.flush();
            }
        }

        // web-1's auth events are i = 1 mod 3 and 0 mod 2: i = 4, 10, ..., 598; newest first.
        JsonNode host = json(configFile, "query", "host", "web-1", "--type", "auth", "--from", Long.toString(T0 + 100),
                "--to", Instant.ofEpochMilli(T0 + 200).toString(), "--limit", "5", "--json");
        assertThat(host.get("events")).extracting(e -> e.get("message").asText())
                .containsExactly("event 196", "event 190", "event 184", "event 178", "event 172");
        assertThat(host.get("events").get(0).get("hostname").asText()).isEqualTo("web-1");
        assertThat(host.get("scans").asInt()).isEqualTo(1);

        JsonNode range = json(configFile, "query", "range", "--from", Long.toString(T0 + 10), "--to",
                Long.toString(T0 + 20), "--newest-first", "--limit", "0", "--json");
        assertThat(range.get("events")).extracting(e -> e.get("timestamp").asLong())
                .containsExactly(T0 + 19, T0 + 18, T0 + 17, T0 + 16, T0 + 15, T0 + 14, T0 + 13, T0 + 12, T0 + 11, T0 + 10);
        assertThat(range.get("scans").asInt()).isEqualTo(4);

        JsonNode index = json(configFile, "query", "index", "web-2", "gc", "--limit", "3", "--json");
        assertThat(index.get("events")).extracting(e -> e.get("message").asText())
                .containsExactly("event 599", "event 593", "event 587");

        // Everything about the customer with the most orders, in one scan (CUSTOMER++).
        String busiest = orders.stream().collect(Collectors.groupingBy(Order::getCustomerNumber, Collectors.counting()))
                .entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        List<Order> ofBusiest = orders.stream().filter(o -> o.getCustomerNumber().equals(busiest)).toList();
        JsonNode customer = json(configFile, "query", "customer", busiest, "--json");
        int expectedRows = 1 + ofBusiest.stream().mapToInt(o -> 1 + o.getShippingLocations().size()
                + o.getShippingLocations().stream().mapToInt(l -> l.getLineItems().size()).sum()).sum();
        assertThat(customer.get("rows")).hasSize(expectedRows);
        assertThat(customer.get("scans").asInt()).isEqualTo(1);
        assertThat(customer.get("rows").get(0).get("cells").get("cn").asText())
                .isEqualTo(OrderGenerator.customer(Integer.parseInt(busiest.substring(1))).getName());

        Order first = ofBusiest.get(0);
        JsonNode order = json(configFile, "query", "order", first.getOrderNumber(), "--json");
        assertThat(order.get("rows")).hasSize(1 + first.getShippingLocations().size()
                + first.getShippingLocations().stream().mapToInt(l -> l.getLineItems().size()).sum());
        assertThat(order.get("rows").get(0).get("cells").get("on").asText()).isEqualTo(first.getOrderNumber());
        assertThat(order.get("danglingIndexRows").asInt()).isZero();

        // For people: a table with a header and a summary line; UIDs never assigned by a read.
        String table = run(configFile, "query", "host", "web-0", "--type", "gc", "--limit", "2");
        assertThat(table).contains("time").contains("host").contains("event 597").contains("event 591")
                .contains("-- 2 events, 1 scans, 0 dangling index rows skipped");
        assertThat(run(configFile, "query", "host", "web-99")).contains("-- 0 events");
        assertThat(uids.find("hostname", "web-99")).isEmpty();

        // Keys by hand through the configuration: the configured layout, its UIDs looked up, never assigned.
        byte[] dataKey = dev.rowflow.pipeline.ingest.LogIngest.rows(config, uids).rowsOf(events.get(4)).get(0).key();
        assertThat(run(configFile, "keys", "encode", "hostname=web-1", "eventType=auth", "timestamp=" + (T0 + 4)))
                .isEqualTo(KeyBytes.toStringBinary(dataKey) + System.lineSeparator());
        assertThat(run(configFile, "keys", "decode", KeyBytes.toStringBinary(dataKey)))
                .contains("hostname:uid: " + uids.find("hostname", "web-1").getAsLong() + "  (web-1)");
        StringWriter err = new StringWriter();
        assertThat(Rowflow.commandLine().setErr(new PrintWriter(err)).execute("keys", "encode", "--config",
                configFile.toString(), "hostname=web-99", "eventType=auth", "timestamp=1")).isEqualTo(1);
        assertThat(err.toString()).isEqualTo("rowflow: no hostname named 'web-99' has ever been written (no UID for it)"
                + System.lineSeparator());
        assertThat(uids.find("hostname", "web-99")).isEmpty();
    }

    private static JsonNode json(Path configFile, String... args) throws Exception {
        return JSON.readTree(run(configFile, args));
    }

    private static String run(Path configFile, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Rowflow.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        List<String> withConfig = new ArrayList<>(List.of(args));
        withConfig.add("--config");
        withConfig.add(configFile.toString());
        int exit = cli.execute(withConfig.toArray(new String[0]));
        assertThat(exit).as("exit code of %s; stderr:%n%s", withConfig, err).isZero();
        return out.toString();
    }
}
