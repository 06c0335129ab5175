package dev.rowflow.keying.format;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.mapping.RecordTree;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Debezium change events as Kafka Connect's JsonConverter writes them, with and without schemas. */
class DebeziumEnvelopeTest {
    private final DebeziumEnvelope format = new DebeziumEnvelope(new JsonFormat());

    /** A PostgreSQL connector's row schema of inventory.orders (numeric(10,2), timestamp(6), date, timestamptz). */
    private static final String ROW_FIELDS = """
            [{"type":"int32","optional":false,"default":0,"field":"id"},
             {"type":"int32","optional":true,"field":"customer_id"},
             {"type":"bytes","optional":true,"name":"org.apache.kafka.connect.data.Decimal","version":1,
              "parameters":{"scale":"2","connect.decimal.precision":"10"},"field":"total"},
             {"type":"string","optional":true,"field":"status"},
             {"type":"int64","optional":true,"name":"io.debezium.time.MicroTimestamp","version":1,"field":"created_at"},
             {"type":"int32","optional":true,"name":"io.debezium.time.Date","version":1,"field":"ship_date"},
             {"type":"int64","optional":true,"name":"io.debezium.time.MicroTime","version":1,"field":"slot"},
             {"type":"string","optional":true,"name":"io.debezium.time.ZonedTimestamp","version":1,"field":"updated_at"},
             {"type":"struct","optional":true,"name":"io.debezium.data.VariableScaleDecimal","version":1,
              "fields":[{"type":"int32","optional":false,"field":"scale"},{"type":"bytes","optional":false,"field":"value"}],
              "field":"weight"}]""";
    private static final String SCHEMA = """
            {"type":"struct","fields":[
              {"type":"struct","fields":%1$s,"optional":true,"name":"shop.inventory.orders.Value","field":"before"},
              {"type":"struct","fields":%1$s,"optional":true,"name":"shop.inventory.orders.Value","field":"after"},
              {"type":"struct","fields":[{"type":"string","optional":false,"field":"connector"},
                {"type":"int64","optional":false,"field":"ts_ms"},{"type":"string","optional":false,"field":"table"},
                {"type":"int64","optional":true,"field":"txId"},{"type":"int64","optional":true,"field":"lsn"}],
               "optional":false,"name":"io.debezium.connector.postgresql.Source","field":"source"},
              {"type":"string","optional":false,"field":"op"},{"type":"int64","optional":true,"field":"ts_ms"}],
             "optional":false,"name":"shop.inventory.orders.Envelope","version":1}""".formatted(ROW_FIELDS);
    private static final String SOURCE = """
            {"connector":"postgresql","ts_ms":1795334400200,"table":"orders","txId":555,"lsn":24023128}""";
    /** 12345 as a big-endian two's-complement unscaled value (total 123.45), and -2 (weight -0.002 at scale 3). */
    private static final String ROW = """
            {"id":1001,"customer_id":7,"total":"MDk=","status":"new","created_at":1795334400123456,"ship_date":20414,
             "slot":30600000000,"updated_at":"2026-11-22T08:00:00.123456Z","weight":{"scale":3,"value":"/g=="}}""";

    private static String payload(String op, String before, String after) {
        return "{\"before\":" + before + ",\"after\":" + after + ",\"source\":" + SOURCE + ",\"op\":\"" + op
                + "\",\"ts_ms\":1795334400210,\"transaction\":null}";
    }

    private static byte[] withSchema(String payload) {
        return ("{\"schema\":" + SCHEMA + ",\"payload\":" + payload + "}").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] withoutSchema(String payload) {
        return payload.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldReadTheAfterImageOfACreateWithEveryLogicalTypeDecodedExactly() {
        ReadRecord read = format.read(withSchema(payload("c", "null", ROW)));

        assertThat(read.change().op()).isEqualTo(Change.Op.CREATE);
        assertThat(read.change().before()).isNull();
        assertThat(read.tree()).isSameAs(read.change().after());
        assertThat(read.tree().get("id")).isEqualTo(1001L);
        assertThat(read.tree().get("total")).isEqualTo(new BigDecimal("123.45"));
        assertThat(read.tree().get("created_at")).isEqualTo("2026-11-22T08:00:00.123456Z");
        assertThat(read.tree().get("ship_date")).isEqualTo(java.time.LocalDate.ofEpochDay(20414).toString());
        assertThat(read.tree().get("slot")).isEqualTo("08:30:00.000000");
        assertThat(read.tree().get("updated_at")).isEqualTo("2026-11-22T08:00:00.123456000Z");
        assertThat(read.tree().get("weight")).isEqualTo(new BigDecimal("-0.002"));
        assertThat(read.change().source()).containsEntry("lsn", 24023128L).containsEntry("table", "orders");
    }

    @Test
    void shouldReadThePayloadAloneWithoutSchemasLeavingLogicalValuesAsTheyCame() {
        ReadRecord read = format.read(withoutSchema(payload("r", "null", ROW)));

        assertThat(read.change().op()).isEqualTo(Change.Op.READ);
        assertThat(read.tree().get("total")).isEqualTo("MDk=");
        assertThat(read.tree().get("created_at")).isEqualTo(1795334400123456L);
    }

    @Test
    void shouldReadThePayloadAloneAsTheSchemaWouldWhereTheColumnsTypesAreDeclared() {
        Map<String, dev.rowflow.keying.logical.LogicalType> declared = new java.util.LinkedHashMap<>();
        for (String entry : ("total:decimal(10,2) created_at:timestamp-micros ship_date:date slot:time-micros "
                + "updated_at:timestamp-zoned weight:decimal").split(" ")) {
            String[] parts = entry.split(":");
            declared.put(parts[0], dev.rowflow.keying.logical.LogicalType.parse(parts[1]));
        }
        DebeziumEnvelope typed = new DebeziumEnvelope(new JsonFormat(), null, declared);
        // A zero fraction: the digits of its unit are written all the same.
        String row = ROW.replace("1795334400123456", "1709208000000000");
        String before = ROW.replace("\"status\":\"new\"", "\"status\":\"paid\"");

        ReadRecord plain = typed.read(withoutSchema(payload("u", before, row)));
        ReadRecord schema = format.read(withSchema(payload("u", before, row)));
        ReadRecord both = typed.read(withSchema(payload("u", before, row)));

        assertThat(plain.tree()).isEqualTo(schema.tree()).isEqualTo(both.tree());
        assertThat(plain.change().before()).isEqualTo(schema.change().before());
        assertThat(plain.tree().get("created_at")).isEqualTo("2024-02-29T12:00:00.000000Z");
        assertThat(plain.tree().get("total")).isEqualTo(new BigDecimal("123.45"));
        for (String column : declared.keySet()) {
            assertThat(RecordTree.cellBytes(plain.tree().get(column))).as(column)
                    .isEqualTo(RecordTree.cellBytes(schema.tree().get(column)));
        }
    }

    @Test
    void shouldGiveEveryShapeOfDebeziumsUnavailableValueAsItsPlaceholderUntyped() {
        // A TOASTed text, bytea (base64 in JSON) and array the update left unchanged, and a declared type over one.
        String base64 = java.util.Base64.getEncoder().encodeToString(
                dev.rowflow.keying.Cell.UNAVAILABLE.getBytes(StandardCharsets.UTF_8));
        String row = "{\"id\":1,\"bio\":\"__debezium_unavailable_value\",\"photo\":\"" + base64
                + "\",\"tags\":[\"__debezium_unavailable_value\"],\"seen\":\"__debezium_unavailable_value\"}";
        DebeziumEnvelope typed = new DebeziumEnvelope(new JsonFormat(), null,
                Map.of("seen", dev.rowflow.keying.logical.LogicalType.parse("timestamp-micros")));

        Map<String, Object> after = typed.read(withoutSchema(payload("u", "null", row))).tree();

        assertThat(after).containsEntry("bio", dev.rowflow.keying.Cell.UNAVAILABLE)
                .containsEntry("photo", dev.rowflow.keying.Cell.UNAVAILABLE)
                .containsEntry("tags", dev.rowflow.keying.Cell.UNAVAILABLE)
                .containsEntry("seen", dev.rowflow.keying.Cell.UNAVAILABLE);
    }

    @Test
    void shouldGiveTheBeforeImageOfADeleteAndBothOfAnUpdate() {
        String shipped = ROW.replace("\"status\":\"new\"", "\"status\":\"shipped\"");
        ReadRecord update = format.read(withSchema(payload("u", ROW, shipped)));
        assertThat(update.change().op()).isEqualTo(Change.Op.UPDATE);
        assertThat(update.tree().get("status")).isEqualTo("shipped");
        assertThat(update.change().before().get("status")).isEqualTo("new");
        assertThat(update.change().before().get("total")).isEqualTo(new BigDecimal("123.45"));

        ReadRecord delete = format.read(withSchema(payload("d", shipped, "null")));
        assertThat(delete.change().op()).isEqualTo(Change.Op.DELETE);
        assertThat(delete.tree()).isSameAs(delete.change().before());
        assertThat(delete.change().after()).isNull();
        assertThat(delete.tree().get("id")).isEqualTo(1001L);
    }

    @Test
    void shouldRefuseWhatIsNotAChangeEventOfARowNamingWhy() {
        assertRefused(withoutSchema("{\"id\":1,\"status\":\"new\"}"), "invalid op null: is missing: the record is not "
                + "a Debezium change event (a payload with op, before, after, source)");
        assertRefused(withoutSchema(payload("t", "null", "null")), "invalid op 't': is not an operation rowflow "
                + "applies to rows (c, r, u, d): truncates (t) and messages (m) change no single row");
        assertRefused(withoutSchema(payload("d", "null", "null")), "invalid before null: is missing: a delete needs "
                + "the row's key from its before image");
        assertRefused(withoutSchema(payload("u", ROW, "null")), "invalid after null: is missing: an update needs the "
                + "row's after image");
        assertRefused(withSchema(payload("c", "null", ROW.replace("\"MDk=\"", "\"not base64!\""))),
                "invalid after.total 'not base64!': is not a decimal(10,2) value: Illegal base64 character 20");
        assertRefused(withoutSchema(payload("c", "null", "[1]")), "invalid after '[1]': is not a row image (an object)");
    }

    private void assertRefused(byte[] bytes, String message) {
        assertThatThrownBy(() -> format.read(bytes)).isInstanceOf(InvalidEventException.class).hasMessage(message);
    }

    @Test
    void shouldKeepAChangeEventsValuesUsableAsARecordTree() {
        Map<String, Object> tree = format.read(withSchema(payload("c", "null", ROW))).tree();
        assertThat(new String(RecordTree.cellBytes(tree.get("total")), StandardCharsets.UTF_8)).isEqualTo("123.45");
    }

    /**
     * The row schema as Kafka Connect's Avro converters write it: each Connect logical type in the
     * field's {@code connect.name} and {@code connect.parameters}; a {@code Decimal} and a Connect
     * {@code Date} with Avro's own logical type too (Confluent's converter), a {@code Decimal} of
     * another column and a Debezium {@code Date} without (the bytes and the day number alone).
     */
    private static final String AVRO_ROW = """
            {"type":"record","name":"Value","namespace":"shop.inventory.orders","fields":[
             {"name":"id","type":"int"},
             {"name":"total","type":["null",{"type":"bytes","scale":2,"precision":10,"connect.version":1,
              "connect.parameters":{"scale":"2","connect.decimal.precision":"10"},
              "connect.name":"org.apache.kafka.connect.data.Decimal","logicalType":"decimal"}],"default":null},
             {"name":"discount","type":["null",{"type":"bytes","connect.version":1,
              "connect.parameters":{"scale":"3"},"connect.name":"org.apache.kafka.connect.data.Decimal"}],"default":null},
             {"name":"created_at","type":["null",{"type":"long","connect.version":1,
              "connect.name":"io.debezium.time.MicroTimestamp"}],"default":null},
             {"name":"paid_at","type":["null",{"type":"long","connect.version":1,
              "connect.name":"org.apache.kafka.connect.data.Timestamp","logicalType":"timestamp-millis"}],"default":null},
             {"name":"ship_date","type":["null",{"type":"int","connect.version":1,
              "connect.name":"io.debezium.time.Date"}],"default":null},
             {"name":"promised_on","type":["null",{"type":"int","connect.version":1,
              "connect.name":"org.apache.kafka.connect.data.Date","logicalType":"date"}],"default":null}],
             "connect.name":"shop.inventory.orders.Value"}""";
    private static final org.apache.avro.Schema AVRO_ENVELOPE = new org.apache.avro.Schema.Parser().parse("""
            {"type":"record","name":"Envelope","namespace":"shop.inventory.orders","fields":[
             {"name":"before","type":["null",%s],"default":null},
             {"name":"after","type":["null","Value"],"default":null},
             {"name":"source","type":{"type":"record","name":"Source","namespace":"io.debezium.connector.postgresql",
              "fields":[{"name":"ts_ms","type":"long"},{"name":"lsn","type":["null","long"],"default":null}]}},
             {"name":"op","type":"string"}],"connect.name":"shop.inventory.orders.Envelope"}""".formatted(AVRO_ROW));

    @Test
    void shouldDecodeLogicalTypesOfAvroChangeEventsFromTheirConnectNames() {
        org.apache.avro.Schema row = AVRO_ENVELOPE.getField("after").schema().getTypes().get(1);
        org.apache.avro.generic.GenericRecord after = new org.apache.avro.generic.GenericRecordBuilder(row)
                .set("id", 1001)
                .set("total", java.nio.ByteBuffer.wrap(java.math.BigInteger.valueOf(12345).toByteArray()))
                .set("discount", java.nio.ByteBuffer.wrap(java.math.BigInteger.valueOf(-2).toByteArray()))
                .set("created_at", 1795334400123456L)
                .set("paid_at", 1795334400123L)
                .set("ship_date", 20414)
                .set("promised_on", 20424)
                .build();
        org.apache.avro.generic.GenericRecord event = new org.apache.avro.generic.GenericRecordBuilder(AVRO_ENVELOPE)
                .set("after", after)
                .set("source", new org.apache.avro.generic.GenericRecordBuilder(AVRO_ENVELOPE.getField("source").schema())
                        .set("ts_ms", 1795334400200L).set("lsn", 24023128L).build())
                .set("op", "c")
                .build();
        AvroFormat avro = new AvroFormat(AVRO_ENVELOPE, java.util.List.of());
        DebeziumEnvelope envelope = new DebeziumEnvelope(avro, bytes -> AVRO_ENVELOPE, Map.of());
        byte[] bytes = SingleObject.encode(new org.apache.avro.message.BinaryMessageEncoder<>(AvroFormat.MODEL,
                AVRO_ENVELOPE), event);

        ReadRecord read = envelope.read(bytes);

        assertThat(read.change().op()).isEqualTo(Change.Op.CREATE);
        assertThat(read.change().before()).isNull();
        assertThat(read.tree().get("id")).isEqualTo(1001L);
        assertThat(read.tree().get("total")).isEqualTo(new BigDecimal("123.45"));
        assertThat(read.tree().get("discount")).isEqualTo(new BigDecimal("-0.002"));
        assertThat(read.tree().get("created_at")).isEqualTo("2026-11-22T08:00:00.123456Z");
        assertThat(read.tree().get("paid_at")).isEqualTo("2026-11-22T08:00:00.123Z");
        assertThat(read.tree().get("ship_date")).isEqualTo("2025-11-22");
        assertThat(read.tree().get("promised_on")).isEqualTo("2025-12-02");
        assertThat(read.change().source()).containsEntry("lsn", 24023128L);
    }

    @Test
    void shouldReadTheRecordKeyAsItsColumnsInKeyOrderWithOrWithoutItsSchema() {
        String schema = "{\"schema\":{\"type\":\"struct\",\"fields\":[{\"type\":\"int64\",\"optional\":false,"
                + "\"field\":\"order_id\"},{\"type\":\"string\",\"optional\":false,\"field\":\"carrier\"}],"
                + "\"optional\":false,\"name\":\"db.public.shipments.Key\"},\"payload\":{\"order_id\":7,\"carrier\":\"dhl\"}}";
        assertThat(format.readKey(schema.getBytes(StandardCharsets.UTF_8)))
                .containsExactly(Map.entry("order_id", 7L), Map.entry("carrier", "dhl"));
        assertThat(format.readKey("{\"order_id\":7,\"carrier\":\"dhl\"}".getBytes(StandardCharsets.UTF_8)))
                .containsExactly(Map.entry("order_id", 7L), Map.entry("carrier", "dhl"));
        assertThatThrownBy(() -> format.readKey(null)).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("no primary key");
        assertThatThrownBy(() -> format.readKey("order-7".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("order-7")
                .hasMessageContaining("no struct of key columns");
    }
}
