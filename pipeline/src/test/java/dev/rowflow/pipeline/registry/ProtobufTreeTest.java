package dev.rowflow.pipeline.registry;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import dev.rowflow.keying.mapping.RecordTree;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Protobuf messages of a {@code .proto} schema that imports another (through a registry
 * reference), as record trees: every kind of field a producer writes.
 */
class ProtobufTreeTest {
    static final String MONEY = """
            syntax = "proto3";
            package shop.common;
            message Money {
              string currency = 1;
              int64 units = 2;
              int32 nanos = 3;
            }
            """;
    static final String ORDER = """
            syntax = "proto3";
            package shop;
            import "shop/common/money.proto";
            import "google/protobuf/timestamp.proto";
            import "google/protobuf/duration.proto";
            import "google/protobuf/wrappers.proto";
            import "google/protobuf/struct.proto";
            message Order {
              enum Status { NEW = 0; SHIPPED = 1; }
              message Line { string sku = 1; uint32 quantity = 2; }
              string id = 1;
              shop.common.Money total = 2;
              Status status = 3;
              google.protobuf.Timestamp placed_at = 4;
              repeated Line lines = 5;
              map<string, string> labels = 6;
              oneof payment { string card = 7; string iban = 8; }
              uint64 big = 9;
              fixed32 small = 10;
              bytes digest = 11;
              optional int32 priority = 12;
              google.protobuf.Int64Value customer = 13;
              google.protobuf.Duration wait = 14;
              google.protobuf.Struct extra = 15;
              double ratio = 16;
              bool gift = 17;
              sint64 delta = 18;
              repeated sint32 codes = 19;
              map<string, shop.common.Money> prices = 20;
            }
            """;

    static FileDescriptor orderFile() throws Exception {
        SchemaRegistryClient.RegisteredSchema money = new SchemaRegistryClient.RegisteredSchema("PROTOBUF", MONEY,
                List.of());
        SchemaRegistryClient.RegisteredSchema order = new SchemaRegistryClient.RegisteredSchema("PROTOBUF", ORDER,
                List.of(new SchemaRegistryClient.Reference("shop/common/money.proto", "money", 1)));
        Map<String, SchemaRegistryClient.RegisteredSchema> references = new LinkedHashMap<>();
        references.put("shop/common/money.proto", money);
        return RegistryProtobufFormat.fileDescriptor("order.proto", order, references);
    }

    @Test
    void shouldMakeTheTreeOfEveryKindOfField() throws Exception {
        Descriptor order = orderFile().findMessageTypeByName("Order");
        Message message = builder(order)
                .set("id", "o-1")
                .set("total", builder(order.findFieldByName("total").getMessageType())
                        .set("currency", "EUR").set("units", 12L).set("nanos", 500_000_000).build())
                .set("status", order.findEnumTypeByName("Status").findValueByName("SHIPPED"))
                .set("placed_at", builder(order.findFieldByName("placed_at").getMessageType())
                        .set("seconds", 1_795_000_000L).set("nanos", 250_000_000).build())
                .add("lines", builder(order.findNestedTypeByName("Line")).set("sku", "A").set("quantity", -1).build())
                .add("lines", builder(order.findNestedTypeByName("Line")).set("sku", "B").set("quantity", 2).build())
                .add("labels", entry(order, "labels", "channel", "web"))
                .set("iban", "DE02")
                .set("big", -1L)
                .set("small", -2)
                .set("digest", ByteString.copyFrom(new byte[] {1, 2, (byte) 0xFF}))
                .set("customer", builder(order.findFieldByName("customer").getMessageType()).set("value", 42L).build())
                .set("wait", builder(order.findFieldByName("wait").getMessageType())
                        .set("seconds", 1L).set("nanos", 500_000_000).build())
                .set("extra", struct(order.findFieldByName("extra").getMessageType()))
                .set("ratio", 0.25)
                .set("delta", -7L)
                .build();
        // Through the wire: what the format parses is what the producer serialized.
        Map<String, Object> tree = ProtobufTree.read(order, CodedInputStream.newInstance(message.toByteArray()));

        assertThat(tree.get("id")).isEqualTo("o-1");
        assertThat(tree.get("total")).isEqualTo(Map.of("currency", "EUR", "units", 12L, "nanos", 500_000_000L));
        assertThat(tree.get("status")).isEqualTo("SHIPPED");
        assertThat(tree.get("placed_at")).isEqualTo("2026-11-18T11:06:40.250Z");
        assertThat(tree.get("lines")).isEqualTo(List.of(Map.of("sku", "A", "quantity", 4_294_967_295L),
                Map.of("sku", "B", "quantity", 2L)));
        assertThat(tree.get("labels")).isEqualTo(Map.of("channel", "web"));
        assertThat(tree).containsEntry("iban", "DE02").doesNotContainKey("card");
        assertThat(tree.get("big")).as("uint64 beyond a long, exact").isEqualTo(new BigInteger("18446744073709551615"));
        assertThat(tree.get("small")).as("fixed32 unsigned").isEqualTo(4_294_967_294L);
        assertThat((byte[]) tree.get("digest")).containsExactly(1, 2, 0xFF);
        assertThat(tree).as("optional scalar not set: absent").doesNotContainKey("priority");
        assertThat(tree.get("customer")).as("a wrapper as its value").isEqualTo(42L);
        assertThat(tree.get("wait")).isEqualTo("1.5s");
        Map<?, ?> extra = (Map<?, ?>) tree.get("extra");
        assertThat(extra.get("note")).isEqualTo("fragile");
        assertThat(extra.get("weight")).isEqualTo(new java.math.BigDecimal("2.5"));
        assertThat(extra.get("count")).isEqualTo(3L);
        assertThat(extra.get("gone")).isSameAs(RecordTree.NULL);
        assertThat(extra.get("tags")).isEqualTo(List.of("a", true));
        assertThat(tree.get("ratio")).isEqualTo(0.25);
        assertThat(tree.get("gift")).as("proto3 scalar unset: its default").isEqualTo(false);
        assertThat(tree.get("delta")).isEqualTo(-7L);
        assertThat(List.copyOf(tree.keySet()).subList(0, 3)).as("fields in field order")
                .containsExactly("id", "total", "status");
    }

    @Test
    void shouldTellTheNameOfAnEnumValueAndTheNumberOfOneTheSchemaDoesNotName() throws Exception {
        Descriptor order = orderFile().findMessageTypeByName("Order");
        // Status 7, written by a producer with a newer schema: a proto3 enum keeps the number.
        byte[] bytes = {0x18, 0x07};
        Map<String, Object> tree = ProtobufTree.read(order, CodedInputStream.newInstance(bytes));
        assertThat(tree.get("status")).isEqualTo(7L);
        assertThat(tree.get("lines")).isEqualTo(List.of());
        assertThat(tree.get("id")).isEqualTo("");
        assertThat(tree).doesNotContainKey("total");
    }

    @Test
    void shouldFollowTheWireRules() throws Exception {
        Descriptor order = orderFile().findMessageTypeByName("Order");
        Descriptor money = order.findFieldByName("total").getMessageType();
        byte[] written = builder(order)
                .set("id", "o-1")
                .set("total", builder(money).set("currency", "EUR").set("units", 12L).set("nanos", 5).build())
                .add("codes", 1).add("codes", -2).add("codes", 300)
                .add("prices", builder(order.findFieldByName("prices").getMessageType()).set("key", "list").build())
                .build().toByteArray();
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        bytes.writeBytes(written);
        com.google.protobuf.CodedOutputStream more = com.google.protobuf.CodedOutputStream.newInstance(bytes);
        more.writeSInt32(19, 5); // the repeated field once more, not packed
        more.writeString(1, "o-2"); // a field written twice: the last counts
        more.writeUInt64(99, 1); // a field number the schema does not have
        more.writeUInt64(1, 7); // the id with another wire type: unknown
        more.writeByteArray(2, builder(money).set("units", 5L).build().toByteArray()); // a message twice: merged
        more.flush();

        Map<String, Object> tree = ProtobufTree.read(order, CodedInputStream.newInstance(bytes.toByteArray()));

        assertThat(tree.get("codes")).as("packed, then one more not packed").isEqualTo(List.of(1L, -2L, 300L, 5L));
        assertThat(tree.get("id")).isEqualTo("o-2");
        assertThat(tree.get("total")).isEqualTo(Map.of("currency", "EUR", "units", 5L, "nanos", 5L));
        assertThat(tree.get("prices")).as("a map entry without its value: the value's default")
                .isEqualTo(Map.of("list", Map.of("currency", "", "units", 0L, "nanos", 0L)));
        assertThat(tree).doesNotContainKey("99");
        assertThatThrownBy(() -> ProtobufTree.read(order, CodedInputStream.newInstance(
                java.util.Arrays.copyOf(written, written.length - 1)))).isInstanceOf(java.io.IOException.class);
    }

    private static Message struct(Descriptor struct) {
        FieldDescriptor fields = struct.findFieldByName("fields");
        Descriptor value = fields.getMessageType().findFieldByName("value").getMessageType();
        DynamicMessage.Builder s = DynamicMessage.newBuilder(struct);
        Message list = DynamicMessage.newBuilder(value.findFieldByName("list_value").getMessageType())
                .addRepeatedField(value.findFieldByName("list_value").getMessageType().findFieldByName("values"),
                        DynamicMessage.newBuilder(value).setField(value.findFieldByName("string_value"), "a").build())
                .addRepeatedField(value.findFieldByName("list_value").getMessageType().findFieldByName("values"),
                        DynamicMessage.newBuilder(value).setField(value.findFieldByName("bool_value"), true).build())
                .build();
        Map<String, Message> entries = new LinkedHashMap<>();
        entries.put("note", DynamicMessage.newBuilder(value).setField(value.findFieldByName("string_value"), "fragile")
                .build());
        entries.put("weight", DynamicMessage.newBuilder(value).setField(value.findFieldByName("number_value"), 2.5)
                .build());
        entries.put("count", DynamicMessage.newBuilder(value).setField(value.findFieldByName("number_value"), 3.0)
                .build());
        entries.put("gone", DynamicMessage.newBuilder(value).setField(value.findFieldByName("null_value"),
                value.findFieldByName("null_value").getEnumType().findValueByNumber(0)).build());
        entries.put("tags", DynamicMessage.newBuilder(value).setField(value.findFieldByName("list_value"), list)
                .build());
        entries.forEach((key, v) -> s.addRepeatedField(fields, DynamicMessage.newBuilder(fields.getMessageType())
                .setField(fields.getMessageType().findFieldByName("key"), key)
                .setField(fields.getMessageType().findFieldByName("value"), v).build()));
        return s.build();
    }

    private static Message entry(Descriptor type, String field, String key, String value) {
        Descriptor entry = type.findFieldByName(field).getMessageType();
        return DynamicMessage.newBuilder(entry).setField(entry.findFieldByName("key"), key)
                .setField(entry.findFieldByName("value"), value).build();
    }

    private static Builder builder(Descriptor type) {
        return new Builder(type);
    }

    /** A DynamicMessage builder by field names. */
    private static final class Builder {
        private final Descriptor type;
        private final DynamicMessage.Builder builder;

        Builder(Descriptor type) {
            this.type = type;
            this.builder = DynamicMessage.newBuilder(type);
        }

        Builder set(String field, Object value) {
            builder.setField(type.findFieldByName(field), value);
            return this;
        }

        Builder add(String field, Object value) {
            builder.addRepeatedField(type.findFieldByName(field), value);
            return this;
        }

        Message build() {
            return builder.build();
        }
    }
}
