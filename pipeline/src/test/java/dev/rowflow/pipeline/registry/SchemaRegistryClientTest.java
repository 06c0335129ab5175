package dev.rowflow.pipeline.registry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.rowflow.pipeline.security.TestCertificates;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the registry client does with each kind of answer, over real HTTP(S) on loopback: the
 * answers a live registry rarely gives on demand (5xx, 401, a Protobuf schema, a certificate of
 * one's own CA). The registry itself is exercised by SchemaRegistryIT against Apicurio.
 */
class SchemaRegistryClientTest {
    private static final String SCHEMA = "{\"type\":\"record\",\"name\":\"A\",\"fields\":[{\"name\":\"x\",\"type\":\"string\"}]}";
    private static final String BODY = "{\"schema\":" + quote(SCHEMA) + "}";

    private final List<HttpServer> servers = new ArrayList<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopServers() {
        servers.forEach(server -> server.stop(0));
    }

    private interface Handler {
        void handle(HttpExchange exchange) throws IOException;
    }

    private URI serve(Handler handler) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        return start(server, handler, "http");
    }

    private URI start(HttpServer server, Handler handler, String scheme) {
        server.createContext("/", exchange -> {
            requests.add(exchange.getLocalAddress().getPort() + " " + exchange.getRequestURI());
            try (exchange) {
                handler.handle(exchange);
            }
        });
        server.start();
        servers.add(server);
        return URI.create(scheme + "://127.0.0.1:" + server.getAddress().getPort());
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private static SchemaRegistryClient client(List<URI> urls, Optional<String> auth) {
        return new SchemaRegistryClient(urls, auth, null, null, Duration.ofSeconds(2), Duration.ofMillis(200));
    }

    @Test
    void shouldFailOverToTheNextUrlAndStayWithTheOneThatAnswered() throws Exception {
        URI down = URI.create("http://127.0.0.1:" + closedPort());
        URI up = serve(exchange -> answer(exchange, 200, BODY));
        SchemaRegistryClient client = client(List.of(down, up), Optional.empty());

        assertThat(client.schemaById(7)).contains(new Schema.Parser().parse(SCHEMA));
        assertThat(client.schemaById(8)).isPresent();

        // The second request goes straight to the URL that answered.
        assertThat(requests).containsExactly(up.getPort() + " /schemas/ids/7", up.getPort() + " /schemas/ids/8");
    }

    @Test
    void shouldWaitOutServerErrorsAndReturnEmptyForAnUnknownId() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        URI url = serve(exchange -> {
            if (exchange.getRequestURI().getPath().endsWith("/404")) {
                answer(exchange, 404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");
            } else if (calls.incrementAndGet() <= 3) {
                answer(exchange, 503, "{\"error_code\":50003}");
            } else {
                answer(exchange, 200, BODY);
            }
        });
        SchemaRegistryClient client = client(List.of(url), Optional.empty());

        assertThat(client.schemaById(1)).isPresent();
        assertThat(calls.get()).as("three 503s waited out, then the answer").isEqualTo(4);
        assertThat(client.schemaById(404)).isEmpty();
    }

    @Test
    void shouldSendBasicAuthAndWaitWhileTheCredentialsAreRefused() throws Exception {
        String expected = "Basic " + Base64.getEncoder().encodeToString("svc:p@ss:word".getBytes(StandardCharsets.UTF_8));
        URI url = serve(exchange -> {
            boolean ok = expected.equals(exchange.getRequestHeaders().getFirst("Authorization"));
            answer(exchange, ok ? 200 : 401, ok ? BODY : "{\"error_code\":401}");
        });

        assertThat(client(List.of(url), Optional.of("svc:p@ss:word")).schemaById(3)).isPresent();

        // Refused credentials are not the record's fault: the client keeps asking until closed.
        SchemaRegistryClient wrong = client(List.of(url), Optional.of("svc:wrong"));
        Thread closer = new Thread(() -> {
            try {
                while (requests.size() < 3) {
                    Thread.sleep(10);
                }
            } catch (InterruptedException e) {
                return;
            }
            wrong.close();
        });
        closer.start();
        assertThatThrownBy(() -> wrong.schemaById(3)).isInstanceOf(RegistryUnavailableException.class)
                .hasMessageContaining("closed while waiting for schema id 3")
                .hasMessageContaining("answered 401")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("wrong"));
        closer.join();
    }

    @Test
    void shouldRefuseASchemaThatIsNotAvro() throws Exception {
        URI url = serve(exchange -> answer(exchange, 200, "{\"schemaType\":\"PROTOBUF\",\"schema\":\"syntax = \\\"proto3\\\";\"}"));

        assertThatThrownBy(() -> client(List.of(url), Optional.empty()).schemaById(5))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("schema id 5 is a PROTOBUF schema, not Avro");
    }

    @Test
    void shouldTrustARegistryCertifiedByTheGivenTrustStoreOnly(@TempDir Path dir) throws Exception {
        char[] password = "changeit".toCharArray();
        Path server = dir.resolve("server.p12");
        Path trust = dir.resolve("trust.p12");
        TestCertificates.keytool("-genkeypair", "-alias", "registry", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=localhost",
                "-ext", "san=ip:127.0.0.1", "-validity", "2", "-keystore", server.toString(), "-storetype", "PKCS12",
                "-storepass", "changeit");
        Path cert = dir.resolve("registry.crt");
        TestCertificates.keytool("-exportcert", "-alias", "registry", "-keystore", server.toString(), "-storepass", "changeit",
                "-file", cert.toString());
        TestCertificates.keytool("-importcert", "-noprompt", "-alias", "registry", "-file", cert.toString(), "-keystore", trust.toString(),
                "-storetype", "PKCS12", "-storepass", "changeit");
        KeyStore keys = KeyStore.getInstance(server.toFile(), password);
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, password);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(keyManagers.getKeyManagers(), null, null);
        HttpsServer https = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        https.setHttpsConfigurator(new HttpsConfigurator(tls));
        URI url = start(https, exchange -> answer(exchange, 200, BODY), "https");

        SchemaRegistryClient trusting = new SchemaRegistryClient(List.of(url), Optional.empty(), trust, password,
                Duration.ofSeconds(5), Duration.ofMillis(200));
        assertThat(trusting.latest("a-value")).isEqualTo(new Schema.Parser().parse(SCHEMA));

        // Without it, the JVM's trusted certificates do not vouch for this registry.
        SchemaRegistryClient untrusting = client(List.of(url), Optional.empty());
        assertThatThrownBy(() -> untrusting.latest("a-value")).isInstanceOf(RegistryUnavailableException.class)
                .hasMessageContaining("SSLHandshakeException");
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Test
    void shouldFetchReferencesOnceEachAfterThoseTheyReferToAndRefuseACircleOrAMissingOne() throws Exception {
        // payment -> money -> currency, and payment -> currency directly too (fetched once).
        String currency = "{\"type\":\"enum\",\"name\":\"Currency\",\"namespace\":\"shop\",\"symbols\":[\"EUR\",\"USD\"]}";
        String money = "{\"type\":\"record\",\"name\":\"Money\",\"namespace\":\"shop\",\"fields\":["
                + "{\"name\":\"units\",\"type\":\"long\"},{\"name\":\"currency\",\"type\":\"shop.Currency\"}]}";
        String payment = "{\"type\":\"record\",\"name\":\"Payment\",\"namespace\":\"shop\",\"fields\":["
                + "{\"name\":\"amount\",\"type\":\"shop.Money\"},{\"name\":\"fee\",\"type\":\"shop.Currency\"}]}";
        String currencyRef = "{\"name\":\"shop.Currency\",\"subject\":\"currency\",\"version\":1}";
        URI url = serve(exchange -> {
            String path = exchange.getRequestURI().getPath();
            switch (path) {
                case "/schemas/ids/1" -> answer(exchange, 200, "{\"schema\":" + quote(payment) + ",\"references\":["
                        + "{\"name\":\"shop.Money\",\"subject\":\"money\",\"version\":2}," + currencyRef + "]}");
                case "/subjects/money/versions/2" -> answer(exchange, 200, "{\"subject\":\"money\",\"version\":2,"
                        + "\"schema\":" + quote(money) + ",\"references\":[" + currencyRef + "]}");
                case "/subjects/currency/versions/1" -> answer(exchange, 200, "{\"schema\":" + quote(currency) + "}");
                case "/schemas/ids/2" -> answer(exchange, 200, "{\"schema\":" + quote(payment) + ",\"references\":["
                        + "{\"name\":\"shop.Money\",\"subject\":\"gone\",\"version\":1}]}");
                case "/schemas/ids/3" -> answer(exchange, 200, "{\"schema\":" + quote(money) + ",\"references\":["
                        + "{\"name\":\"shop.Currency\",\"subject\":\"loop\",\"version\":1}]}");
                case "/subjects/loop/versions/1" -> answer(exchange, 200, "{\"schema\":" + quote(currency)
                        + ",\"references\":[{\"name\":\"shop.Currency\",\"subject\":\"loop\",\"version\":1}]}");
                default -> answer(exchange, 404, "{\"error_code\":40401}");
            }
        });
        SchemaRegistryClient client = client(List.of(url), Optional.empty());

        SchemaRegistryClient.RegisteredSchema registered = client.registeredById(1).orElseThrow();
        assertThat(registered.type()).isEqualTo("AVRO");
        assertThat(client.referencesOf(registered).keySet()).containsExactly("shop.Currency", "shop.Money");
        Schema schema = client.schemaById(1).orElseThrow();
        assertThat(schema.getField("amount").schema().getField("currency").schema().getEnumSymbols())
                .containsExactly("EUR", "USD");
        assertThat(requests.stream().filter(r -> r.endsWith("/subjects/currency/versions/1")).count())
                .as("each reference fetched once per resolution").isEqualTo(2);
        assertThatThrownBy(() -> client.schemaById(2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reference 'shop.Money' (subject gone, version 1): the registry does not have it");
        assertThatThrownBy(() -> client.referencesOf(client.registeredById(3).orElseThrow()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schema references go round: shop.Currency -> shop.Currency");
    }

    private static String quote(String json) {
        return "\"" + json.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
