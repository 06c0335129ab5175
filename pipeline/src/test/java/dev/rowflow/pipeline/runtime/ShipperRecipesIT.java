package dev.rowflow.pipeline.runtime;

import dev.rowflow.embedded.load.TableRows;
import dev.rowflow.embedded.load.Offsets;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.InputConfig;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.embedded.load.TopicProducer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import static dev.rowflow.pipeline.runtime.ShipperShapes.BASE;
import static dev.rowflow.pipeline.runtime.ShipperShapes.EVENTS;
import static dev.rowflow.pipeline.runtime.ShipperShapes.host;
import static dev.rowflow.pipeline.runtime.ShipperShapes.millis;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/inputs.md's recipes, each a configuration file of {@code deploy/recipes/} used as it is (only
 * the addresses of the embedded stack put in), fed records in every shape and time format its
 * shipper writes, mixed on one topic, on the real embedded stack: every record one data row (and
 * an index row unless the index is sparse for it) under keys recomputed here from what was sent,
 * with its message and host, every cell at the event time, bad records on the dead-letter topic
 * with their reasons.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class ShipperRecipesIT {
    private static EmbeddedStack stack;

    @BeforeAll
    static void shareStack(EmbeddedStack shared) {
        stack = shared;
    }


    @Test
    void shouldIngestFilebeatModuleEventsPlainLinesAndNdjsonFlatAndNested() throws Exception {
        IntFunction<String> dataset = ShipperShapes::filebeatDataset;
        IntFunction<String> level = ShipperShapes::filebeatLevel;
        ShipperShapes.Shipper filebeat = ShipperShapes.filebeat();
        RowflowConfig config = run(filebeat);

        // The summary: records per host, dataset and hour, counted from what was sent.
        Map<String, Long> expected = new TreeMap<>();
        for (int i = 0; i < EVENTS; i++) {
            expected.merge(host(i) + "/" + dataset.apply(i) + "/" + (millis(i) - Math.floorMod(millis(i), 3_600_000L)),
                    1L, Long::sum);
        }
        RowKeyLayout summaryKey = RowKeyLayout.parse(props(filebeat).get("input.filebeat.summary.key"), null);
        Map<String, Long> counted = new TreeMap<>();
        for (Result row : scan("filebeat_summary").values()) {
            List<Object> parts = new java.util.ArrayList<>(summaryKey.decode(row.getRow()).fields().values());
            counted.put(parts.get(0) + "/" + parts.get(1) + "/" + parts.get(2),
                    Bytes.toLong(row.getValue(bytes("s"), bytes("n"))));
        }
        assertThat(counted).isEqualTo(expected);
        assertThat(config.inputs().get(0).indexes()).containsExactly("host");
        // The flat and the nested log.level both land in column l, the dataset in e.
        Map<String, Result> byMessage = new HashMap<>();
        scan("filebeat").values().forEach(r -> byMessage.put(Bytes.toString(r.getValue(bytes("d"), bytes("m"))), r));
        for (int i = 0; i < EVENTS; i++) {
            Result row = byMessage.get("line " + i + " \u00e9");
            String l = Bytes.toString(row.getValue(bytes("d"), bytes("l")));
            assertThat(l).as("log.level of line %d", i).isEqualTo(level.apply(i));
            assertThat(Bytes.toString(row.getValue(bytes("d"), bytes("e")))).isEqualTo(dataset.apply(i));
        }
        Result first = byMessage.get("line 6 \u00e9");
        assertThat(Bytes.toString(first.getValue(bytes("d"), bytes("x.tags")))).isEqualTo("[\"beats\",\"prod\"]");
        assertThat(Bytes.toString(first.getValue(bytes("d"), bytes("x.host.os.family")))).isEqualTo("debian");
        assertThat(Bytes.toString(first.getValue(bytes("d"), bytes("x.service.name")))).isEqualTo("shop");
        assertThat(Bytes.toString(byMessage.get("line 7 \u00e9").getValue(bytes("d"), bytes("x.service.name"))))
                .isEqualTo("shop");

        // The declared index verifies clean, notices rows taken away, and a backfill puts them back.
        Path file = Files.createTempFile("filebeat", ".properties");
        Properties written = new Properties();
        written.putAll(props(filebeat));
        try (var out = Files.newBufferedWriter(file)) {
            written.store(out, null);
        }
        java.io.StringWriter describe = new java.io.StringWriter();
        assertThat(cli(describe).execute("tables", "describe", "-c", file.toString())).isZero();
        assertThat(describe.toString()).contains("filebeat").contains("filebeat_host").contains("filebeat_summary")
                .contains(props(filebeat).get("input.filebeat.key"))
                .contains(props(filebeat).get("input.filebeat.index.host.key"));
        java.io.StringWriter verify = new java.io.StringWriter();
        assertThat(cli(verify).execute("index", "verify", "--input", "filebeat", "-c", file.toString()))
                .as("rowflow index verify printed %s", verify).isZero();
        assertThat(verify.toString()).isEqualTo("data rows 600, index rows 600, unindexed data rows 0, "
                + "dangling index rows 0 -- clean\n");
        try (Table index = stack.connection("hbase").getTable(TableName.valueOf("filebeat_host"))) {
            List<org.apache.hadoop.hbase.client.Delete> deletes = scan("filebeat_host").keySet().stream().limit(10)
                    .map(key -> new org.apache.hadoop.hbase.client.Delete(Bytes.getBytes(key))).toList();
            index.delete(new java.util.ArrayList<>(deletes));
        }
        java.io.StringWriter broken = new java.io.StringWriter();
        assertThat(cli(broken).execute("index", "verify", "--input", "filebeat", "-c", file.toString())).isEqualTo(1);
        assertThat(broken.toString()).startsWith("data rows 600, index rows 590, unindexed data rows 10, "
                + "dangling index rows 0 -- NOT clean");
        java.io.StringWriter backfill = new java.io.StringWriter();
        assertThat(cli(backfill).execute("index", "backfill", "--input", "filebeat", "-c", file.toString())).isZero();
        assertThat(backfill.toString()).isEqualTo("index rows written: 600\n");
        assertThat(cli(new java.io.StringWriter()).execute("index", "verify", "--input", "filebeat", "-c",
                file.toString())).isZero();
        assertThat(scan("filebeat_host")).hasSize(EVENTS);

        // Read back through the index [host][dataset][reverse time]: one host's events in a time range,
        // by dataset, each dataset's newest first.
        long from = millis(100);
        long to = millis(400);
        List<Integer> expectedEvents = new java.util.ArrayList<>();
        for (String wanted : List.of("generic", "nginx.access", "system.syslog")) {
            for (int i = EVENTS - 1; i >= 0; i--) {
                if (host(i).equals("web-03") && dataset.apply(i).equals(wanted) && millis(i) >= from && millis(i) < to) {
                    expectedEvents.add(i);
                }
            }
        }
        java.io.StringWriter query = new java.io.StringWriter();
        assertThat(cli(query).execute("query", "input", "filebeat", "host.name=web-03", "--index", "host", "--from",
                Instant.ofEpochMilli(from).toString(), "--to", Long.toString(to), "--limit", "0", "--columns", "m,h",
                "--json", "-c", file.toString())).as("query printed %s", query).isZero();
        var result = new com.fasterxml.jackson.databind.ObjectMapper().readTree(query.toString());
        List<String> messages = new java.util.ArrayList<>();
        result.get("rows").forEach(row -> {
            messages.add(row.get("columns").get("m").asText());
            assertThat(row.get("columns").size()).isEqualTo(2);
            assertThat(row.get("key").get("host.name").asText()).isEqualTo("web-03");
        });
        assertThat(messages).containsExactlyElementsOf(expectedEvents.stream().map(i -> "line " + i + " \u00e9").toList());
        assertThat(result.get("danglingIndexRows").asLong()).isZero();

        // The time-led data key: a time range over all salt buckets, oldest first, merged in key order.
        java.io.StringWriter range = new java.io.StringWriter();
        assertThat(cli(range).execute("query", "input", "filebeat", "--from", Long.toString(from), "--to",
                Long.toString(to), "--limit", "0", "--json", "-c", file.toString())).isZero();
        List<Long> times = new java.util.ArrayList<>();
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(range.toString()).get("rows")
                .forEach(row -> times.add(row.get("timestamp").asLong()));
        assertThat(times).hasSize(300).isSorted().allSatisfy(t -> assertThat(t).isBetween(from, to - 1));
    }

    private static picocli.CommandLine cli(java.io.StringWriter out) {
        picocli.CommandLine cli = dev.rowflow.pipeline.cli.Rowflow.commandLine();
        cli.setOut(new java.io.PrintWriter(out, true));
        return cli;
    }

    @Test
    void shouldIngestLogstashEventsWithAndWithoutEcsAndPassedThroughFromBeats() throws Exception {
        run(ShipperShapes.logstash());
    }

    @Test
    void shouldIngestFluentBitTailDockerAndKubernetesRecordsInBothTimeFormats() throws Exception {
        run(ShipperShapes.fluentBit());
    }

    @Test
    void shouldIngestVectorFileEventsWithAndWithoutOffsetsAndMergedApplicationJson() throws Exception {
        run(ShipperShapes.vector());
    }

    /**
     * The Debezium recipe on a history of an orders table as a PostgreSQL connector (JsonConverter
     * with schemas: decimals as base64 bytes, pgoutput's empty before of an update) and a MySQL
     * connector (without schemas, decimal.handling.mode=string, full before images) write it, in
     * turn: a snapshot, then creates, updates (a status, a move to another customer, a note set to
     * null), deletes with their tombstones and re-inserts, many sharing a millisecond; then the last
     * 150 changes again, as a connector restarted from an older offset sends them. Every row and
     * index row must be the model database's after each run, its cells at the time of its last
     * change -- with the stored row read before each change (before.image=partial) and with the
     * before images standing for it where they are whole (full).
     */
    @ParameterizedTest
    @ValueSource(strings = {"partial", "full"})
    void shouldKeepEachOrderAsTheDatabaseHasItFromPostgresAndMysqlChangeEvents(String beforeImage) throws Exception {
        Map<String, String> props = props(new ShipperShapes.Shipper("debezium", null, null, null, null, null, null, Map.of()));
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "recipe-debezium-" + beforeImage);
        props.put("input.orders.topic", "shop.public.orders_" + beforeImage);
        props.put("input.orders.table", "orders_" + beforeImage);
        props.put("input.orders.before.image", beforeImage);
        RowflowConfig config = new RowflowConfig(props);
        InputConfig input = config.inputs().get(0);
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, input.topic(), Optional.of(4), Duration.ofSeconds(30));
        }
        OrderChangeHistory history = new OrderChangeHistory(7, BASE);
        String broken = DebeziumRecords.orderChange(new OrderChangeHistory.Event(999, "c", null,
                new OrderChangeHistory.Row(1, 100, "new", null, BASE)), 0)
                .replaceAll("\"total\":\"[^\"]*\"", "\"total\":\"%%%\"");
        try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), input.topic())) {
            for (int n = 0; n < history.events.size(); n++) {
                send(producer, history.events.get(n), n);
            }
            producer.send(orderKey(999), null, utf8(broken));
            producer.flush();
        }

        runUntilCommitted(config, input.topic());
        history.assertTablesHold(scan("orders_" + beforeImage), scan("orders_" + beforeImage + "_customer"));

        try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), input.topic())) {
            int n = history.events.size() - 150;
            for (OrderChangeHistory.Event event : history.replay(150)) {
                send(producer, event, n++);
            }
            producer.flush();
        }
        runUntilCommitted(config, input.topic());
        history.assertTablesHold(scan("orders_" + beforeImage), scan("orders_" + beforeImage + "_customer"));
        List<ConsumerRecord<byte[], byte[]>> dead = TopicReader.readAll(stack.kafka().bootstrapServers(),
                input.deadLetterTopic(), 1);
        assertThat(dead).singleElement().satisfies(record -> assertThat(TopicReader.header(record,
                "__streams.errors.message")).startsWith("invalid after.total '%%%': is not a decimal(10,2) value"));
    }

    /**
     * The join recipe: orders of {@link OrderChangeHistory} (customers 1 to 10) joined with a
     * customers table changing beside them -- renamed, promoted, deleted with their tombstones,
     * created again -- where customers 9 and 10 never exist. Every order must carry the present
     * name and tier of its customer, or none, and be otherwise as the model database has it;
     * after the last 150 order changes and the last 20 customer changes again, too.
     */
    @Test
    void shouldCarryEachOrdersPresentCustomerThroughTheJoinRecipe() throws Exception {
        Path file = Path.of("..", "deploy", "recipes", "debezium-join.properties");
        Map<String, String> props = new HashMap<>(ConfigSources.load(file, Map.of()));
        props.keySet().removeIf(key -> key.startsWith("hbase.zookeeper"));
        props.putAll(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "recipe-debezium-join");
        props.put("kafka.commit.interval.ms", "500");
        props.put("input.orders.table", "orders_joined");
        props.put("input.orders.topic", "shop.public.orders_joined");
        RowflowConfig config = new RowflowConfig(props);
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, "shop.public.customers", Optional.of(2), Duration.ofSeconds(30));
            KafkaTopics.createIfAbsent(admin, "shop.public.orders_joined", Optional.of(4), Duration.ofSeconds(30));
        }
        OrderChangeHistory orders = new OrderChangeHistory(13, BASE);
        java.util.SplittableRandom random = new java.util.SplittableRandom(17);
        Map<Long, String[]> customers = new TreeMap<>(); // id -> name, tier
        List<String[]> customerEvents = new java.util.ArrayList<>(); // key, value (null: a tombstone)
        long ts = BASE;
        for (long id = 1; id <= 8; id++) {
            customers.put(id, new String[] {"customer " + id, "basic"});
            customerEvents.add(new String[] {orderKey(id), customerChange("r", id, null, customers.get(id), ts)});
        }
        for (int i = 0; i < 60; i++) {
            ts += 7;
            long id = 1 + random.nextLong(8);
            String[] before = customers.get(id);
            if (before == null) {
                customers.put(id, new String[] {"returning " + i, "basic"});
                customerEvents.add(new String[] {orderKey(id), customerChange("c", id, null, customers.get(id), ts)});
            } else if (random.nextInt(5) == 0) {
                customers.remove(id);
                customerEvents.add(new String[] {orderKey(id), customerChange("d", id, before, null, ts)});
                customerEvents.add(new String[] {orderKey(id), null});
            } else {
                String[] after = random.nextBoolean() ? new String[] {"renamed " + i, before[1]}
                        : new String[] {before[0], "gold " + i};
                customers.put(id, after);
                customerEvents.add(new String[] {orderKey(id), customerChange("u", id, before, after, ts)});
            }
        }
        try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), "shop.public.orders_joined");
             TopicProducer customerProducer = TopicProducer.open(config.kafkaProperties(), "shop.public.customers")) {
            int c = 0;
            for (int n = 0; n < orders.events.size(); n++) {
                send(producer, orders.events.get(n), n);
                if (n % 8 == 0 && c < customerEvents.size()) { // the two tables change side by side
                    String[] event = customerEvents.get(c++);
                    customerProducer.send(event[0], null, event[1] == null ? null : utf8(event[1]));
                }
            }
            for (String[] event : customerEvents.subList(c, customerEvents.size())) {
                customerProducer.send(event[0], null, event[1] == null ? null : utf8(event[1]));
            }
            producer.flush();
            customerProducer.flush();
        }
        List<String> topics = List.of("shop.public.customers", "shop.public.orders_joined");
        PipelineRuns.runUntilJoined(config, topics);
        assertJoined(orders, customers);

        try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), "shop.public.orders_joined");
             TopicProducer customerProducer = TopicProducer.open(config.kafkaProperties(), "shop.public.customers")) {
            for (String[] event : customerEvents.subList(customerEvents.size() - 20, customerEvents.size())) {
                customerProducer.send(event[0], null, event[1] == null ? null : utf8(event[1]));
            }
            int n = orders.events.size() - 150;
            for (OrderChangeHistory.Event event : orders.replay(150)) {
                send(producer, event, n++);
            }
            producer.flush();
            customerProducer.flush();
        }
        PipelineRuns.runUntilJoined(config, topics);
        assertJoined(orders, customers);
        assertThat(scan("customers")).hasSize(customers.size());
    }

    private static void assertJoined(OrderChangeHistory orders, Map<Long, String[]> customers) throws Exception {
        Map<ByteBuffer, Result> rows = scan("orders_joined");
        orders.assertTablesHold(rows, scan("orders_joined_customer"));
        RowKeyLayout dataKey = RowKeyLayout.parse("id:long", null);
        orders.database.forEach((id, order) -> {
            Result row = rows.get(ByteBuffer.wrap(dataKey.encode(id)));
            String[] customer = customers.get(order.customer());
            assertThat(Bytes.toString(row.getValue(bytes("d"), bytes("cn")))).as("customer name of order %d", id)
                    .isEqualTo(customer == null ? null : customer[0]);
            assertThat(Bytes.toString(row.getValue(bytes("d"), bytes("cr")))).as("customer tier of order %d", id)
                    .isEqualTo(customer == null ? null : customer[1]);
        });
    }

    /** A change of a customer as the MySQL connector writes it without schemas. */
    private static String customerChange(String op, long id, String[] before, String[] after, long ts) {
        return "{\"before\":" + customerRow(id, before) + ",\"after\":" + customerRow(id, after) + ",\"source\":"
                + "{\"version\":\"2.7.3.Final\",\"connector\":\"mysql\",\"name\":\"shop\",\"ts_ms\":" + ts
                + ",\"db\":\"shop\",\"table\":\"customers\",\"file\":\"mysql-bin.000003\",\"pos\":" + ts % 100_000
                + "},\"op\":\"" + op + "\",\"ts_ms\":" + (ts + 3) + "}";
    }

    private static String customerRow(long id, String[] row) {
        return row == null ? "null" : "{\"id\":" + id + ",\"name\":\"" + row[0] + "\",\"tier\":\"" + row[1] + "\"}";
    }

    private static String orderKey(long id) {
        return "{\"id\":" + id + "}";
    }

    /** The record of {@code event}, the n-th of the topic, keyed as Debezium keys it; a tombstone without value. */
    private static void send(TopicProducer producer, OrderChangeHistory.Event event, int n) {
        producer.send(orderKey(event.id()), null, event.op() == null ? null : utf8(DebeziumRecords.orderChange(event, n)));
    }

    /**
     * Produces the shipper's records and two bad ones, runs the recipe's pipeline until all are
     * committed, and checks every row.
     */
    private RowflowConfig run(ShipperShapes.Shipper shipper) throws Exception {
        Map<String, String> props = props(shipper);
        RowflowConfig config = new RowflowConfig(props);
        InputConfig input = config.inputs().get(0);
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, input.topic(), Optional.of(4), Duration.ofSeconds(30));
        }
        try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), input.topic())) {
            for (int i = 0; i < EVENTS; i++) {
                producer.send(host(i), null, utf8(shipper.json().apply(i)));
                if (i == EVENTS / 2) {
                    producer.send("bad", null, utf8("{\"message\":\"truncated"));
                    producer.send("bad", null, utf8("{\"message\":\"no time\"}"));
                    shipper.bad().keySet().forEach(json -> producer.send("bad", null, utf8(json)));
                }
            }
            producer.flush();
        }

        runUntilCommitted(config, input.topic());

        String dataTable = input.tableName(InputConfig.TABLE);
        String index = input.indexes().get(0);
        String indexTable = input.tableName("index." + index + "." + InputConfig.TABLE);
        RowKeyLayout dataKey = RowKeyLayout.parse(props.get(input.key(InputConfig.KEY)), null);
        RowKeyLayout indexKey = RowKeyLayout.parse(props.get(input.key("index." + index + "." + InputConfig.KEY)), null);
        Map<ByteBuffer, Result> data = scan(dataTable);
        Map<ByteBuffer, Result> indexRows = scan(indexTable);
        assertThat(data).hasSize(EVENTS);
        long indexed = java.util.stream.IntStream.range(0, EVENTS).filter(i -> shipper.indexKey().apply(i) != null)
                .count();
        assertThat(indexRows).hasSize((int) indexed);
        for (int i = 0; i < EVENTS; i++) {
            byte[] key = dataKey.encode(shipper.dataKey().apply(i));
            Result row = data.get(ByteBuffer.wrap(key));
            assertThat(row).as("%s data row of record %d", shipper.recipe(), i).isNotNull();
            assertThat(Bytes.toString(row.getValue(bytes("d"), bytes("m")))).isEqualTo(shipper.message().apply(i));
            assertThat(Bytes.toString(row.getValue(bytes("d"), bytes("h")))).as("%s host of record %d",
                    shipper.recipe(), i).isEqualTo(shipper.host().apply(i));
            long time = shipper.time().apply(i);
            assertThat(row.rawCells()).allSatisfy(cell -> assertThat(cell.getTimestamp()).isEqualTo(time));
            if (shipper.indexKey().apply(i) == null) {
                continue;
            }
            Result indexRow = indexRows.get(ByteBuffer.wrap(indexKey.encode(shipper.indexKey().apply(i))));
            assertThat(indexRow).as("%s index row of record %d", shipper.recipe(), i).isNotNull();
            assertThat(indexRow.getValue(bytes("i"), bytes("r"))).isEqualTo(key);
        }
        List<ConsumerRecord<byte[], byte[]>> dead = TopicReader.readAll(stack.kafka().bootstrapServers(),
                input.deadLetterTopic(), 2 + shipper.bad().size());
        assertThat(dead).hasSize(2 + shipper.bad().size());
        Map<String, String> reasons = new HashMap<>();
        dead.forEach(r -> reasons.put(new String(r.value(), StandardCharsets.UTF_8),
                TopicReader.header(r, "__streams.errors.message")));
        assertThat(reasons.get("{\"message\":\"truncated")).startsWith("invalid value '{\"message\":\"truncated': "
                + "is not valid JSON");
        assertThat(reasons.get("{\"message\":\"no time\"}")).startsWith("invalid "
                + props.get(input.key(InputConfig.TIME)) + " null: is missing");
        shipper.bad().forEach((json, reason) -> assertThat(reasons.get(json)).as("reason of %s", json)
                .startsWith(reason));
        return config;
    }

    /** Runs the pipeline of {@code config} until it has committed every record of {@code topic}. */
    private static void runUntilCommitted(RowflowConfig config, String topic) throws Exception {
        String group = config.getString(RowflowConfig.APPLICATION_ID_CONFIG);
        try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry());
             Admin admin = Admin.create(config.kafkaProperties())) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (Offsets.uncommitted(admin, group, topic) != 0 && System.nanoTime() < deadline) {
                assertThat(pipeline.state()).isNotEqualTo(org.apache.kafka.streams.KafkaStreams.State.ERROR);
                Thread.sleep(200);
            }
            assertThat(Offsets.uncommitted(admin, group, topic)).as("records not committed").isZero();
        }
    }

    /** The recipe's file as it is in deploy/recipes, with the embedded stack's addresses. */
    private static Map<String, String> props(ShipperShapes.Shipper shipper) throws Exception {
        Path file = Path.of("..", "deploy", "recipes", shipper.recipe() + ".properties");
        Map<String, String> props = new HashMap<>(ConfigSources.load(file, Map.of()));
        props.keySet().removeIf(key -> key.startsWith("hbase.zookeeper"));
        props.putAll(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "recipe-" + shipper.recipe());
        props.put("kafka.commit.interval.ms", "500");
        return props;
    }

    private static Map<ByteBuffer, Result> scan(String table) throws Exception {
        return TableRows.scan(stack.connection("hbase"), table);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return utf8(s);
    }

    static String readRecipe(String name) throws Exception {
        return Files.readString(Path.of("..", "deploy", "recipes", name + ".properties"));
    }
}
