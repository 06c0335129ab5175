package dev.rowflow.pipeline.registry;

import com.google.protobuf.Descriptors.Descriptor;
import com.sun.net.httpserver.HttpServer;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.SchemaKind;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The kinds a Protobuf message gives a record tree's paths, as start-up checks a declaration
 * against a subject's latest schema ({@code registry.reader.subject} with
 * {@code format=protobuf-registry}).
 */
class ProtobufSchemaKindsTest {
    private static final String EVENT = """
            syntax = "proto3";
            package shop;
            import "google/protobuf/timestamp.proto";
            message Event {
              string host = 1;
              int64 offset = 2;
              repeated string tags = 3;
              map<string, int64> counts = 4;
              Geo geo = 5;
              google.protobuf.Timestamp at = 6;
              double ratio = 7;
              enum Level { INFO = 0; WARN = 1; }
              Level level = 8;
              bool sampled = 9;
              repeated Geo stops = 10;
            }
            message Geo { double lat = 1; string city = 2; }
            """;

    private static Descriptor event() throws Exception {
        return RegistryProtobufFormat.fileDescriptor("event.proto", new SchemaRegistryClient.RegisteredSchema(
                "PROTOBUF", EVENT, List.of()), Map.of()).findMessageTypeByName("Event");
    }

    private static Optional<SchemaKind> kind(String path) throws Exception {
        return ProtobufSchemaKinds.kindAt(event(), FieldPath.parse(path));
    }

    @Test
    void shouldGiveTheKindOfEachPathAsTheRecordTreeHasIt() throws Exception {
        assertThat(kind("host")).contains(SchemaKind.TEXT);
        assertThat(kind("offset")).contains(SchemaKind.WHOLE_NUMBER);
        assertThat(kind("tags")).contains(SchemaKind.ARRAY);
        assertThat(kind("tags[0]")).contains(SchemaKind.TEXT);
        assertThat(kind("counts")).contains(SchemaKind.OBJECT);
        assertThat(kind("counts.any")).contains(SchemaKind.WHOLE_NUMBER);
        assertThat(kind("geo")).contains(SchemaKind.OBJECT);
        assertThat(kind("geo.city")).contains(SchemaKind.TEXT);
        assertThat(kind("stops[1].city")).contains(SchemaKind.TEXT);
        assertThat(kind("level")).contains(SchemaKind.TEXT); // an enum value's name
        assertThat(kind("sampled")).contains(SchemaKind.BOOLEAN);
        // The tree makes text of a Timestamp, and a double is left to the records.
        assertThat(kind("at")).isEmpty();
        assertThat(kind("ratio")).isEmpty();
        assertThat(kind("geo.lat")).isEmpty();

        assertThat(ProtobufSchemaKinds.cannotYield(event(), FieldPath.parse("hostname")))
                .contains("message shop.Event has no field 'hostname'");
        assertThat(ProtobufSchemaKinds.cannotYield(event(), FieldPath.parse("geo.town")))
                .contains("message shop.Geo has no field 'town'");
        assertThat(ProtobufSchemaKinds.cannotYield(event(), FieldPath.parse("host.name"))).isPresent();
        assertThat(ProtobufSchemaKinds.cannotYield(event(), FieldPath.parse("at.seconds"))).isEmpty();
    }

    @Test
    void shouldRefuseAtStartADeclarationTheSubjectsLatestSchemaCanNeverHold() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                String body = exchange.getRequestURI().getPath().equals("/subjects/events-value/versions/latest")
                        ? "{\"schemaType\":\"PROTOBUF\",\"schema\":" + new com.fasterxml.jackson.databind.ObjectMapper()
                        .writeValueAsString(EVENT) + "}" : "{\"error_code\":40401}";
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(body.startsWith("{\"error") ? 404 : 200, bytes.length);
                exchange.getResponseBody().write(bytes);
            }
        });
        server.start();
        try {
            Map<String, String> props = new HashMap<>(Map.of("kafka.bootstrap.servers", "b:9092", "pipelines", "",
                    "inputs", "events", "input.events.topic", "events", "input.events.format", "protobuf-registry",
                    "input.events.registry.url", "http://127.0.0.1:" + server.getAddress().getPort(),
                    "input.events.registry.reader.subject", "events-value", "input.events.time", "$timestamp",
                    "input.events.key", "$timestamp:ts, host:long", "input.events.columns", "host=h"));

            assertThatThrownBy(() -> PipelinePlan.build(new RowflowConfig(props), null))
                    .isInstanceOf(ConfigException.class).hasMessage("Invalid value $timestamp:ts, host:long for "
                            + "configuration input.events.key: part 'host:long': the schema types host as text, which a "
                            + "long key part never takes: every record would be set aside (key it as text, or convert "
                            + "it with long(...))");
            props.put("input.events.key", "$timestamp:ts, hostname:text");
            assertThatThrownBy(() -> PipelinePlan.build(new RowflowConfig(props), null))
                    .isInstanceOf(ConfigException.class).hasMessageContaining("message shop.Event has no field "
                            + "'hostname'");
            props.put("input.events.key", "$timestamp:ts, host:text, offset:long");
            try (PipelinePlan plan = PipelinePlan.build(new RowflowConfig(props), null)) {
                assertThat(plan.declaredInput("events")).isPresent();
            }
        } finally {
            server.stop(0);
        }
    }
}
