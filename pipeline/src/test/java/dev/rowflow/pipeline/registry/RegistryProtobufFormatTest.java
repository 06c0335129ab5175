package dev.rowflow.pipeline.registry;

import com.sun.net.httpserver.HttpServer;
import dev.rowflow.keying.InvalidEventException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The message indexes of the Protobuf wire format: which message of a file with several, and
 * nested ones, a record is -- over a registry answering on loopback.
 */
class RegistryProtobufFormatTest {
    private static final String EVENTS = """
            syntax = "proto3";
            package shop;
            message Created { string id = 1; }
            message Cancelled {
              string id = 1;
              message Reason { string code = 1; int32 attempts = 2; }
              Reason reason = 2;
            }
            """;

    private HttpServer server;

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private RegistryProtobufFormat format() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                String body = exchange.getRequestURI().getPath().equals("/schemas/ids/5")
                        ? "{\"schemaType\":\"PROTOBUF\",\"schema\":" + new com.fasterxml.jackson.databind.ObjectMapper()
                        .writeValueAsString(EVENTS) + "}" : "{\"error_code\":40403}";
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(body.startsWith("{\"error") ? 404 : 200, bytes.length);
                exchange.getResponseBody().write(bytes);
            }
        });
        server.start();
        SchemaRegistryClient client = new SchemaRegistryClient(List.of(URI.create("http://127.0.0.1:"
                + server.getAddress().getPort())), Optional.empty(), null, null, Duration.ofSeconds(2),
                Duration.ofMillis(100));
        return new RegistryProtobufFormat(client, 10);
    }

    /** Schema id 5, then {@code indexes} (each byte a zig-zag varint below 64), then {@code body}. */
    private static byte[] record(int[] indexes, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {0, 0, 0, 0, 5});
        for (int index : indexes) {
            out.write(index << 1);
        }
        out.writeBytes(body);
        return out.toByteArray();
    }

    @Test
    void shouldReadTheMessageTheIndexesName() throws Exception {
        RegistryProtobufFormat format = format();
        byte[] id = {0x0A, 0x02, 'o', '7'}; // field 1, "o7"

        // A single 0: the first message. The long form of the same: a count of 1, then index 0.
        assertThat(format.read(record(new int[] {0}, id)).tree()).isEqualTo(Map.of("id", "o7"));
        assertThat(format.read(record(new int[] {1, 0}, id)).tree()).isEqualTo(Map.of("id", "o7"));
        // [1]: the second top-level message, whose unset message field is absent.
        assertThat(format.read(record(new int[] {1, 1}, id)).tree()).isEqualTo(Map.of("id", "o7"));
        // [1, 0]: the first message nested in the second.
        byte[] reason = {0x0A, 0x03, 'd', 'u', 'p', 0x10, 0x02}; // code "dup", attempts 2
        assertThat(format.read(record(new int[] {2, 1, 0}, reason)).tree())
                .isEqualTo(Map.of("code", "dup", "attempts", 2L));
        // The nested message inside the second one's field.
        byte[] cancelled = new byte[4 + 2 + reason.length];
        System.arraycopy(id, 0, cancelled, 0, 4);
        cancelled[4] = 0x12;
        cancelled[5] = (byte) reason.length;
        System.arraycopy(reason, 0, cancelled, 6, reason.length);
        assertThat(format.read(record(new int[] {1, 1}, cancelled)).tree())
                .isEqualTo(Map.of("id", "o7", "reason", Map.of("code", "dup", "attempts", 2L)));

        assertThatThrownBy(() -> format.read(record(new int[] {2, 1, 1}, reason)))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("message indexes [1, 1]").hasMessageContaining("name no message of schema id 5");
        assertThatThrownBy(() -> format.read(record(new int[] {1, 2}, id)))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("message indexes [2]");
        assertThatThrownBy(() -> format.read(record(new int[] {0}, new byte[] {0x0A, 0x09, 'o'})))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("is not a shop.Created message of schema id 5");
        assertThatThrownBy(() -> format.read(new byte[] {0, 0, 0, 0, 6, 0}))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("names a schema the registry does not know (404)");
    }
}
