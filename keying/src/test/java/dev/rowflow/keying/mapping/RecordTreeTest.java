package dev.rowflow.keying.mapping;

import dev.rowflow.keying.InvalidEventException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordTreeTest {

    /** What Filebeat 8 ships for one line of a log file, ECS-shaped. */
    private static final String FILEBEAT = """
            {"@timestamp":"2026-11-22T08:00:00.123Z",
             "@metadata":{"beat":"filebeat","type":"_doc","version":"8.15.0"},
             "log.level":"warn",
             "log":{"offset":1234,"file":{"path":"/var/log/app.log"}},
             "host":{"name":"web-01","ip":["10.0.0.1","fe80::1"]},
             "message":"disk 91% full",
             "event":{"sequence":18446744073709551616,"duration":1.5e3,"ratio":-0.125},
             "tags":["prod",7,null],
             "agent":{"ephemeral":true,"trace":false},
             "error":null}
            """;

    private static Map<String, Object> obj(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    private static Map<String, Object> parse(String json) {
        return RecordTree.parseJson(json.getBytes(UTF_8));
    }

    private static void assertRefused(byte[] json, String field, String message) {
        assertThatThrownBy(() -> RecordTree.parseJson(json))
                .isInstanceOf(InvalidEventException.class)
                .hasMessage(message)
                .satisfies(e -> assertThat(((InvalidEventException) e).field()).isEqualTo(field));
    }

    private static void assertRefused(String json, String field, String message) {
        assertRefused(json.getBytes(UTF_8), field, message);
    }

    /** {@code depth} objects, each the value of key {@code a} in the one around it, around {@code 1}. */
    private static String nestedObjects(int depth) {
        return "{\"a\":".repeat(depth - 1) + "{\"a\":1}" + "}".repeat(depth - 1);
    }

    // ---------------------------------------------------------------- parseJson

    @Test
    void shouldParseAFilebeatEventIntoNestedObjectsInDocumentOrder() {
        Map<String, Object> tree = parse(FILEBEAT);

        assertThat(tree.keySet()).containsExactly("@timestamp", "@metadata", "log.level", "log", "host", "message",
                "event", "tags", "agent", "error");
        assertThat(tree).isEqualTo(obj(
                "@timestamp", "2026-11-22T08:00:00.123Z",
                "@metadata", obj("beat", "filebeat", "type", "_doc", "version", "8.15.0"),
                "log.level", "warn",
                "log", obj("offset", 1234L, "file", obj("path", "/var/log/app.log")),
                "host", obj("name", "web-01", "ip", List.of("10.0.0.1", "fe80::1")),
                "message", "disk 91% full",
                "event", obj("sequence", new BigInteger("18446744073709551616"), "duration", new BigDecimal("1.5e3"),
                        "ratio", new BigDecimal("-0.125")),
                "tags", List.of("prod", 7L, RecordTree.NULL),
                "agent", obj("ephemeral", true, "trace", false),
                "error", RecordTree.NULL));
    }

    @Test
    void shouldGiveEachJsonValueItsJavaType() {
        Map<String, Object> tree = parse(FILEBEAT);
        @SuppressWarnings("unchecked")
        Map<String, Object> event = (Map<String, Object>) tree.get("event");
        @SuppressWarnings("unchecked")
        Map<String, Object> log = (Map<String, Object>) tree.get("log");

        assertThat(log.get("offset")).isExactlyInstanceOf(Long.class);
        assertThat(event.get("sequence")).isExactlyInstanceOf(BigInteger.class);
        assertThat(event.get("duration")).isExactlyInstanceOf(BigDecimal.class);
        assertThat(((BigDecimal) event.get("duration")).scale()).isEqualTo(-2);
        assertThat(((Map<?, ?>) tree.get("agent")).get("ephemeral")).isSameAs(Boolean.TRUE);
        assertThat(tree.get("error")).isSameAs(RecordTree.NULL);
        assertThat(parse("{\"max\":9223372036854775807,\"min\":-9223372036854775808,\"over\":9223372036854775808}"))
                .isEqualTo(obj("max", Long.MAX_VALUE, "min", Long.MIN_VALUE,
                        "over", new BigInteger("9223372036854775808")));
    }

    @Test
    void shouldResolveTheFlatDottedKeyAndTheNestedObjectsBesideIt() {
        Map<String, Object> tree = parse(FILEBEAT);

        assertThat(FieldPath.parse("log.level").resolve(tree)).isEqualTo("warn");
        assertThat(FieldPath.parse("log.file.path").resolve(tree)).isEqualTo("/var/log/app.log");
        assertThat(FieldPath.parse("host.name").resolve(tree)).isEqualTo("web-01");
        assertThat(FieldPath.parse("host.ip[1]").resolve(tree)).isEqualTo("fe80::1");
    }

    @Test
    void shouldRefuseBytesThatAreNotJson() {
        assertRefused("hello", "value", "invalid value 'hello': is not valid JSON: Unrecognized token 'hello': was "
                + "expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false') at offset 0");
    }

    @Test
    void shouldRefuseTruncatedJson() {
        assertRefused("{\"a\":1", "value", "invalid value '{\"a\":1': is not valid JSON: Unexpected end-of-input: "
                + "expected close marker for Object (start marker at [Source: REDACTED "
                + "(`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1]) at offset 6");
        assertRefused("{\"a\":", "value",
                "invalid value '{\"a\":': is not valid JSON: Unexpected end-of-input within/between Object entries at offset 5");
    }

    @Test
    void shouldRefuseAnythingButAnObjectAtTheTop() {
        assertRefused("[1,2]", "value", "invalid value '[1,2]': is a JSON array, a JSON object is expected");
        assertRefused("\"abc\"", "value", "invalid value '\"abc\"': is a JSON string, a JSON object is expected");
        assertRefused("42", "value", "invalid value '42': is a JSON number, a JSON object is expected");
        assertRefused("-0.5", "value", "invalid value '-0.5': is a JSON number, a JSON object is expected");
        assertRefused("true", "value", "invalid value 'true': is a JSON boolean, a JSON object is expected");
        assertRefused("null", "value", "invalid value 'null': is JSON null, a JSON object is expected");
    }

    @Test
    void shouldRefuseEmptyBytes() {
        assertRefused(new byte[0], "value", "invalid value '': is empty, a JSON object is expected");
        assertRefused(" \n", "value", "invalid value ' \n': is empty, a JSON object is expected");
    }

    @Test
    void shouldRefuseContentAfterTheObject() {
        assertRefused("{\"a\":1} {\"b\":2}", "value",
                "invalid value '{\"a\":1} {\"b\":2}': has content after the JSON object at offset 8");
        assertRefused("{\"a\":1}]", "value",
                "invalid value '{\"a\":1}]': is not valid JSON: Unexpected close marker ']': no open Array to close at offset 7");
        assertThat(parse("{\"a\":1} \r\n")).isEqualTo(obj("a", 1L));
    }

    @Test
    void shouldRefuseInvalidUtf8InsideAString() {
        byte[] json = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, 0x28, '"', '}'};

        assertRefused(json, "value",
                "invalid value '{\"a\":\"\uFFFD(\"}': is not valid JSON: Invalid UTF-8 middle byte 0x28 at offset 8");
    }

    @Test
    void shouldRefuseUtf8ThatJacksonDecodesLeniently() {
        // An overlong NUL, an overlong DEL and a code point past U+10FFFF: ill-formed (RFC 3629), yet decodable.
        assertRefused(new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC0, (byte) 0x80, '"', '}'}, "value",
                "invalid value '{\"a\":\"\uFFFD\uFFFD\"}': is not valid UTF-8: ill-formed sequence at offset 6");
        assertRefused(new byte[] {'{', '"', 'k', (byte) 0xC1, (byte) 0xBF, '"', ':', '1', '}'}, "value",
                "invalid value '{\"k\uFFFD\uFFFD\":1}': is not valid UTF-8: ill-formed sequence at offset 3");
        assertRefused(new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80, '"',
                '}'}, "value", "invalid value '{\"a\":\"\uFFFD\uFFFD\uFFFD\uFFFD\"}': is not valid UTF-8: ill-formed "
                + "sequence at offset 6");
        assertRefused(new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'}, "value",
                "invalid value '{\"a\":\"\uFFFD\"}': is not valid JSON: Invalid UTF-8: Illegal surrogate character 0xd800 at offset 9");
        // Well-formed 2-, 3- and 4-byte sequences at the edges of their ranges.
        assertThat(parse("{\"a\":\"\u0080\u07FF\u0800\uFFFD\uD800\uDC00\uDBFF\uDFFF\"}"))
                .isEqualTo(obj("a", "\u0080\u07FF\u0800\uFFFD\uD800\uDC00\uDBFF\uDFFF"));
    }

    @Test
    void shouldAcceptNestingUpToMaxDepth() {
        Map<String, Object> tree = parse(nestedObjects(RecordTree.MAX_DEPTH));

        String deepest = String.join(".", java.util.Collections.nCopies(RecordTree.MAX_DEPTH, "a"));
        assertThat(FieldPath.parse(deepest).resolve(tree)).isEqualTo(1L);
    }

    @Test
    void shouldRefuseNestingDeeperThanMaxDepthNamingThePath() {
        String path = String.join(".", java.util.Collections.nCopies(64, "a"));

        assertThatThrownBy(() -> parse(nestedObjects(65)))
                .isInstanceOf(InvalidEventException.class)
                .hasMessage("invalid " + path + " '{...}': nests deeper than 64 objects and arrays")
                .satisfies(e -> assertThat(((InvalidEventException) e).field()).isEqualTo(path));
        // Arrays count as levels too: the record, then 64 arrays.
        String arrays = "{\"a\":" + "[".repeat(64) + "1" + "]".repeat(64) + "}";
        String arrayPath = "a" + "[0]".repeat(63);
        assertRefused(arrays, arrayPath, "invalid " + arrayPath + " '[...]': nests deeper than 64 objects and arrays");
        assertThat(parse("{\"a\":" + "[".repeat(63) + "1" + "]".repeat(63) + "}")).containsOnlyKeys("a");
    }

    @Test
    void shouldRefuseADuplicateKeyNamingItsPath() {
        assertRefused("{\"host\":{\"name\":\"a\",\"name\":\"b\"}}", "host.name",
                "invalid host.name null: appears twice in one object (duplicate key)");
        assertRefused("{\"a\":[{\"x\":1},{\"x\":1,\"x\":2}]}", "a[1].x",
                "invalid a[1].x null: appears twice in one object (duplicate key)");
        assertRefused("{\"m\":null,\"m\":null}", "m", "invalid m null: appears twice in one object (duplicate key)");
    }

    @Test
    void shouldKeepALargeObjectInOrderAndFindEachKeyAndItsDuplicate() {
        // Past 16 keys an object is looked up through a hash index instead of a scan.
        StringBuilder json = new StringBuilder("{\"labels\":{");
        for (int i = 0; i < 40; i++) {
            json.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":").append(i);
        }
        Map<String, Object> tree = parse(json + "}}");
        @SuppressWarnings("unchecked")
        Map<String, Object> labels = (Map<String, Object>) tree.get("labels");

        assertThat(labels).hasSize(40);
        assertThat(labels.keySet()).startsWith("k0", "k1", "k2").endsWith("k38", "k39");
        for (int i = 0; i < 40; i++) {
            assertThat(labels.get("k" + i)).isEqualTo((long) i);
            assertThat(FieldPath.parse("labels.k" + i).resolve(tree)).isEqualTo((long) i);
        }
        assertThat(labels.get("k40")).isNull();
        assertThat(labels.containsKey("k15")).isTrue();
        assertRefused(json + ",\"k3\":3}}", "labels.k3", "invalid labels.k3 null: appears twice in one object (duplicate key)");
        assertRefused(json + ",\"k39\":3}}", "labels.k39",
                "invalid labels.k39 null: appears twice in one object (duplicate key)");
    }

    // ---------------------------------------------------------------- cellBytes

    @Test
    void shouldWriteEachValueKindAsItsCellBytes() {
        assertThat(RecordTree.cellBytes("naïve €")).isEqualTo("naïve €".getBytes(UTF_8));
        assertThat(RecordTree.cellBytes(-42L)).isEqualTo("-42".getBytes(UTF_8));
        assertThat(RecordTree.cellBytes(new BigInteger("18446744073709551616")))
                .isEqualTo("18446744073709551616".getBytes(UTF_8));
        assertThat(RecordTree.cellBytes(new BigDecimal("1E+3"))).isEqualTo("1000".getBytes(UTF_8));
        assertThat(RecordTree.cellBytes(new BigDecimal("1.50"))).isEqualTo("1.50".getBytes(UTF_8));
        assertThat(RecordTree.cellBytes(new BigDecimal("-1.25e-3"))).isEqualTo("-0.00125".getBytes(UTF_8));
        assertThat(RecordTree.cellBytes(0.5d)).isEqualTo("0.5".getBytes(UTF_8));
        assertThat(RecordTree.cellBytes(true)).isEqualTo("true".getBytes(UTF_8));
        assertThat(RecordTree.cellBytes(false)).isEqualTo("false".getBytes(UTF_8));
        byte[] raw = {0, (byte) 0xFF, 0x7F};
        assertThat(RecordTree.cellBytes(raw)).isSameAs(raw);
    }

    @Test
    void shouldWriteObjectsAndArraysAsCompactJson() {
        Map<String, Object> tree = parse("{\"host\": { \"name\" : \"web-01\", \"ip\": [ \"10.0.0.1\" ] },"
                + " \"v\": [1, -0.5, true, null, {\"k\": \"x\"}, []]}");

        assertThat(new String(RecordTree.cellBytes(tree.get("host")), UTF_8))
                .isEqualTo("{\"name\":\"web-01\",\"ip\":[\"10.0.0.1\"]}");
        assertThat(new String(RecordTree.cellBytes(tree.get("v")), UTF_8))
                .isEqualTo("[1,-0.5,true,null,{\"k\":\"x\"},[]]");
        assertThat(new String(RecordTree.cellBytes(obj("b", new byte[] {1, 2, 3}, "n", new BigInteger("18446744073709551616"))),
                UTF_8)).isEqualTo("{\"b\":\"AQID\",\"n\":18446744073709551616}");
        assertThat(new String(RecordTree.cellBytes(List.of("a\"b", "é")), UTF_8)).isEqualTo("[\"a\\\"b\",\"é\"]");
    }

    @Test
    void shouldGiveTheTextOfScalars() {
        assertThat(RecordTree.scalarText(new BigDecimal("2.5E+2"))).isEqualTo("250");
        assertThat(RecordTree.scalarText(7L)).isEqualTo("7");
        assertThat(RecordTree.scalarText(new byte[] {1, 2, 3})).isEqualTo("AQID");
        assertThat(RecordTree.isScalar("x")).isTrue();
        assertThat(RecordTree.isScalar(RecordTree.NULL)).isTrue();
        assertThat(RecordTree.isScalar(obj())).isFalse();
        assertThat(RecordTree.isScalar(List.of())).isFalse();
    }

    // ---------------------------------------------------------------- forEachLeaf

    @Test
    void shouldVisitLeavesInDocumentOrderFlatteningObjectsAndSkippingNulls() {
        List<String> visited = new ArrayList<>();

        RecordTree.forEachLeaf(parse(FILEBEAT), "", (path, value) -> visited.add(path + "=" + RecordTree.scalarText(
                RecordTree.isScalar(value) ? value : new String(RecordTree.compactJson(value), UTF_8))));

        assertThat(visited).containsExactly(
                "@timestamp=2026-11-22T08:00:00.123Z",
                "@metadata.beat=filebeat",
                "@metadata.type=_doc",
                "@metadata.version=8.15.0",
                "log.level=warn",
                "log.offset=1234",
                "log.file.path=/var/log/app.log",
                "host.name=web-01",
                "host.ip=[\"10.0.0.1\",\"fe80::1\"]",
                "message=disk 91% full",
                "event.sequence=18446744073709551616",
                "event.duration=1500",
                "event.ratio=-0.125",
                "tags=[\"prod\",7,null]",
                "agent.ephemeral=true",
                "agent.trace=false");
    }

    @Test
    void shouldVisitLeavesBelowAPrefix() {
        Map<String, Object> tree = parse("{\"labels\":{\"app\":\"shop\",\"k8s\":{\"ns\":\"prod\"},\"gone\":null,\"none\":{}}}");
        List<String> visited = new ArrayList<>();

        RecordTree.forEachLeaf(tree.get("labels"), "labels", (path, value) -> visited.add(path + "=" + value));
        RecordTree.forEachLeaf("scalar", "s", (path, value) -> visited.add(path + "=" + value));
        RecordTree.forEachLeaf(RecordTree.NULL, "n", (path, value) -> visited.add(path + "=" + value));

        assertThat(visited).containsExactly("labels.app=shop", "labels.k8s.ns=prod", "s=scalar");
    }

    // ---------------------------------------------------------------- Avro

    @Test
    void shouldTurnAnAvroRecordIntoATree() {
        Schema level = SchemaBuilder.enumeration("Level").symbols("INFO", "WARN");
        Schema host = SchemaBuilder.record("Host").fields().requiredString("name").requiredInt("cpus").endRecord();
        Schema schema = SchemaBuilder.record("Event").namespace("dev.rowflow.test").fields()
                .name("host").type(host).noDefault()
                .name("level").type(level).noDefault()
                .name("labels").type().map().values().stringType().noDefault()
                .name("tags").type().array().items().nullable().stringType().noDefault()
                .optionalString("user")
                .optionalString("session")
                .name("payload").type().bytesType().noDefault()
                .name("digest").type().fixed("Digest").size(2).noDefault()
                .requiredLong("seq")
                .requiredFloat("load")
                .requiredDouble("ratio")
                .requiredBoolean("ok")
                .endRecord();
        GenericRecord hostRecord = new GenericData.Record(host);
        hostRecord.put("name", new org.apache.avro.util.Utf8("web-01"));
        hostRecord.put("cpus", 8);
        GenericRecord record = new GenericData.Record(schema);
        record.put("host", hostRecord);
        record.put("level", new GenericData.EnumSymbol(level, "WARN"));
        Map<CharSequence, Object> labels = new LinkedHashMap<>();
        labels.put(new org.apache.avro.util.Utf8("app"), "shop");
        labels.put("gone", null);
        record.put("labels", labels);
        List<Object> tags = new ArrayList<>();
        tags.add("prod");
        tags.add(null);
        record.put("tags", new GenericData.Array<>(schema.getField("tags").schema(), tags));
        record.put("user", null);
        record.put("session", "s-1");
        ByteBuffer payload = ByteBuffer.wrap(new byte[] {9, 8, 7, 6}, 1, 2);
        record.put("payload", payload);
        record.put("digest", new GenericData.Fixed(schema.getField("digest").schema(), new byte[] {(byte) 0xAB, 0x01}));
        record.put("seq", 42L);
        record.put("load", 0.5f);
        record.put("ratio", 0.25d);
        record.put("ok", true);

        Map<String, Object> tree = RecordTree.ofAvro(record);

        assertThat(tree.keySet()).containsExactly("host", "level", "labels", "tags", "session", "payload", "digest",
                "seq", "load", "ratio", "ok");
        assertThat(tree.get("host")).isEqualTo(obj("name", "web-01", "cpus", 8L));
        assertThat(((Map<?, ?>) tree.get("host")).get("name")).isExactlyInstanceOf(String.class);
        assertThat(tree.get("level")).isEqualTo("WARN");
        assertThat(tree.get("labels")).isEqualTo(obj("app", "shop"));
        assertThat(tree.get("tags")).isEqualTo(List.of("prod", RecordTree.NULL));
        assertThat(tree.get("session")).isEqualTo("s-1");
        assertThat(tree.get("payload")).isEqualTo(new byte[] {8, 7});
        assertThat(payload.position()).isEqualTo(1);
        assertThat(tree.get("digest")).isEqualTo(new byte[] {(byte) 0xAB, 0x01});
        assertThat(tree.get("seq")).isEqualTo(42L);
        assertThat(tree.get("load")).isEqualTo(0.5d);
        assertThat(tree.get("ratio")).isEqualTo(0.25d);
        assertThat(tree.get("ok")).isEqualTo(true);
        assertThat(new String(RecordTree.cellBytes(tree.get("host")), UTF_8)).isEqualTo("{\"name\":\"web-01\",\"cpus\":8}");
    }
}
