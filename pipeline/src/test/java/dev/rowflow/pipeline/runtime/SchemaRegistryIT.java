package dev.rowflow.pipeline.runtime;

import dev.rowflow.embedded.EmbeddedRegistry;
import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.embedded.load.Offsets;
import dev.rowflow.embedded.load.RegistryWire;
import dev.rowflow.embedded.load.TableRows;
import dev.rowflow.embedded.load.TopicProducer;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Avro in the Schema Registry wire format against a real registry (Apicurio, a child process) on
 * the real embedded stack: two schema versions interleaved and logical types read through the
 * subject's latest schema; every kind of bad record set aside with its reason; and the registry
 * stopped for 20 s while records of a schema id not yet fetched arrive -- nothing set aside, every
 * row written once it is back.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class SchemaRegistryIT {
    private static final long T0 = Instant.parse("2026-11-23T08:00:00Z").toEpochMilli();
    private static final String KEY = "bucket(8) | paidAt:ts, account:text, paymentId:text";
    private static final Schema DECIMAL = LogicalTypes.decimal(12, 2).addToSchema(Schema.create(Schema.Type.BYTES));
    private static final Schema V1 = SchemaBuilder.record("Payment").namespace("com.example").fields()
            .name("paymentId").type(LogicalTypes.uuid().addToSchema(Schema.create(Schema.Type.STRING))).noDefault()
            .requiredString("account")
            .name("paidAt").type(LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG))).noDefault()
            .name("amount").type(DECIMAL).noDefault()
            .name("booked").type(LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT))).noDefault()
            .endRecord();
    /** Version 2 adds a field with a default. */
    private static final Schema V2 = SchemaBuilder.record("Payment").namespace("com.example").fields()
            .name("paymentId").type(LogicalTypes.uuid().addToSchema(Schema.create(Schema.Type.STRING))).noDefault()
            .requiredString("account")
            .name("paidAt").type(LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG))).noDefault()
            .name("amount").type(DECIMAL).noDefault()
            .name("booked").type(LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT))).noDefault()
            .name("currency").type().stringType().stringDefault("EUR")
            .endRecord();

    private static EmbeddedStack stack;
    private static EmbeddedRegistry registry;

    @BeforeAll
    static void start(EmbeddedStack shared) {
        stack = shared;
        registry = EmbeddedRegistry.launch();
    }

    @AfterAll
    static void stop() {
        if (registry != null) {
            registry.close();
        }
    }

    @Test
    void shouldReadTwoVersionsAndLogicalTypesThroughTheLatestSchemaAndSetBadRecordsAside() throws Exception {
        int v1 = registry.register("payments-value", V1);
        int v2 = registry.register("payments-value", V2);
        assertThat(v2).isNotEqualTo(v1);
        Map<String, String> props = base("registry-payments", "payments");
        props.put("input.payments.registry.reader.subject", "payments-value");
        props.put("input.payments.columns", "amount=a, currency=c, booked=b, paymentId=p");
        RowflowConfig config = new RowflowConfig(props);
        createTopic(config, "payments");

        int good = 300;
        List<byte[]> bad = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        GenericRecord sample = payment(V1, 0);
        byte[] wellFormed = RegistryWire.encode(v1, sample);
        // Single-object Avro: the wrong magic byte.
        bad.add(bytes(new BinaryMessageEncoder<GenericRecord>(GenericData.get(), V1).encode(sample)));
        reasons.add("invalid value 'C301");
        // An id no registry gave.
        int unknown = Math.max(v1, v2) + 1000;
        bad.add(RegistryWire.encode(unknown, sample));
        reasons.add("invalid value 'schema id " + unknown + "': names a schema the registry does not know (404)");
        // The body cut short.
        bad.add(java.util.Arrays.copyOf(wellFormed, wellFormed.length - 3));
        reasons.add("invalid value '(" + (wellFormed.length - 3) + " bytes)': does not match its writer schema, id " + v1
                + " (com.example.Payment)");
        // Bytes after the record.
        byte[] trailing = java.util.Arrays.copyOf(wellFormed, wellFormed.length + 2);
        bad.add(trailing);
        reasons.add("invalid value '(" + trailing.length + " bytes)': has bytes after the Avro record of schema id " + v1);
        // Too short for a header.
        bad.add(new byte[] {0, 0, 1});
        reasons.add("invalid value '000001': is not in the Schema Registry wire format: it has 3 bytes, fewer than the 5");

        try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), "payments")) {
            for (int i = 0; i < good; i++) {
                producer.send("k", null, RegistryWire.encode(i % 2 == 0 ? v1 : v2, payment(i % 2 == 0 ? V1 : V2, i)));
                if (i % 50 == 25 && i / 50 < bad.size()) { // the bad ones in between, in their order
                    producer.send("k", null, bad.get(i / 50));
                }
            }
            producer.flush();
        }

        PipelineRuns.runUntilCommitted(config, "payments");

        Map<ByteBuffer, Result> rows = TableRows.scan(stack.connection("hbase"), "payments");
        assertThat(rows).hasSize(good);
        RowKeyLayout key = RowKeyLayout.parse(KEY, null);
        for (int i = 0; i < good; i++) {
            Result row = rows.get(ByteBuffer.wrap(key.encode(T0 + i, account(i), uuid(i).toString())));
            assertThat(row).as("row of payment %d", i).isNotNull();
            assertThat(cell(row, "a")).as("decimal as its exact text").isEqualTo(amount(i).toPlainString());
            assertThat(cell(row, "b")).as("date as ISO-8601").isEqualTo(LocalDate.of(2026, 11, 1 + i % 28).toString());
            assertThat(cell(row, "p")).isEqualTo(uuid(i).toString());
            // Version 1 records take the reader schema's default.
            assertThat(cell(row, "c")).isEqualTo(i % 2 == 0 ? "EUR" : "USD");
            assertThat(row.rawCells()[0].getTimestamp()).isEqualTo(T0 + i);
        }
        List<ConsumerRecord<byte[], byte[]>> dead = assertSetAside("payments", bad, reasons);
        assertThat(TopicReader.header(dead.get(0), "__streams.errors.message"))
                .contains("starts with 0xC3 where the magic byte 0 is expected");
    }

    /**
     * Avro whose schema names a type registered under another subject (a reference), in two
     * versions, read through the latest version: the referenced schema is fetched with each.
     */
    @Test
    void shouldReadAvroWhoseSchemaRefersToATypeOfAnotherSubject() throws Exception {
        String money = "{\"type\":\"record\",\"name\":\"Money\",\"namespace\":\"shop\",\"fields\":["
                + "{\"name\":\"units\",\"type\":\"long\"},{\"name\":\"currency\",\"type\":\"string\"}]}";
        String v1Text = "{\"type\":\"record\",\"name\":\"Invoice\",\"namespace\":\"shop\",\"fields\":["
                + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"issued\",\"type\":\"long\"},"
                + "{\"name\":\"total\",\"type\":\"shop.Money\"}]}";
        String v2Text = v1Text.replace("]}", ",{\"name\":\"note\",\"type\":\"string\",\"default\":\"none\"}]}");
        registry.register("shop-money-avro", "AVRO", money, List.of());
        List<Map<String, Object>> references = List.of(Map.of("name", "shop.Money", "subject", "shop-money-avro",
                "version", 1));
        int v1 = registry.register("invoices-value", "AVRO", v1Text, references);
        int v2 = registry.register("invoices-value", "AVRO", v2Text, references);
        assertThat(v2).isNotEqualTo(v1);
        Map<String, String> props = base("registry-invoices", "invoices");
        props.put("input.invoices.registry.reader.subject", "invoices-value");
        props.put("input.invoices.time", "issued");
        props.put("input.invoices.key", "id:text");
        props.put("input.invoices.columns", "total.units=u, total.currency=c, note=n");
        RowflowConfig config = new RowflowConfig(props);
        createTopic(config, "invoices");

        Schema[] versions = new Schema[2];
        for (int v = 0; v < 2; v++) {
            Schema.Parser parser = new Schema.Parser();
            parser.parse(money);
            versions[v] = parser.parse(v == 0 ? v1Text : v2Text);
        }
        int good = 100;
        try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), "invoices")) {
            for (int i = 0; i < good; i++) {
                Schema schema = versions[i % 2];
                GenericRecordBuilder invoice = new GenericRecordBuilder(schema).set("id", "inv-" + i).set("issued", T0 + i)
                        .set("total", new GenericRecordBuilder(schema.getField("total").schema())
                                .set("units", 100L + i).set("currency", "EUR").build());
                if (i % 2 == 1) {
                    invoice.set("note", "paid " + i);
                }
                producer.send("k", null, RegistryWire.encode(i % 2 == 0 ? v1 : v2, invoice.build()));
            }
            producer.flush();
        }

        PipelineRuns.runUntilCommitted(config, "invoices");

        Map<ByteBuffer, Result> rows = TableRows.scan(stack.connection("hbase"), "invoices");
        assertThat(rows).hasSize(good);
        RowKeyLayout key = RowKeyLayout.parse("id:text", null);
        for (int i = 0; i < good; i++) {
            Result row = rows.get(ByteBuffer.wrap(key.encode("inv-" + i)));
            assertThat(row).as("row of invoice %d", i).isNotNull();
            assertThat(cell(row, "u")).isEqualTo(Long.toString(100L + i));
            assertThat(cell(row, "c")).isEqualTo("EUR");
            assertThat(cell(row, "n")).as("version 1 records take version 2's default").isEqualTo(
                    i % 2 == 0 ? "none" : "paid " + i);
            assertThat(row.rawCells()[0].getTimestamp()).isEqualTo(T0 + i);
        }
    }

    private static final String MONEY_PROTO = """
            syntax = "proto3";
            package shop.common;
            message Money {
              string currency = 1;
              int64 units = 2;
              int32 nanos = 3;
            }
            """;
    private static final String ORDER_PROTO_V1 = """
            syntax = "proto3";
            package shop;
            import "shop/common/money.proto";
            import "google/protobuf/timestamp.proto";
            message Order {
              enum Status { NEW = 0; SHIPPED = 1; }
              message Line { string sku = 1; uint32 quantity = 2; }
              string id = 1;
              shop.common.Money total = 2;
              Status status = 3;
              google.protobuf.Timestamp placed_at = 4;
              repeated Line lines = 5;
              map<string, string> labels = 6;
              uint64 big = 7;
            """;
    /** Version 1 ends its message here; version 2 adds a field first. */
    private static final String ORDER_PROTO_V2 = ORDER_PROTO_V1 + "  string channel = 8;\n}\n";

    /**
     * Protobuf through the registry as Confluent's serializer writes it, byte for byte: two
     * versions of a schema that imports another through a reference, both forms of the message
     * indexes, and every kind of bad record set aside with its reason.
     */
    @Test
    void shouldReadProtobufOfTwoVersionsWithAnImportedSchemaAndSetBadRecordsAside() throws Exception {
        registry.register("shop-money", "PROTOBUF", MONEY_PROTO, List.of());
        List<Map<String, Object>> money = List.of(Map.of("name", "shop/common/money.proto", "subject", "shop-money",
                "version", 1));
        int v1 = registry.register("orderspb-value", "PROTOBUF", ORDER_PROTO_V1 + "}\n", money);
        int v2 = registry.register("orderspb-value", "PROTOBUF", ORDER_PROTO_V2, money);
        int avro = registry.register("orderspb-avro", V1);
        assertThat(v2).isNotEqualTo(v1);
        Map<String, String> props = base("registry-orderspb", "orderspb");
        props.put("input.orderspb.format", "protobuf-registry");
        props.put("input.orderspb.time", "placed_at");
        props.put("input.orderspb.time.format", "iso8601");
        props.put("input.orderspb.key", "id:text");
        props.put("input.orderspb.columns", "total.units=u, total.currency=c, status=s, big=b, labels.channel=l, "
                + "lines=li, channel=ch");
        RowflowConfig config = new RowflowConfig(props);
        createTopic(config, "orderspb");

        int good = 200;
        byte[] wellFormed = protobufOrder(v1, 0, false);
        byte[] wrongMagic = wellFormed.clone();
        wrongMagic[0] = 1;
        List<byte[]> bad = List.of(
                wrongMagic,
                protobufOrder(avro + 1000, 1, false),
                withIndexes(v1, new byte[] {2, 6}, 2),
                java.util.Arrays.copyOf(wellFormed, wellFormed.length - 3),
                protobufOrder(avro, 4, false));
        List<String> reasons = List.of(
                "is not in the Schema Registry wire format: it starts with 0x01 where the magic byte 0 is expected",
                "invalid value 'schema id " + (avro + 1000) + "': names a schema the registry does not know (404)",
                "invalid value 'message indexes [3]': name no message of schema id " + v1,
                "is not a shop.Order message of schema id " + v1,
                "invalid value 'schema id " + avro + "': is a AVRO schema, format protobuf-registry reads Protobuf");
        try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), "orderspb")) {
            for (int i = 0; i < good; i++) {
                producer.send("k", null, protobufOrder(i % 2 == 0 ? v1 : v2, i, i % 3 == 0));
                if (i % 40 == 20) { // the bad ones in between, in their order
                    producer.send("k", null, bad.get(i / 40));
                }
            }
            producer.flush();
        }

        PipelineRuns.runUntilCommitted(config, "orderspb");

        Map<ByteBuffer, Result> rows = TableRows.scan(stack.connection("hbase"), "orderspb");
        assertThat(rows).hasSize(good);
        RowKeyLayout key = RowKeyLayout.parse("id:text", null);
        for (int i = 0; i < good; i++) {
            Result row = rows.get(ByteBuffer.wrap(key.encode(orderId(i))));
            assertThat(row).as("row of order %d", i).isNotNull();
            assertThat(cell(row, "u")).as("units of the imported Money").isEqualTo(Long.toString(10L + i));
            assertThat(cell(row, "c")).isEqualTo("EUR");
            assertThat(cell(row, "s")).as("enum by name").isEqualTo(i % 4 == 0 ? "NEW" : "SHIPPED");
            assertThat(cell(row, "b")).as("uint64 exact").isEqualTo(Long.toUnsignedString(-1L - i));
            assertThat(cell(row, "l")).isEqualTo("web");
            assertThat(cell(row, "li")).isEqualTo("[{\"sku\":\"A-" + i + "\",\"quantity\":" + (i + 1) + "}]");
            assertThat(cell(row, "ch")).as("a field of version 2 only: unknown to version 1, no cell")
                    .isEqualTo(i % 2 == 0 ? null : "app");
            assertThat(row.rawCells()[0].getTimestamp()).as("Timestamp as the cell time").isEqualTo(T0 + i * 1000L + 250);
        }
        assertSetAside("orderspb", bad, reasons);
    }

    /**
     * JSON Schema through the registry: two versions of a customer schema whose address is a
     * schema of its own (a reference), records in the wire format, and every kind of bad record
     * set aside with its reason -- an invalid one with the validator's message naming the path.
     */
    @Test
    void shouldValidateJsonSchemaRecordsOfTwoVersionsWithAReferenceAndSetBadRecordsAside() throws Exception {
        registry.register("shop-address", "JSON", """
                {"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": "string"}},
                 "required": ["city"]}""", List.of());
        List<Map<String, Object>> address = List.of(Map.of("name", "address.json", "subject", "shop-address",
                "version", 1));
        String v1Text = """
                {"type": "object",
                 "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
                                "joined": {"type": "string"}, "address": {"$ref": "address.json"}},
                 "required": ["id", "name", "joined"]}""";
        int v1 = registry.register("customersjs-value", "JSON", v1Text, address);
        int v2 = registry.register("customersjs-value", "JSON", v1Text.replace("\"joined\": {\"type\": \"string\"},",
                "\"joined\": {\"type\": \"string\"}, \"tier\": {\"enum\": [\"gold\", \"silver\"]},"), address);
        int avro = registry.register("customersjs-avro", V1);
        assertThat(v2).isNotEqualTo(v1);
        Map<String, String> props = base("registry-customersjs", "customersjs");
        props.put("input.customersjs.format", "json-schema-registry");
        props.put("input.customersjs.time", "joined");
        props.put("input.customersjs.time.format", "iso8601");
        props.put("input.customersjs.key", "id:long");
        props.put("input.customersjs.columns", "name=n, address.city=c, tier=t");
        RowflowConfig config = new RowflowConfig(props);
        createTopic(config, "customersjs");

        int good = 200;
        List<byte[]> bad = List.of(
                withIndexes(v1, new byte[0], customerJson(0, false).replace("\"name\"", "\"nom\"")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                withIndexes(v2, new byte[0], customerJson(1, true).replace("\"Ghent\"", "7")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                withIndexes(v1, new byte[0], "{\"id\": 3,".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                withIndexes(avro + 1000, new byte[0], customerJson(3, false)
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                withIndexes(avro, new byte[0], customerJson(4, false).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        List<String> reasons = List.of(
                "does not match its JSON Schema, id " + v1 + ": $: required property 'name' not found",
                "does not match its JSON Schema, id " + v2 + ": $.address.city: integer found, string expected",
                "is not JSON after the header of schema id " + v1,
                "invalid value 'schema id " + (avro + 1000) + "': names a schema the registry does not know (404)",
                "invalid value 'schema id " + avro + "': is a AVRO schema, format json-schema-registry reads JSON Schema");
        try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), "customersjs")) {
            for (int i = 0; i < good; i++) {
                boolean second = i % 2 == 1;
                producer.send("k", null, withIndexes(second ? v2 : v1, new byte[0], customerJson(i, second)
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                if (i % 40 == 20) {
                    producer.send("k", null, bad.get(i / 40));
                }
            }
            producer.flush();
        }

        PipelineRuns.runUntilCommitted(config, "customersjs");

        Map<ByteBuffer, Result> rows = TableRows.scan(stack.connection("hbase"), "customersjs");
        assertThat(rows).hasSize(good);
        RowKeyLayout key = RowKeyLayout.parse("id:long", null);
        for (int i = 0; i < good; i++) {
            Result row = rows.get(ByteBuffer.wrap(key.encode((long) i)));
            assertThat(row).as("row of customer %d", i).isNotNull();
            assertThat(cell(row, "n")).isEqualTo("customer " + i);
            assertThat(cell(row, "c")).as("through the referenced schema").isEqualTo(i % 3 == 0 ? null : "Ghent");
            assertThat(cell(row, "t")).as("version 2's field").isEqualTo(i % 2 == 1 ? "gold" : null);
            assertThat(row.rawCells()[0].getTimestamp()).isEqualTo(T0 + i * 1000L);
        }
        assertSetAside("customersjs", bad, reasons);
    }

    /** Customer {@code i} as JSON; every third without an address (optional), those of version 2 with a tier. */
    private static String customerJson(int i, boolean second) {
        return "{\"id\": " + i + ", \"name\": \"customer " + i + "\", \"joined\": \""
                + Instant.ofEpochMilli(T0 + i * 1000L) + "\""
                + (i % 3 == 0 ? "" : ", \"address\": {\"city\": \"Ghent\", \"zip\": \"9000\"}")
                + (second ? ", \"tier\": \"gold\"" : "") + "}";
    }

    /**
     * Asserts that exactly the records {@code bad} were set aside on {@code topic}'s dead-letter
     * topic, unchanged and in order, each with a reason containing its {@code reasons} entry.
     */
    private static List<ConsumerRecord<byte[], byte[]>> assertSetAside(String topic, List<byte[]> bad,
                                                                       List<String> reasons) throws Exception {
        List<ConsumerRecord<byte[], byte[]>> dead = TopicReader.readAll(stack.kafka().bootstrapServers(),
                topic + ".dead-letter", bad.size());
        assertThat(dead).hasSize(bad.size());
        for (int i = 0; i < bad.size(); i++) {
            assertThat(dead.get(i).value()).as("bad record %d set aside unchanged", i).isEqualTo(bad.get(i));
            assertThat(TopicReader.header(dead.get(i), "__streams.errors.message")).as("reason of bad record %d", i)
                    .contains(reasons.get(i));
        }
        return dead;
    }

    private static String orderId(int i) {
        return "order-" + (100_000 + i);
    }

    /**
     * Order {@code i} in the wire format under schema id {@code id}, its body written field by
     * field as protoc's generated code writes it; the message indexes as Confluent's serializer
     * writes them for the first message (a single 0), or in their long form ({@code longIndexes}:
     * a count of 1, then index 0). Fields out of number order, as a producer may write them; the
     * id comes last, so that cutting the record short cuts it.
     */
    private static byte[] protobufOrder(int id, int i, boolean longIndexes) throws java.io.IOException {
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        com.google.protobuf.CodedOutputStream out = com.google.protobuf.CodedOutputStream.newInstance(body);
        out.writeByteArray(2, message(m -> {
            m.writeString(1, "EUR");
            m.writeInt64(2, 10L + i);
        }));
        if (i % 4 != 0) {
            out.writeEnum(3, 1);
        }
        long millis = T0 + i * 1000L + 250;
        out.writeByteArray(4, message(m -> {
            m.writeInt64(1, Math.floorDiv(millis, 1000));
            m.writeInt32(2, (int) Math.floorMod(millis, 1000) * 1_000_000);
        }));
        out.writeByteArray(5, message(m -> {
            m.writeString(1, "A-" + i);
            m.writeUInt32(2, i + 1);
        }));
        out.writeByteArray(6, message(m -> {
            m.writeString(1, "channel");
            m.writeString(2, "web");
        }));
        out.writeUInt64(7, -1L - i);
        out.writeString(8, "app"); // version 2's field; a version 1 reader keeps it as an unknown field
        out.writeString(1, orderId(i));
        out.flush();
        return withIndexes(id, longIndexes ? new byte[] {2, 0} : new byte[] {0}, body.toByteArray());
    }

    private static byte[] withIndexes(int id, byte[] indexes, int i) throws java.io.IOException {
        byte[] order = protobufOrder(id, i, false);
        return withIndexes(id, indexes, java.util.Arrays.copyOfRange(order, 6, order.length));
    }

    private static byte[] withIndexes(int id, byte[] indexes, byte[] body) {
        return RegistryWire.framed(id, indexes, body);
    }

    private interface Fields {
        void write(com.google.protobuf.CodedOutputStream out) throws java.io.IOException;
    }

    private static byte[] message(Fields fields) throws java.io.IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        com.google.protobuf.CodedOutputStream out = com.google.protobuf.CodedOutputStream.newInstance(bytes);
        fields.write(out);
        out.flush();
        return bytes.toByteArray();
    }

    @Test
    void shouldWaitOutARegistryOutageAndSetNothingAside() throws Exception {
        int first = registry.register("refunds-value", V1);
        int second = registry.register("refunds-value", V2);
        Map<String, String> props = base("registry-outage", "refunds");
        props.put("input.refunds.columns", "amount=a, account=n");
        props.put("input.refunds.registry.retry.backoff.max.ms", "1000");
        RowflowConfig config = new RowflowConfig(props);
        createTopic(config, "refunds");
        String group = config.getString(RowflowConfig.APPLICATION_ID_CONFIG);

        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        boolean sawWaiting = false;
        try (RowflowPipeline pipeline = RowflowPipeline.start(config, meters);
             Admin admin = Admin.create(config.kafkaProperties());
             TopicProducer producer = TopicProducer.open(config.kafkaProperties(), "refunds")) {
            for (int i = 0; i < 200; i++) {
                producer.send("k" + i % 4, null, RegistryWire.encode(first, payment(V1, i)));
            }
            producer.flush();
            PipelineRuns.awaitCommitted(pipeline, admin, config, "refunds", 200);

            // The registry goes away; records of an id rowflow has not fetched yet arrive.
            registry.stop();
            for (int i = 200; i < 400; i++) {
                producer.send("k" + i % 4, null, RegistryWire.encode(second, payment(V2, i)));
            }
            producer.flush();
            long back = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < back) {
                assertThat(pipeline.state()).isNotEqualTo(KafkaStreams.State.ERROR);
                assertThat(deadLetters(admin, "refunds.dead-letter")).as("records set aside during the outage").isZero();
                // The stream thread waits on the first record it cannot read: nothing after it is committed.
                assertThat(Offsets.committed(admin, group, "refunds")).as("committed during the outage").isEqualTo(200);
                sawWaiting |= meters.get("rowflow.registry.waiting.threads").tag("input", "refunds").gauge().value() == 1;
                Thread.sleep(500);
            }
            registry.start();
            PipelineRuns.awaitCommitted(pipeline, admin, config, "refunds", 400);
            assertThat(deadLetters(admin, "refunds.dead-letter")).isZero();
            // What the dashboard and the alert read: a thread was seen waiting, and no longer is.
            assertThat(sawWaiting).as("rowflow_registry_waiting_threads was 1 during the outage").isTrue();
            assertThat(meters.get("rowflow.registry.waiting.threads").tag("input", "refunds").gauge().value()).isZero();
            assertThat(meters.get("rowflow.registry.requests").tags("input", "refunds", "outcome", "fetched")
                    .functionCounter().count()).as("each writer schema fetched once").isEqualTo(2);
            assertThat(meters.get("rowflow.registry.requests").tags("input", "refunds", "outcome", "unavailable")
                    .functionCounter().count()).isPositive();
            assertThat(meters.get("rowflow.registry.cached.schemas").tag("input", "refunds").gauge().value()).isEqualTo(2);
        }

        Map<ByteBuffer, Result> rows = TableRows.scan(stack.connection("hbase"), "refunds");
        assertThat(rows).hasSize(400);
        RowKeyLayout key = RowKeyLayout.parse(KEY, null);
        for (int i = 0; i < 400; i++) {
            Result row = rows.get(ByteBuffer.wrap(key.encode(T0 + i, account(i), uuid(i).toString())));
            assertThat(row).as("row of refund %d", i).isNotNull();
            assertThat(cell(row, "a")).isEqualTo(amount(i).toPlainString());
        }
    }

    @Test
    void shouldResolveThreeVersionsToAReaderSchemaThatRenamesTheKeyFieldAndNeverDeleteARemovedOne(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        Schema v1 = SchemaBuilder.record("Reading").namespace("com.example").fields()
                .requiredString("sensor").requiredLong("ts").requiredDouble("value")
                .name("unit").type().stringType().stringDefault("celsius").endRecord();
        // Version 2 adds a field with a default; version 3 removes unit.
        Schema v2 = SchemaBuilder.record("Reading").namespace("com.example").fields()
                .requiredString("sensor").requiredLong("ts").requiredDouble("value")
                .name("unit").type().stringType().stringDefault("celsius")
                .name("site").type().stringType().stringDefault("plant-1").endRecord();
        Schema v3 = SchemaBuilder.record("Reading").namespace("com.example").fields()
                .requiredString("sensor").requiredLong("ts").requiredDouble("value")
                .name("site").type().stringType().stringDefault("plant-1").endRecord();
        int[] ids = {registry.register("gauges-value", v1), registry.register("gauges-value", v2),
                registry.register("gauges-value", v3)};
        // The reader renames the key field (sensor -> device, by alias) and keeps unit optional.
        java.nio.file.Path reader = dir.resolve("reading.avsc");
        java.nio.file.Files.writeString(reader, """
                {"type": "record", "name": "Reading", "namespace": "com.example", "fields": [
                  {"name": "device", "type": "string", "aliases": ["sensor"]},
                  {"name": "ts", "type": "long"},
                  {"name": "value", "type": "double"},
                  {"name": "unit", "type": ["null", "string"], "default": null},
                  {"name": "site", "type": "string", "default": "plant-1"}]}
                """);
        Map<String, String> props = base("registry-gauges", "gauges");
        props.put("input.gauges.registry.reader.schema", reader.toString());
        props.put("input.gauges.time", "ts");
        props.put("input.gauges.key", "device:text, ts:rts");
        props.put("input.gauges.columns", "value=v, unit=u, site=s");
        RowflowConfig config = new RowflowConfig(props);
        createTopic(config, "gauges");

        int count = 300;
        try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), "gauges")) {
            for (int i = 0; i < count; i++) {
                int version = i % 3;
                Schema schema = version == 0 ? v1 : version == 1 ? v2 : v3;
                GenericRecordBuilder record = new GenericRecordBuilder(schema)
                        .set("sensor", "s-" + i % 7).set("ts", T0 + i).set("value", i / 8.0);
                if (version < 2) {
                    record.set("unit", "kelvin");
                }
                if (version > 0) {
                    record.set("site", "plant-" + (2 + version));
                }
                producer.send("s-" + i % 7, null, RegistryWire.encode(ids[version], record.build()));
            }
            // Version 3 records for the keys of the first ten version 1 records: their unit stays.
            for (int i = 0; i < 30; i += 3) {
                producer.send("s-" + i % 7, null, RegistryWire.encode(ids[2], new GenericRecordBuilder(v3)
                        .set("sensor", "s-" + i % 7).set("ts", T0 + i).set("value", -1.0).set("site", "plant-9").build()));
            }
            producer.flush();
        }

        PipelineRuns.runUntilCommitted(config, "gauges");

        Map<ByteBuffer, Result> rows = TableRows.scan(stack.connection("hbase"), "gauges");
        assertThat(rows).hasSize(count);
        RowKeyLayout key = RowKeyLayout.parse("device:text, ts:rts", null);
        for (int i = 0; i < count; i++) {
            Result row = rows.get(ByteBuffer.wrap(key.encode("s-" + i % 7, T0 + i)));
            assertThat(row).as("row of reading %d, keyed by the renamed field", i).isNotNull();
            int version = i % 3;
            boolean rewritten = version == 0 && i < 30;
            assertThat(cell(row, "v")).isEqualTo(Double.toString(rewritten ? -1.0 : i / 8.0));
            assertThat(cell(row, "s")).as("site of reading %d", i)
                    .isEqualTo(rewritten ? "plant-9" : version == 0 ? "plant-1" : "plant-" + (2 + version));
            // Written by versions 1 and 2; absent from version 3's rows; a version 3 record deletes none.
            assertThat(cell(row, "u")).as("unit of reading %d", i).isEqualTo(version < 2 ? "kelvin" : null);
        }
    }

    /**
     * Debezium change events in Avro, written by Apicurio's Kafka Connect {@code AvroConverter} in the
     * Confluent wire format (the converter registers each schema itself) from the envelope Debezium's
     * PostgreSQL connector builds: the recipe's mapping on format avro-registry keeps every order as
     * the model database has it, after the history and after its last 150 changes again; a
     * truncate is set aside with its reason.
     */
    @Test
    void shouldApplyDebeziumChangeEventsWrittenByConnectsAvroConverter() throws Exception {
        Map<String, String> props = new HashMap<>(ConfigSources.load(
                java.nio.file.Path.of("..", "deploy", "recipes", "debezium.properties"), Map.of()));
        props.keySet().removeIf(key -> key.startsWith("hbase.zookeeper"));
        props.putAll(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "registry-debezium");
        props.put("kafka.commit.interval.ms", "500");
        props.put("input.orders.topic", "shop.public.orders");
        props.put("input.orders.table", "orders_avro");
        props.put("input.orders.format", "avro-registry");
        props.put("input.orders.registry.url", registry.url());
        RowflowConfig config = new RowflowConfig(props);
        createTopic(config, "shop.public.orders");
        OrderChangeHistory history = new OrderChangeHistory(11, T0);
        try (io.apicurio.registry.utils.converter.AvroConverter<Object> converter =
                     new io.apicurio.registry.utils.converter.AvroConverter<>()) {
            converter.configure(Map.of("apicurio.registry.url", registry.apiUrl(),
                    "apicurio.registry.auto-register", "true", "apicurio.registry.as-confluent", "true",
                    "apicurio.registry.use-id", "contentId"), false);
            try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), "shop.public.orders")) {
                for (int n = 0; n < history.events.size(); n++) {
                    OrderChangeHistory.Event event = history.events.get(n);
                    producer.send("{\"id\":" + event.id() + "}", null, event.op() == null ? null
                            : converter.fromConnectData("shop.public.orders", DebeziumAvro.ENVELOPE,
                            DebeziumAvro.change(event, n, event.op())));
                }
                producer.send("{\"id\":0}", null, converter.fromConnectData("shop.public.orders",
                        DebeziumAvro.ENVELOPE, DebeziumAvro.change(history.events.get(0), 0, "t")));
                producer.flush();
            }
            PipelineRuns.runUntilCommitted(config, "shop.public.orders");
            Map<ByteBuffer, Result> rows = TableRows.scan(stack.connection("hbase"), "orders_avro");
            history.assertTablesHold(rows, TableRows.scan(stack.connection("hbase"), "orders_avro_customer"));
            Result first = rows.values().iterator().next();
            assertThat(Bytes.toString(first.getValue(Bytes.toBytes("d"), Bytes.toBytes("x.created_at"))))
                    .as("a MicroTimestamp to the microsecond").isEqualTo("2026-11-23T08:00:00.123456Z");
            assertThat(Bytes.toString(first.getValue(Bytes.toBytes("d"), Bytes.toBytes("x.promised_on"))))
                    .as("a Connect Date").isEqualTo("2026-12-01");

            try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), "shop.public.orders")) {
                int n = history.events.size() - 150;
                for (OrderChangeHistory.Event event : history.replay(150)) {
                    producer.send("{\"id\":" + event.id() + "}", null, event.op() == null ? null
                            : converter.fromConnectData("shop.public.orders", DebeziumAvro.ENVELOPE,
                            DebeziumAvro.change(event, n, event.op())));
                    n++;
                }
                producer.flush();
            }
        }
        PipelineRuns.runUntilCommitted(config, "shop.public.orders");
        history.assertTablesHold(TableRows.scan(stack.connection("hbase"), "orders_avro"),
                TableRows.scan(stack.connection("hbase"), "orders_avro_customer"));
        List<ConsumerRecord<byte[], byte[]>> dead = TopicReader.readAll(stack.kafka().bootstrapServers(),
                "shop.public.orders.dead-letter", 1);
        assertThat(dead).singleElement().satisfies(record -> assertThat(TopicReader.header(record,
                "__streams.errors.message")).startsWith("invalid op 't': is not an operation rowflow applies"));
    }

    /** Change events of {@link OrderChangeHistory} as Debezium's PostgreSQL connector builds them in Kafka Connect's data model. */
    private static final class DebeziumAvro {
        static final org.apache.kafka.connect.data.Schema ROW = org.apache.kafka.connect.data.SchemaBuilder.struct()
                .name("shop.public.orders.Value").optional()
                .field("id", org.apache.kafka.connect.data.Schema.INT32_SCHEMA)
                .field("customer_id", org.apache.kafka.connect.data.Schema.OPTIONAL_INT32_SCHEMA)
                .field("total", org.apache.kafka.connect.data.Decimal.builder(2)
                        .parameter("connect.decimal.precision", "10").optional().build())
                .field("status", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
                .field("note", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
                .field("created_at", org.apache.kafka.connect.data.SchemaBuilder.int64()
                        .name("io.debezium.time.MicroTimestamp").version(1).optional().build())
                .field("promised_on", org.apache.kafka.connect.data.Date.builder().optional().build())
                .build();
        static final org.apache.kafka.connect.data.Schema SOURCE = org.apache.kafka.connect.data.SchemaBuilder.struct()
                .name("io.debezium.connector.postgresql.Source")
                .field("version", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
                .field("connector", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
                .field("name", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
                .field("ts_ms", org.apache.kafka.connect.data.Schema.INT64_SCHEMA)
                .field("snapshot", org.apache.kafka.connect.data.SchemaBuilder.string().name("io.debezium.data.Enum")
                        .version(1).parameter("allowed", "true,last,false,incremental").optional().build())
                .field("db", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
                .field("schema", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
                .field("table", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
                .field("txId", org.apache.kafka.connect.data.Schema.OPTIONAL_INT64_SCHEMA)
                .field("lsn", org.apache.kafka.connect.data.Schema.OPTIONAL_INT64_SCHEMA)
                .build();
        static final org.apache.kafka.connect.data.Schema ENVELOPE = org.apache.kafka.connect.data.SchemaBuilder
                .struct().name("shop.public.orders.Envelope").version(1)
                .field("before", ROW).field("after", ROW).field("source", SOURCE)
                .field("op", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
                .field("ts_ms", org.apache.kafka.connect.data.Schema.OPTIONAL_INT64_SCHEMA)
                .build();

        /**
         * The n-th change, as operation {@code op}: even ones without the before image of an update
         * (pgoutput's default, REPLICA IDENTITY DEFAULT), odd ones with it (REPLICA IDENTITY FULL).
         */
        static org.apache.kafka.connect.data.Struct change(OrderChangeHistory.Event event, int n, String op) {
            boolean fullBefore = n % 2 == 1 || !op.equals("u");
            return new org.apache.kafka.connect.data.Struct(ENVELOPE)
                    .put("before", event.before() == null || !fullBefore ? null : row(event.id(), event.before()))
                    .put("after", event.after() == null ? null : row(event.id(), event.after()))
                    .put("source", new org.apache.kafka.connect.data.Struct(SOURCE).put("version", "2.7.3.Final")
                            .put("connector", "postgresql").put("name", "shop").put("ts_ms", event.ts())
                            .put("snapshot", op.equals("r") ? "true" : "false").put("db", "shop")
                            .put("schema", "public").put("table", "orders").put("txId", 1000L + n)
                            .put("lsn", 24_000_000L + n * 64L))
                    .put("op", op).put("ts_ms", event.ts() + 5);
        }

        private static org.apache.kafka.connect.data.Struct row(long id, OrderChangeHistory.Row row) {
            return new org.apache.kafka.connect.data.Struct(ROW).put("id", (int) id)
                    .put("customer_id", (int) row.customer())
                    .put("total", BigDecimal.valueOf(row.totalCents(), 2))
                    .put("status", row.status()).put("note", row.note())
                    .put("created_at", T0 * 1000 + 123_456)
                    .put("promised_on", java.util.Date.from(LocalDate.of(2026, 12, 1).atStartOfDay(
                            java.time.ZoneOffset.UTC).toInstant()));
        }
    }

    /**
     * {@code rowflow mapping suggest --registry-url} on a topic of two schema versions with a
     * single-object record and a cut one among them: the printed declaration reads the topic
     * through the subject's latest schema, and run unchanged writes every good record once.
     */
    @Test
    void shouldSuggestADeclarationForARegistryTopicThatIngestsItAsItIs(@org.junit.jupiter.api.io.TempDir
                                                                        java.nio.file.Path dir) throws Exception {
        String topic = "suggest-payments";
        int v1 = registry.register(topic + "-value", V1);
        int v2 = registry.register(topic + "-value", V2);
        Map<String, String> props = new HashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "registry-suggest");
        props.put(RowflowConfig.PIPELINES_CONFIG, "");
        props.put("kafka.commit.interval.ms", "500");
        RowflowConfig kafka = new RowflowConfig(props);
        createTopic(kafka, topic);
        int good = 300;
        byte[] wellFormed = RegistryWire.encode(v1, payment(V1, 0));
        List<byte[]> bad = List.of(bytes(new BinaryMessageEncoder<GenericRecord>(GenericData.get(), V1)
                .encode(payment(V1, 0))), java.util.Arrays.copyOf(wellFormed, wellFormed.length - 3));
        try (TopicProducer producer = TopicProducer.open(kafka.kafkaProperties(), topic)) {
            for (int i = 0; i < good; i++) {
                producer.send("k", null, RegistryWire.encode(i % 2 == 0 ? v1 : v2, payment(i % 2 == 0 ? V1 : V2, i)));
                if (i == 100) {
                    bad.forEach(record -> producer.send("k", null, record));
                }
            }
            producer.flush();
        }
        java.nio.file.Path kafkaFile = properties(dir.resolve("kafka.properties"), props);

        java.io.StringWriter printed = new java.io.StringWriter();
        assertThat(cli(printed).execute("mapping", "suggest", "-c", kafkaFile.toString(), "--topic", topic,
                "--input", "sgpayments", "--registry-url", registry.url())).as("printed %s", printed).isZero();
        java.util.Properties suggested = new java.util.Properties();
        suggested.load(new java.io.StringReader(printed.toString()));
        assertThat(suggested.getProperty("input.sgpayments.format")).isEqualTo("avro-registry");
        assertThat(suggested.getProperty("input.sgpayments.registry.url")).isEqualTo(registry.url());
        assertThat(suggested.getProperty("input.sgpayments.registry.reader.subject")).isEqualTo(topic + "-value");
        assertThat(suggested.getProperty("input.sgpayments.time")).isEqualTo("paidAt");
        assertThat(suggested.getProperty("input.sgpayments.time.format")).isEqualTo("epoch-ms");
        String key = suggested.getProperty("input.sgpayments.key");
        assertThat(key).as("printed %s", printed).isEqualTo("bucket(8) | paidAt:ts, paymentId:md5");
        assertThat(printed.toString()).contains("# " + (good + 2) + " records sampled: " + good
                + " would be rows, 2 set aside");

        Map<String, String> run = new HashMap<>(props);
        suggested.stringPropertyNames().forEach(name -> run.put(name, suggested.getProperty(name)));
        java.io.StringWriter checked = new java.io.StringWriter();
        assertThat(cli(checked).execute("mapping", "check", "-c", properties(dir.resolve("run.properties"), run)
                .toString(), "--topic", topic, "--json")).as("check printed %s", checked).isZero();
        var report = new com.fasterxml.jackson.databind.ObjectMapper().readTree(checked.toString());
        assertThat(report.path("good").asLong()).isEqualTo(good);
        assertThat(report.path("collisions").asLong()).isZero();

        PipelineRuns.runUntilCommitted(new RowflowConfig(run), topic);
        Map<ByteBuffer, Result> rows = TableRows.scan(stack.connection("hbase"), "sgpayments");
        assertThat(rows).hasSize(good);
        RowKeyLayout layout = RowKeyLayout.parse(key, null);
        for (int i = 0; i < good; i++) {
            Result row = rows.get(ByteBuffer.wrap(layout.encode(T0 + i, uuid(i).toString())));
            assertThat(row).as("row of payment %d", i).isNotNull();
            assertThat(row.rawCells()).allSatisfy(cell -> assertThat(cell.getTimestamp()).isGreaterThanOrEqualTo(T0));
            assertThat(cell(row, "f.currency")).isEqualTo(i % 2 == 0 ? "EUR" : "USD");
        }
        assertThat(TopicReader.readAll(stack.kafka().bootstrapServers(), topic + ".dead-letter", 2)).hasSize(2);
    }

    private static picocli.CommandLine cli(java.io.StringWriter out) {
        java.io.PrintWriter writer = new java.io.PrintWriter(out, true);
        return dev.rowflow.pipeline.cli.Rowflow.commandLine().setOut(writer).setErr(writer);
    }

    private static java.nio.file.Path properties(java.nio.file.Path file, Map<String, String> props)
            throws java.io.IOException {
        java.util.Properties written = new java.util.Properties();
        written.putAll(props);
        try (var out = java.nio.file.Files.newOutputStream(file)) {
            written.store(out, null);
        }
        return file;
    }


    // ---------------------------------------------------------------- helpers

    private static GenericRecord payment(Schema schema, int i) {
        GenericRecordBuilder record = new GenericRecordBuilder(schema)
                .set("paymentId", uuid(i).toString())
                .set("account", account(i))
                .set("paidAt", T0 + i)
                .set("amount", new Conversions.DecimalConversion().toBytes(amount(i), DECIMAL, DECIMAL.getLogicalType()))
                .set("booked", (int) LocalDate.of(2026, 11, 1 + i % 28).toEpochDay());
        if (schema.getField("currency") != null) {
            record.set("currency", "USD");
        }
        return record.build();
    }

    private static UUID uuid(int i) {
        return new UUID(0x5EED_0000_0000_0000L, i);
    }

    private static String account(int i) {
        return "acct-" + (i % 13);
    }

    private static BigDecimal amount(int i) {
        return BigDecimal.valueOf(1000 + i * 37L, 2);
    }

    private static String cell(Result row, String qualifier) {
        byte[] value = row.getValue(Bytes.toBytes("d"), Bytes.toBytes(qualifier));
        return value == null ? null : Bytes.toString(value);
    }

    private static Map<String, String> base(String applicationId, String input) {
        Map<String, String> props = new HashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(RowflowConfig.PIPELINES_CONFIG, "");
        props.put("kafka.commit.interval.ms", "500");
        props.put("inputs", input);
        props.put("input." + input + ".topic", input);
        props.put("input." + input + ".format", "avro-registry");
        props.put("input." + input + ".registry.url", registry.url());
        props.put("input." + input + ".time", "paidAt");
        props.put("input." + input + ".time.format", "epoch-ms");
        props.put("input." + input + ".key", KEY);
        return props;
    }

    private static void createTopic(RowflowConfig config, String topic) throws Exception {
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, topic, Optional.of(2), Duration.ofSeconds(30));
        }
    }

    private static long deadLetters(Admin admin, String topic) throws Exception {
        return KafkaTopics.endOffsets(admin, topic).values().stream().mapToLong(Long::longValue).sum();
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }
}
