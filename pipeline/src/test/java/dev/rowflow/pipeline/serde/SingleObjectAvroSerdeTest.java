package dev.rowflow.pipeline.serde;

import dev.rowflow.events.LogEvent;
import dev.rowflow.events.Severity;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SingleObjectAvroSerdeTest {
    private final SingleObjectAvroSerde<LogEvent> serde = EventSerdes.logEvents();

    private static LogEvent event() {
        return LogEvent.newBuilder().setHostname("web-01").setTimestamp(Instant.ofEpochMilli(1364248490000L))
                .setEventType("login").setMessage("hello").setSeverity(Severity.WARN)
                .setAttributes(Map.of("pid", "7")).build();
    }

    @Test
    void shouldRoundTripWithTheSingleObjectHeader() {
        byte[] bytes = serde.serializer().serialize("logs", event());

        assertThat(Arrays.copyOf(bytes, 2)).containsExactly(0xC3, 0x01);
        assertThat(serde.deserializer().deserialize("logs", bytes)).isEqualTo(event());
    }

    @Test
    void shouldReadARecordWrittenWithAnOlderSchemaVersionItKnows() throws Exception {
        // Version 1 of the schema had neither severity nor attributes.
        Schema v1 = new Schema.Parser().parse("""
                {"type":"record","name":"LogEvent","namespace":"dev.rowflow.events","fields":[
                  {"name":"hostname","type":"string"},
                  {"name":"timestamp","type":{"type":"long","logicalType":"timestamp-millis"}},
                  {"name":"eventType","type":"string"},
                  {"name":"message","type":"string"}]}""");
        GenericRecord old = new GenericData.Record(v1);
        old.put("hostname", "web-01");
        old.put("timestamp", 1364248490000L);
        old.put("eventType", "login");
        old.put("message", "hello");
        ByteBuffer encoded = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), v1).encode(old);
        BinaryMessageDecoder<LogEvent> decoder = LogEvent.getDecoder();
        decoder.addSchema(v1);
        SingleObjectAvroSerde<LogEvent> evolving = new SingleObjectAvroSerde<>(LogEvent.getEncoder(), decoder);

        LogEvent read = evolving.deserializer().deserialize("logs", Arrays.copyOfRange(encoded.array(),
                encoded.arrayOffset(), encoded.arrayOffset() + encoded.remaining()));

        assertThat(read.getHostname()).isEqualTo("web-01");
        assertThat(read.getSeverity()).isNull();
        assertThat(read.getAttributes()).isEmpty();
    }

    @Test
    void shouldSayWhatIsWrongWithBytesThatAreNotAKnownRecord() {
        assertThatThrownBy(() -> serde.deserializer().deserialize("logs", "plain text".getBytes()))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("logs").hasMessageContaining("10 bytes")
                .hasMessageContaining("not a single-object Avro record");
        byte[] unknownFingerprint = serde.serializer().serialize("logs", event());
        unknownFingerprint[5] ^= 0x55;
        assertThatThrownBy(() -> serde.deserializer().deserialize("logs", unknownFingerprint))
                .isInstanceOf(SerializationException.class).hasMessageContaining("MissingSchemaException");
    }

    @Test
    void shouldMapTombstonesToNull() {
        assertThat(serde.deserializer().deserialize("logs", null)).isNull();
        assertThat(serde.serializer().serialize("logs", null)).isNull();
    }
}
