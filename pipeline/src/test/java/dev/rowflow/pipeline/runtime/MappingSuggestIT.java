package dev.rowflow.pipeline.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.embedded.load.TableRows;
import dev.rowflow.embedded.load.TopicProducer;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.pipeline.cli.Rowflow;
import dev.rowflow.pipeline.config.RowflowConfig;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static dev.rowflow.pipeline.runtime.ShipperShapes.EVENTS;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rowflow mapping suggest} on a topic of each shipper's records, every shape of
 * {@link ShipperShapes} mixed, with records no declaration can take (not JSON, not an object,
 * no time, a time in no format) and records of the shipper that its suggested key cannot take:
 * the printed declaration, run unchanged on the real stack, writes every other record once
 * under its event time, indexes it where it has the index's field, and sets exactly the bad ones
 * aside; {@code rowflow mapping check} on it finds no collision and exactly those records.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class MappingSuggestIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static EmbeddedStack stack;

    @BeforeAll
    static void shareStack(EmbeddedStack shared) {
        stack = shared;
    }

    /**
     * A shipper's records with what the suggestion is expected to make of them.
     *
     * @param time        the event time's field
     * @param formats     its formats, as suggested
     * @param key         the data key, as suggested
     * @param index       the host index's lead, as suggested
     * @param message     the message field
     * @param extraGood   records of the shipper's that are rows too: JSON -> event time
     * @param extraBad    records of the shipper's that its key cannot take: JSON -> the reason's start
     */
    record Shape(ShipperShapes.Shipper shipper, String time, String formats, String key, String index, String message,
                 Map<String, Long> extraGood, Map<String, String> extraBad) {
    }

    static Stream<Arguments> shapes() {
        long eight = Instant.parse("2026-11-22T08:00:00Z").toEpochMilli();
        return Stream.of(
                Arguments.of(new Shape(ShipperShapes.filebeat(), "@timestamp", "iso8601",
                        "bucket(8) | @timestamp:ts, log.offset:long", "host.name", "message",
                        Map.of(),
                        // The stdin input: no file, no offset.
                        Map.of("{\"@timestamp\":\"2026-11-22T08:00:00.000Z\",\"host\":{\"name\":\"web-01\"},\"input\":"
                                + "{\"type\":\"stdin\"},\"message\":\"from stdin\"}",
                                "invalid log.offset null: is missing: it is part of the row key"))),
                Arguments.of(new Shape(ShipperShapes.logstash(), "@timestamp", "iso8601",
                        "bucket(8) | @timestamp:ts, message:md5", "host.name | host", "message",
                        // No host at all: a row, but no host index row.
                        Map.of("{\"@timestamp\":\"2026-11-22T08:00:00.000Z\",\"@version\":\"1\",\"message\":"
                                + "\"no host\"}", eight),
                        // A host object without a name (only its addresses): the index takes text.
                        Map.of("{\"@timestamp\":\"2026-11-22T08:00:00.000Z\",\"@version\":\"1\",\"host\":{\"ip\":"
                                + "[\"10.0.0.1\"]},\"message\":\"no host name\"}",
                                "invalid host.name | host '{\"ip\":[\"10.0.0.1\"]}': is an object, where text"))),
                Arguments.of(new Shape(ShipperShapes.fluentBit(), "@timestamp", "epoch-s, iso8601",
                        "bucket(8) | @timestamp:ts, log:md5", "hostname | kubernetes.host", "log",
                        Map.of(),
                        Map.of("{\"@timestamp\":1795334400.5,\"log\":null,\"hostname\":\"h\"}",
                                "invalid log null: is null: it is part of the row key"))),
                Arguments.of(new Shape(ShipperShapes.vector(), "timestamp", "iso8601, epoch-ms",
                        "bucket(8) | timestamp:ts, message:md5", "host", "message",
                        Map.of(),
                        Map.of("{\"host\":\"h\",\"timestamp\":\"2026-11-22T08:00:00Z\"}",
                                "invalid message null: is missing: it is part of the row key"))));
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void shouldIngestEveryGoodRecordOnceAndSetEveryBadOneAsideThroughTheSuggestedDeclaration(Shape shape,
                                                                                           @TempDir Path dir)
            throws Exception {
        ShipperShapes.Shipper shipper = shape.shipper();
        String topic = "suggest-" + shipper.recipe();
        // Tables of their own: ShipperRecipesIT's recipes write the shippers' names on the same stack.
        String input = "sg" + shipper.recipe().replace("-", "");
        Map<String, String> props = new HashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "suggest-" + input);
        props.put(RowflowConfig.PIPELINES_CONFIG, "");
        props.put("kafka.commit.interval.ms", "500");
        RowflowConfig kafka = new RowflowConfig(props);
        try (Admin admin = Admin.create(kafka.kafkaProperties())) {
            admin.createTopics(List.of(new NewTopic(topic, 4, (short) 1))).all().get();
            KafkaTopics.awaitLeaders(admin, topic, Duration.ofSeconds(30));
        }
        // Good records: message -> event time. Bad ones: JSON -> the start of the reason they are set aside with.
        Map<String, Long> good = new HashMap<>();
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("{\"message\":\"truncated", "invalid value '{\"message\":\"truncated': is not valid JSON");
        bad.put("[\"an\",\"array\"]", "invalid value '[\"an\",\"array\"]': is a JSON array");
        bad.put("{\"" + shape.message() + "\":\"no time\"}", "invalid " + shape.time() + " null: is missing");
        bad.put("{\"" + shape.time() + "\":\"yesterday\",\"" + shape.message() + "\":\"when?\"}",
                "invalid " + shape.time() + " 'yesterday'");
        bad.putAll(shape.extraBad());
        try (TopicProducer producer = TopicProducer.open(kafka.kafkaProperties(), topic)) {
            for (int i = 0; i < EVENTS; i++) {
                producer.send(ShipperShapes.host(i), null, utf8(shipper.json().apply(i)));
                good.put(shipper.message().apply(i), shipper.time().apply(i));
                if (i == EVENTS / 2) {
                    bad.keySet().forEach(json -> producer.send("bad", null, utf8(json)));
                    shape.extraGood().forEach((json, time) -> {
                        producer.send("extra", null, utf8(json));
                        good.put(readTree(json).path(shape.message()).asText(), time);
                    });
                }
            }
            producer.flush();
        }
        Path kafkaFile = propertiesFile(dir.resolve("kafka.properties"), props);

        // Suggest: the declaration and its report.
        StringWriter printed = new StringWriter();
        assertThat(cli(printed).execute("mapping", "suggest", "-c", kafkaFile.toString(), "--topic", topic,
                "--input", input, "--explain")).as("suggest printed %s", printed).isZero();
        Properties suggested = new Properties();
        suggested.load(new StringReader(printed.toString()));
        String p = "input." + input + ".";
        assertThat(suggested.getProperty(p + "time")).as("printed %s", printed).isEqualTo(shape.time());
        assertThat(suggested.getProperty(p + "time.format")).isEqualTo(shape.formats());
        assertThat(suggested.getProperty(p + "key")).as("printed %s", printed).isEqualTo(shape.key());
        assertThat(suggested.getProperty(p + "index.host.key")).as("printed %s", printed)
                .startsWith(shape.index() + ":text, " + shape.time() + ":rts");
        int sent = EVENTS + bad.size() + shape.extraGood().size();
        assertThat(printed.toString()).contains("# " + sent + " records sampled: " + good.size() + " would be rows, "
                + bad.size() + " set aside");

        Map<String, String> run = declared(props, suggested);

        // Check: no collision, exactly the bad records set aside.
        JsonNode report = check(dir, run, topic);
        assertThat(report.path("records").asLong()).isEqualTo(sent);
        assertThat(report.path("collisions").asLong()).isZero();
        assertThat(report.path("good").asLong()).as("check printed %s", report).isEqualTo(good.size());
        assertThat(setAside(report)).as("check printed %s", report).isEqualTo(bad.size());

        // Run unchanged: every good record a row at its time, indexed where it has a host; every bad one set aside.
        RowflowConfig config = new RowflowConfig(run);
        PipelineRuns.runUntilCommitted(config, topic);
        RowKeyLayout key = RowKeyLayout.parse(shape.key(), null);
        String qualifier = qualifierOf(suggested.getProperty(p + "columns"), shape.message());
        Map<ByteBuffer, Result> rows = TableRows.scan(stack.connection("hbase"), input);
        assertThat(rows).hasSize(good.size());
        Map<String, Long> written = new HashMap<>();
        for (Result row : rows.values()) {
            String message = Bytes.toString(row.getValue(utf8("d"), utf8(qualifier)));
            long time = row.rawCells()[0].getTimestamp();
            for (Cell cell : row.rawCells()) {
                assertThat(cell.getTimestamp()).as("cell time of %s", message).isEqualTo(time);
            }
            assertThat(key.decode(row.getRow()).fields().get(shape.time())).as("key time of %s", message)
                    .isEqualTo(time);
            written.put(message, time);
        }
        assertThat(written).isEqualTo(good);
        long hosted = java.util.stream.IntStream.range(0, EVENTS).filter(i -> shipper.host().apply(i) != null).count();
        Map<ByteBuffer, Result> indexRows = TableRows.scan(stack.connection("hbase"), input + "_host");
        assertThat(indexRows).hasSize((int) hosted);
        for (Result indexRow : indexRows.values()) {
            assertThat(rows).containsKey(ByteBuffer.wrap(indexRow.getValue(utf8("i"), utf8("r"))));
        }
        List<ConsumerRecord<byte[], byte[]>> dead = TopicReader.readAll(stack.kafka().bootstrapServers(),
                topic + ".dead-letter", bad.size());
        assertThat(dead).hasSize(bad.size());
        Map<String, String> reasons = new HashMap<>();
        dead.forEach(r -> reasons.put(new String(r.value(), StandardCharsets.UTF_8),
                TopicReader.header(r, "__streams.errors.message")));
        bad.forEach((json, reason) -> assertThat(reasons.get(json)).as("reason of %s", json).startsWith(reason));
    }

    /** {@code props} with the suggested declaration added, as {@code rowflow run} would read them. */
    private static Map<String, String> declared(Map<String, String> props, Properties suggested) {
        Map<String, String> run = new HashMap<>(props);
        suggested.stringPropertyNames().forEach(key -> run.put(key, suggested.getProperty(key)));
        return run;
    }

    /** {@code rowflow mapping check --json} of {@code topic} with {@code run}'s declaration; exit 0 asserted. */
    private static JsonNode check(Path dir, Map<String, String> run, String topic) throws Exception {
        Path runFile = propertiesFile(dir.resolve("run.properties"), run);
        StringWriter checked = new StringWriter();
        assertThat(cli(checked).execute("mapping", "check", "-c", runFile.toString(), "--topic", topic, "--json"))
                .as("check printed %s", checked).isZero();
        return JSON.readTree(checked.toString());
    }

    /** Records a check report sets aside, over every reason. */
    private static long setAside(JsonNode report) {
        long setAside = 0;
        for (JsonNode reason : report.path("deadLetters")) {
            setAside += reason.path("records").asLong();
        }
        return setAside;
    }

    /** The qualifier the declared columns give {@code path}. */
    private static String qualifierOf(String columns, String path) {
        for (String column : columns.split(",\\s*")) {
            if (column.startsWith(path + "=")) {
                return column.substring(path.length() + 1);
            }
        }
        throw new AssertionError("no column for " + path + " in " + columns);
    }

    private static JsonNode readTree(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static picocli.CommandLine cli(StringWriter out) {
        PrintWriter writer = new PrintWriter(out, true);
        return Rowflow.commandLine().setOut(writer).setErr(writer);
    }

    private static Path propertiesFile(Path file, Map<String, String> props) throws java.io.IOException {
        Properties written = new Properties();
        written.putAll(props);
        try (var out = Files.newOutputStream(file)) {
            written.store(out, null);
        }
        return file;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A MySQL table's change events (Debezium through JsonConverter without schemas, whole before
     * images): creates, updates, deletes with their tombstones, a truncate and a record that is no
     * JSON. The suggestion keys rows by the primary key the records' keys carry, reads no stored
     * row (before.image=full), and run unchanged leaves each row as the table has it.
     */
    @org.junit.jupiter.api.Test
    void shouldMakeEachRowTheTablesRowThroughTheDeclarationSuggestedForAChangeTopic(@TempDir Path dir)
            throws Exception {
        String topic = "suggest.shop.orders";
        Map<String, String> props = new HashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "suggest-orders");
        props.put(RowflowConfig.PIPELINES_CONFIG, "");
        props.put("kafka.commit.interval.ms", "500");
        RowflowConfig kafka = new RowflowConfig(props);
        try (Admin admin = Admin.create(kafka.kafkaProperties())) {
            admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get();
            KafkaTopics.awaitLeaders(admin, topic, Duration.ofSeconds(30));
        }
        long base = ShipperShapes.BASE;
        Map<Long, String> status = new HashMap<>();
        Map<Long, Long> changedAt = new HashMap<>();
        int changes = 0;
        try (TopicProducer producer = TopicProducer.open(kafka.kafkaProperties(), topic)) {
            for (long id = 1; id <= 200; id++) {
                producer.send(orderKey(id), null, utf8(orderChange("c", null, orderRow(id, "new"), base + id)));
                status.put(id, "new");
                changedAt.put(id, base + id);
                changes++;
            }
            for (long id = 1; id <= 100; id++) {
                producer.send(orderKey(id), null, utf8(orderChange("u", orderRow(id, "new"), orderRow(id, "paid"),
                        base + 1000 + id)));
                status.put(id, "paid");
                changedAt.put(id, base + 1000 + id);
                changes++;
            }
            producer.send("truncate", null, utf8("{\"before\":null,\"after\":null,\"source\":{\"ts_ms\":" + base
                    + "},\"op\":\"t\",\"ts_ms\":" + base + "}"));
            producer.send("garbage", null, utf8("not json"));
            for (long id = 1; id <= 20; id++) {
                producer.send(orderKey(id), null, utf8(orderChange("d", orderRow(id, "paid"), null, base + 2000 + id)));
                producer.send(orderKey(id), null, null);
                status.remove(id);
                changes++;
            }
            producer.flush();
        }
        Path kafkaFile = propertiesFile(dir.resolve("kafka.properties"), props);

        StringWriter printed = new StringWriter();
        assertThat(cli(printed).execute("mapping", "suggest", "-c", kafkaFile.toString(), "--topic", topic,
                "--input", "sgorders")).as("suggest printed %s", printed).isZero();
        Properties suggested = new Properties();
        suggested.load(new StringReader(printed.toString()));
        assertThat(suggested.getProperty("input.sgorders.envelope")).isEqualTo("debezium");
        assertThat(suggested.getProperty("input.sgorders.before.image")).isEqualTo("full");
        assertThat(suggested.getProperty("input.sgorders.key")).isEqualTo("bucket(8) | id:long");
        assertThat(suggested.getProperty("input.sgorders.index.customer.key")).isEqualTo("customer_id:long, id:long");
        assertThat(printed.toString()).contains("# " + (changes + 2) + " records sampled: " + changes
                + " would be changes, 2 set aside; 20 tombstones (null values) ignored");

        Map<String, String> run = declared(props, suggested);
        JsonNode report = check(dir, run, topic);
        assertThat(report.path("collisions").asLong()).isZero();
        assertThat(report.path("good").asLong()).as("check printed %s", report).isEqualTo(changes + 20);
        assertThat(report.path("inputs").get(0).path("ignored").asLong()).isEqualTo(20); // the tombstones
        assertThat(setAside(report)).as("check printed %s", report).isEqualTo(2);
        // The first and the last 10 records of each of the 3 partitions: creates only, then the deletes.
        StringWriter first = new StringWriter();
        assertThat(cli(first).execute("mapping", "check", "-c", propertiesFile(dir.resolve("run.properties"), run)
                .toString(), "--topic", topic, "--json", "--sample", "30", "--from", "start")).isZero();
        JsonNode head = JSON.readTree(first.toString());
        assertThat(head.path("records").asLong()).isEqualTo(30);
        assertThat(head.path("inputs").get(0).path("deletes").asLong()).isZero();
        StringWriter last = new StringWriter();
        assertThat(cli(last).execute("mapping", "check", "-c", propertiesFile(dir.resolve("run.properties"), run)
                .toString(), "--topic", topic, "--json", "--sample", "30", "--from", "end")).isZero();
        JsonNode tail = JSON.readTree(last.toString());
        assertThat(tail.path("records").asLong()).isEqualTo(30);
        assertThat(tail.path("inputs").get(0).path("deletes").asLong()).as("check printed %s", tail).isPositive();
        assertThat(tail.path("inputs").get(0).path("ignored").asLong()).isPositive(); // tombstones follow deletes

        PipelineRuns.runUntilCommitted(new RowflowConfig(run), topic);
        Map<ByteBuffer, Result> rows = TableRows.scan(stack.connection("hbase"), "sgorders");
        Map<Long, String> written = new HashMap<>();
        for (Result row : rows.values()) {
            long id = Long.parseLong(Bytes.toString(row.getValue(utf8("d"), utf8("id"))));
            written.put(id, Bytes.toString(row.getValue(utf8("d"), utf8("status"))));
            assertThat(row.rawCells()).allSatisfy(cell -> assertThat(cell.getTimestamp()).isEqualTo(changedAt.get(id)));
        }
        assertThat(written).isEqualTo(status);
        assertThat(TableRows.scan(stack.connection("hbase"), "sgorders_customer")).hasSize(status.size());
        assertThat(TopicReader.readAll(stack.kafka().bootstrapServers(), topic + ".dead-letter", 2)).hasSize(2);
    }

    private static String orderKey(long id) {
        return "{\"id\":" + id + "}";
    }

    private static String orderRow(long id, String status) {
        return "{\"id\":" + id + ",\"customer_id\":" + (id % 17) + ",\"status\":\"" + status
                + "\",\"total\":\"12.50\"}";
    }

    private static String orderChange(String op, String before, String after, long ts) {
        return "{\"before\":" + before + ",\"after\":" + after + ",\"source\":{\"version\":\"2.7.3.Final\","
                + "\"connector\":\"mysql\",\"name\":\"shop\",\"ts_ms\":" + ts + ",\"db\":\"shop\",\"table\":"
                + "\"orders\",\"file\":\"binlog.000003\",\"pos\":" + (ts % 100_000) + "},\"op\":\"" + op
                + "\",\"ts_ms\":" + (ts + 5) + "}";
    }
}
