package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.pipeline.config.RowflowConfig;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A declared JSON input's production topology, with the production Streams properties, on TopologyTestDriver. */
class InputTopologyTest {
    private static final String DATA_KEY = "bucket(4) | @timestamp:ts, host.name:text, event.dataset:text";
    private static final String INDEX_KEY = "host.name:text, event.dataset:text, @timestamp:rts";
    private static final long T = Instant.parse("2026-11-22T08:00:00.123Z").toEpochMilli();

    private final InMemoryRowSink sink = new InMemoryRowSink();
    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> input;
    private TestOutputTopic<byte[], byte[]> deadLetters;

    private RowflowConfig start(Map<String, String> overrides) {
        Map<String, String> props = new LinkedHashMap<>(Map.of(
                "kafka.bootstrap.servers", "unused:9092",
                "pipelines", "",
                "inputs", "filebeat",
                "input.filebeat.topic", "filebeat",
                "input.filebeat.time", "@timestamp",
                "input.filebeat.key", DATA_KEY,
                "input.filebeat.columns", "message=m, host.name=h, event.dataset=e, log.level=l, *=f.*",
                "input.filebeat.indexes", "host",
                "input.filebeat.index.host.key", INDEX_KEY));
        props.putAll(overrides);
        RowflowConfig config = new RowflowConfig(props);
        driver = ProductionTopology.driver(config, sink, Map.of());
        input = driver.createInputTopic("filebeat", new ByteArraySerializer(), new ByteArraySerializer());
        deadLetters = driver.createOutputTopic("filebeat.dead-letter", new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        return config;
    }

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void shouldWriteTheDataRowAndIndexRowAnEcsEventDeclares() {
        start(Map.of());
        String event = "{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"host\":{\"name\":\"web-01\",\"ip\":[\"10.0.0.1\"]},"
                + "\"event\":{\"dataset\":\"nginx.access\"},\"log.level\":\"info\",\"message\":\"GET / 200\","
                + "\"http\":{\"response\":{\"status_code\":200}},\"tags\":[\"a\",\"b\"],\"agent\":null}";

        input.pipeInput(utf8(event));

        byte[] dataKey = RowKeyLayout.parse(DATA_KEY, null).encode(T, "web-01", "nginx.access");
        byte[] indexKey = RowKeyLayout.parse(INDEX_KEY, null).encode("web-01", "nginx.access", T);
        assertThat(written()).containsExactly(
                new Row(TableRole.of("filebeat.data"), dataKey, T, List.of(
                        cell("d", "m", "GET / 200"), cell("d", "h", "web-01"), cell("d", "e", "nginx.access"),
                        cell("d", "l", "info"), cell("d", "f.@timestamp", "2026-11-22T08:00:00.123Z"),
                        cell("d", "f.host.ip", "[\"10.0.0.1\"]"), cell("d", "f.http.response.status_code", "200"),
                        cell("d", "f.tags", "[\"a\",\"b\"]"))),
                new Row(TableRole.of("filebeat.index.host"), indexKey, T, List.of(new Cell(utf8("i"), utf8("r"), dataKey))));
        assertThat(deadLetters.isEmpty()).isTrue();
    }

    @Test
    void shouldWriteARowPerArrayElementInTheirOwnTableAndSetAsideARecordWhoseArrayIsNone() {
        String itemKey = "host.name:text, @timestamp:ts, $position.item:int";
        start(Map.of("input.filebeat.rows", "items", "input.filebeat.rows.items.each", "cart.items as item",
                "input.filebeat.rows.items.key", itemKey,
                "input.filebeat.rows.items.columns", "item.sku=s, item.qty:int32=q, $ordinal:int64=n",
                "input.filebeat.rows.items.table", "filebeat_items"));
        String event = "{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"host\":{\"name\":\"web-01\"},"
                + "\"event\":{\"dataset\":\"shop.cart\"},\"message\":\"checkout\","
                + "\"cart\":{\"items\":[{\"sku\":\"a\",\"qty\":2},null,{\"sku\":\"b\",\"qty\":1}]}}";
        String none = event.replace("[{\"sku\":\"a\",\"qty\":2},null,{\"sku\":\"b\",\"qty\":1}]", "\"a,b\"");

        input.pipeInput(utf8(event));
        input.pipeInput(utf8(none));

        TableRole items = TableRole.of("filebeat.rows.items");
        RowKeyLayout layout = RowKeyLayout.parse(itemKey, null);
        assertThat(written()).filteredOn(row -> row.table().equals(items)).containsExactly(
                new Row(items, layout.encode("web-01", T, 1), T, List.of(cell("d", "s", "a"),
                        new Cell(utf8("d"), utf8("q"), new byte[]{0, 0, 0, 2}),
                        new Cell(utf8("d"), utf8("n"), new byte[]{0, 0, 0, 0, 0, 0, 0, 1}))),
                new Row(items, layout.encode("web-01", T, 3), T, List.of(cell("d", "s", "b"),
                        new Cell(utf8("d"), utf8("q"), new byte[]{0, 0, 0, 1}),
                        new Cell(utf8("d"), utf8("n"), new byte[]{0, 0, 0, 0, 0, 0, 0, 2}))));
        assertThat(written()).filteredOn(row -> row.table().equals(TableRole.of("filebeat.data"))).hasSize(1);
        List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
        assertThat(dead).hasSize(1);
        assertThat(header(dead.get(0), "__streams.errors.message"))
                .isEqualTo("invalid cart.items 'a,b': is text, where rows items take an array");
    }

    @Test
    void shouldSetEachBadRecordAsideWithAReasonNamingThePathAndWriteTheGoodOnesOnce() {
        start(Map.of());
        String good = "{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"host\":{\"name\":\"web-01\"},"
                + "\"event\":{\"dataset\":\"nginx.access\"},\"message\":\"ok\"}";
        byte[] notUtf8 = utf8("{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"host\":{\"name\":\"web-XX\"},"
                + "\"event\":{\"dataset\":\"d\"},\"message\":\"m\"}");
        int x = new String(notUtf8, StandardCharsets.UTF_8).indexOf("XX");
        notUtf8[x] = (byte) 0xC3;
        notUtf8[x + 1] = '(';
        String deep = "{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"host\":{\"name\":\"h\"},\"event\":{\"dataset\":\"d\"},"
                + "\"message\":\"m\",\"a\":" + "{\"a\":".repeat(70) + "1" + "}".repeat(70) + "}";
        String huge = "{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"host\":{\"name\":\"h\"},\"event\":{\"dataset\":\"d\"},"
                + "\"message\":\"" + "x".repeat(5 * 1024 * 1024) + "\"}";
        Map<byte[], String> bad = new LinkedHashMap<>();
        bad.put(utf8("not json"), "invalid value 'not json': is not valid JSON: Unrecognized token 'not': was expecting "
                + "(JSON String, Number, Array, Object or token 'null', 'true' or 'false') at offset 0");
        bad.put(utf8("{\"@timestamp\":\"2026-"), "invalid value '{\"@timestamp\":\"2026-': is not valid JSON: Unexpected "
                + "end-of-input in VALUE_STRING at offset 20");
        bad.put(utf8("[1,2]"), "invalid value '[1,2]': is a JSON array, a JSON object is expected");
        bad.put(utf8("\"text\""), "invalid value '\"text\"': is a JSON string, a JSON object is expected");
        bad.put(utf8("{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"host\":{},\"event\":{\"dataset\":\"d\"}}"),
                "invalid host.name null: is missing: it is part of the row key");
        bad.put(utf8("{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"host\":{\"name\":null},\"event\":{\"dataset\":\"d\"}}"),
                "invalid host.name null: is null: it is part of the row key");
        bad.put(utf8("{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"host\":{\"name\":{\"first\":\"w\"}},"
                + "\"event\":{\"dataset\":\"d\"}}"), "invalid host.name '{\"first\":\"w\"}': is an object, where text is expected");
        bad.put(utf8("{\"@timestamp\":\"yesterday\",\"host\":{\"name\":\"h\"},\"event\":{\"dataset\":\"d\"}}"),
                "invalid @timestamp 'yesterday': not an ISO-8601 time with an offset: could not be parsed at index 0");
        bad.put(utf8(deep), "invalid a" + ".a".repeat(63) + " '{...}': nests deeper than 64 objects and arrays");
        bad.put(utf8(huge), "invalid message '(5242880 bytes)': is 5242880 bytes as a cell, over the cell size limit of 1048576 bytes "
                + "(the input's max.cell.bytes)");
        bad.put(notUtf8, "invalid value '" + new String(notUtf8, StandardCharsets.UTF_8) + "': is not valid JSON: "
                + "Invalid UTF-8 middle byte 0x28 at offset 63");
        bad.put(utf8("{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"host\":{\"name\":\"a\",\"name\":\"b\"},"
                + "\"event\":{\"dataset\":\"d\"}}"), "invalid host.name null: appears twice in one object (duplicate key)");

        input.pipeInput(utf8(good));
        bad.keySet().forEach(input::pipeInput);
        input.pipeInput((byte[]) null);
        input.pipeInput(utf8(good.replace("web-01", "web-02")));

        List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
        assertThat(dead).hasSize(bad.size() + 1);
        List<String> expected = new ArrayList<>(bad.values());
        expected.add("invalid value null: the filebeat topic carries no tombstones (null values): input filebeat takes "
                + "its records as events (tombstones=dead-letter; ignore and delete are the other choices)");
        assertThat(dead).extracting(r -> header(r, "__streams.errors.message")).containsExactlyElementsOf(expected);
        List<byte[]> values = new ArrayList<>(bad.keySet());
        values.add(null);
        for (int i = 0; i < values.size(); i++) {
            assertThat(dead.get(i).value()).as("dead letter %d unchanged", i).isEqualTo(values.get(i));
        }
        assertThat(written()).hasSize(4);
        assertThat(written()).extracting(r -> r.table().name()).containsExactly("filebeat.data", "filebeat.index.host",
                "filebeat.data", "filebeat.index.host");
    }

    @Test
    void shouldTakeTheRecordTimestampWhenTheInputSaysSoAndSetAsideTimesPast64Bits() {
        start(Map.of("input.filebeat.time.missing", "record-timestamp", "input.filebeat.time.format", "epoch-ms",
                "input.filebeat.time", "ts", "input.filebeat.key", DATA_KEY.replace("@timestamp", "ts"),
                "input.filebeat.index.host.key", INDEX_KEY.replace("@timestamp", "ts")));
        long recordTime = 1_795_000_000_000L;

        input.pipeInput(null, utf8("{\"host\":{\"name\":\"h\"},\"event\":{\"dataset\":\"d\"},\"message\":\"m\"}"),
                recordTime);
        input.pipeInput(null, utf8("{\"ts\":123456789012345678901234567890,\"host\":{\"name\":\"h\"},"
                + "\"event\":{\"dataset\":\"d\"},\"message\":\"m\"}"), recordTime);

        assertThat(written()).hasSize(2);
        assertThat(written().get(0).timestamp()).isEqualTo(recordTime);
        assertThat(header(deadLetters.readRecord(), "__streams.errors.message"))
                .isEqualTo("invalid ts '123456789012345678901234567890': a number beyond 64 bits");
    }

    @Test
    void shouldDeleteTheRowOfATombstonesKeyAndOfARecordThatSaysDeletedWithItsIndexRows() {
        start(deletingInput("delete"));
        input.pipeInput(utf8("{\"id\":\"a\"}"), utf8(account("a", "web-01", "")));
        input.pipeInput(utf8("{\"id\":\"b\"}"), utf8(account("b", "web-02", "")));
        input.pipeInput(utf8("{\"id\":\"c\"}"), utf8(account("c", "web-03", "")));

        input.pipeInput(utf8("{\"id\":\"a\"}"), (byte[]) null);
        input.pipeInput(utf8("{\"id\":\"b\"}"), utf8(account("b", "web-02", ",\"op\":\"delete\"")));
        input.pipeInput(utf8("{\"id\":\"x\"}"), (byte[]) null);
        input.pipeInput(utf8("not json"), (byte[]) null);

        assertThat(sink.deleted()).containsExactly("filebeat.data a", "filebeat.data b", "filebeat.data x (absent)");
        assertThat(written()).extracting(row -> row.table() + " " + new String(row.key(), StandardCharsets.UTF_8)
                .replaceAll("[^a-z0-9-]", "")).containsExactly("filebeat.data c", "filebeat.index.host web-03c");
        assertThat(header(deadLetters.readRecord(), "__streams.errors.message"))
                .isEqualTo("invalid id | $key.id null: is missing: it is part of the row key");
        assertThat(deadLetters.isEmpty()).isTrue();
    }

    @Test
    void shouldIgnoreTombstonesWhenTheInputSaysSo() {
        start(deletingInput("ignore"));
        input.pipeInput(utf8("{\"id\":\"a\"}"), utf8(account("a", "web-01", "")));
        input.pipeInput(utf8("{\"id\":\"a\"}"), (byte[]) null);

        assertThat(sink.deleted()).isEmpty();
        assertThat(written()).hasSize(2);
        assertThat(deadLetters.isEmpty()).isTrue();
    }

    /** Accounts keyed by id, from the value or the record key, deleted by tombstones or {@code op}. */
    private static Map<String, String> deletingInput(String tombstones) {
        return Map.of("input.filebeat.time", "ts", "input.filebeat.time.format", "epoch-ms",
                "input.filebeat.key", "id | $key.id:text", "input.filebeat.columns", "message=m, host=h, id=i",
                "input.filebeat.index.host.key", "host:text, id:text",
                "input.filebeat.tombstones", tombstones, "input.filebeat.delete.when", "op = 'delete'");
    }

    private static String account(String id, String host, String more) {
        return "{\"id\":\"" + id + "\",\"ts\":" + T + ",\"host\":\"" + host + "\",\"message\":\"m\"" + more + "}";
    }

    private List<Row> written() {
        List<Row> all = new ArrayList<>(sink.flushed());
        all.addAll(sink.buffered());
        return all;
    }

    private static Cell cell(String family, String qualifier, String value) {
        return new Cell(utf8(family), utf8(qualifier), utf8(value));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
