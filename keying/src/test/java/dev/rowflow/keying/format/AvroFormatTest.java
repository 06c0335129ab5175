package dev.rowflow.keying.format;

import dev.rowflow.keying.mapping.FieldPath;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.message.BadHeaderException;
import org.apache.avro.message.MissingSchemaException;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AvroFormatTest {
    private static final Schema HOST = SchemaBuilder.record("Host").namespace("dev.rowflow.test").fields()
            .requiredString("name")
            .endRecord();
    private static final Schema V1 = SchemaBuilder.record("WebEvent").namespace("dev.rowflow.test").fields()
            .name("host").type(HOST).noDefault()
            .requiredLong("timestamp")
            .requiredString("message")
            .name("labels").type().map().values().stringType().noDefault()
            .name("tags").type().array().items().stringType().noDefault()
            .optionalString("user")
            .endRecord();
    /** V1 plus a field with a default: records written with V1 read with it filled in. */
    private static final Schema V2 = SchemaBuilder.record("WebEvent").namespace("dev.rowflow.test").fields()
            .name("host").type(HOST).noDefault()
            .requiredLong("timestamp")
            .requiredString("message")
            .name("labels").type().map().values().stringType().noDefault()
            .name("tags").type().array().items().stringType().noDefault()
            .optionalString("user")
            .name("region").type().stringType().stringDefault("eu-west")
            .endRecord();

    private static Map<String, Object> obj(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    private static byte[] v1Record() throws Exception {
        GenericRecord host = new GenericData.Record(HOST);
        host.put("name", "web-01");
        GenericRecord record = new GenericData.Record(V1);
        record.put("host", host);
        record.put("timestamp", 1795334400123L);
        record.put("message", "disk full");
        record.put("labels", Map.of("app", "shop"));
        record.put("tags", List.of("prod", "disk"));
        record.put("user", null);
        ByteBuffer encoded = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), V1).encode(record);
        byte[] bytes = new byte[encoded.remaining()];
        encoded.get(bytes);
        return bytes;
    }

    /** The single-object encoding header: C3 01 and the schema's CRC-64-AVRO fingerprint, little-endian. */
    private static byte[] header(Schema schema) {
        return ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN).put((byte) 0xC3).put((byte) 0x01)
                .putLong(SchemaNormalization.parsingFingerprint64(schema)).array();
    }

    @Test
    void shouldReadAnEarlierVersionsRecordWithTheAddedFieldsDefault() throws Exception {
        AvroFormat format = new AvroFormat(V2, List.of(V1));

        ReadRecord read = format.read(v1Record());

        assertThat(read.tree().keySet()).containsExactly("host", "timestamp", "message", "labels", "tags", "region");
        assertThat(read.tree()).isEqualTo(obj(
                "host", obj("name", "web-01"),
                "timestamp", 1795334400123L,
                "message", "disk full",
                "labels", obj("app", "shop"),
                "tags", List.of("prod", "disk"),
                "region", "eu-west"));
        assertThat(format.name()).isEqualTo("avro");
        assertThat(format.readerSchema()).isSameAs(V2);
    }

    @Test
    void shouldKeepTheWholeRecordReEncodedWithTheReaderSchema() throws Exception {
        byte[] written = v1Record();
        assertThat(Arrays.copyOf(written, 10)).isEqualTo(header(V1));

        byte[] canonical = new AvroFormat(V2, List.of(V1)).read(written).canonical().get();

        assertThat(Arrays.copyOf(canonical, 10)).isEqualTo(header(V2));
        GenericRecord decoded = new BinaryMessageDecoder<GenericRecord>(GenericData.get(), V2).decode(canonical);
        assertThat(decoded.getSchema()).isEqualTo(V2);
        assertThat(decoded.get("region").toString()).isEqualTo("eu-west");
        assertThat(decoded.get("message").toString()).isEqualTo("disk full");
        assertThat(((GenericRecord) decoded.get("host")).get("name").toString()).isEqualTo("web-01");
        assertThat(decoded.get("timestamp")).isEqualTo(1795334400123L);
        assertThat(decoded.get("user")).isNull();
    }

    @Test
    void shouldRefuseARecordOfAnUnknownSchema() throws Exception {
        AvroFormat v2Only = new AvroFormat(V2, List.of());
        byte[] written = v1Record();

        assertThatThrownBy(() -> v2Only.read(written)).isExactlyInstanceOf(MissingSchemaException.class)
                .hasMessage("Cannot resolve schema for fingerprint: " + SchemaNormalization.parsingFingerprint64(V1));
    }

    @Test
    void shouldRefuseWhatIsNoSingleObjectEncodingAsAvrosDecoderDoes() throws Exception {
        AvroFormat format = new AvroFormat(V1, List.of());
        byte[] written = v1Record();
        byte[] otherVersion = written.clone();
        otherVersion[1] = 0x02;

        assertThatThrownBy(() -> format.read(Arrays.copyOf(written, 9))).isExactlyInstanceOf(BadHeaderException.class)
                .hasMessage("Not enough header bytes");
        assertThatThrownBy(() -> format.read(otherVersion)).isExactlyInstanceOf(BadHeaderException.class)
                .hasMessage("Unrecognized header bytes: 0xC3 0x02");
        assertThatThrownBy(() -> format.read(Arrays.copyOf(written, written.length - 3)))
                .as("a body cut short").hasRootCauseInstanceOf(java.io.EOFException.class);
        assertThat(format.read(written).tree().get("message")).isEqualTo("disk full");
    }

    @Test
    void shouldRefuseASchemaThatIsNoRecord() {
        assertThatThrownBy(() -> new AvroFormat(Schema.create(Schema.Type.STRING), List.of()))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("Avro schema string is a STRING, a record schema is expected");
    }

    @Test
    void shouldYieldEveryPathTheReaderSchemaHas() {
        AvroFormat format = new AvroFormat(V2, List.of(V1));

        assertThat(format.cannotYield(FieldPath.parse("host.name"))).isEmpty();
        assertThat(format.cannotYield(FieldPath.parse("host"))).isEmpty();
        assertThat(format.cannotYield(FieldPath.parse("region"))).isEmpty();
        assertThat(format.cannotYield(FieldPath.parse("user"))).isEmpty();
        assertThat(format.cannotYield(FieldPath.parse("labels.anything"))).isEmpty();
        assertThat(format.cannotYield(FieldPath.parse("tags[3]"))).isEmpty();
    }

    @Test
    void shouldSayWhichFieldsARecordHasForAMissingOne() {
        AvroFormat format = new AvroFormat(V2, List.of(V1));

        assertThat(format.cannotYield(FieldPath.parse("hostname"))).isEqualTo(Optional.of(
                "Avro record WebEvent has no field 'hostname' (it has host, timestamp, message, labels, tags, user, region)"));
        assertThat(format.cannotYield(FieldPath.parse("host.ip"))).isEqualTo(Optional.of(
                "WebEvent.host has no field 'ip' (it has name)"));
    }

    @Test
    void shouldRefuseAPathThroughAString() {
        AvroFormat format = new AvroFormat(V2, List.of(V1));

        assertThat(format.cannotYield(FieldPath.parse("message.text"))).isEqualTo(Optional.of(
                "WebEvent.message is a string, so message.text has nothing under it"));
        assertThat(format.cannotYield(FieldPath.parse("user.id"))).isEqualTo(Optional.of(
                "WebEvent.user is a string, so user.id has nothing under it"));
        assertThat(format.cannotYield(FieldPath.parse("host.name.first"))).isEqualTo(Optional.of(
                "WebEvent.host.name is a string, so host.name.first has nothing under it"));
        assertThat(format.cannotYield(FieldPath.parse("host[0]"))).isEqualTo(Optional.of(
                "WebEvent.host is no array, so host[0] has no element there"));
    }
}
