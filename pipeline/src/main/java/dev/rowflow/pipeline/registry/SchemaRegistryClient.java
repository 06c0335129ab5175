package dev.rowflow.pipeline.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Fetches schemas -- Avro, Protobuf, JSON Schema, and the schemas they refer to -- from a Schema
 * Registry through the Confluent-compatible REST API ({@code GET /schemas/ids/{id}},
 * {@code GET /subjects/{subject}/versions/{version|latest}}), which
 * Confluent Schema Registry, Apicurio Registry ({@code /apis/ccompat/v7}), Karapace and Redpanda
 * all serve. Over the JDK's HTTP client: no client library, no dependency.
 *
 * <p>Several URLs fail over: each request starts at the one that answered last and tries the
 * others in order. What a request can end in, and who is at fault:
 * <ul>
 *   <li>the schema: returned;</li>
 *   <li>404 for an id: {@link Optional#empty()} -- no registry knows that id, the record's fault;</li>
 *   <li>no answer, a timeout, 5xx, or any other status (401 and 403 included -- credentials are
 *       fixed by an operator, not by setting records aside): the registry is unavailable, and
 *       {@link #schemaById} waits (backing off up to {@code maxBackoff}) and asks again until it
 *       answers or {@link #close()} is called.</li>
 * </ul>
 * Thread-safe. Credentials are sent, never logged or put in a message.
 */
public final class SchemaRegistryClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaRegistryClient.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WARN_EVERY = Duration.ofSeconds(30);

    private final List<URI> urls;
    private final Optional<String> authorization;
    private final HttpClient http;
    private final Duration timeout;
    private final Duration maxBackoff;
    private volatile int preferred;
    private volatile boolean closed;
    private final java.util.concurrent.atomic.AtomicLong fetched = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong unknown = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong failed = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicInteger waiting = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * @param urls          base URLs of the registry's Confluent-compatible API, tried in order
     * @param basicAuth     {@code user:password} for HTTP basic authentication, or empty
     * @param trustStore    a trust store for https (its type by its file: PKCS12 or JKS), or null for the JVM's
     * @param trustPassword the trust store's password, or null
     */
    public SchemaRegistryClient(List<URI> urls, Optional<String> basicAuth, Path trustStore, char[] trustPassword,
                                Duration timeout, Duration maxBackoff) {
        if (urls.isEmpty()) {
            throw new IllegalArgumentException("no registry URL");
        }
        this.urls = List.copyOf(urls);
        this.authorization = basicAuth.map(userInfo -> "Basic "
                + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8)));
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout);
        if (trustStore != null) {
            builder.sslContext(sslContext(trustStore, trustPassword));
        }
        this.http = builder.build();
        this.timeout = timeout;
        this.maxBackoff = maxBackoff;
    }

    private static SSLContext sslContext(Path trustStore, char[] password) {
        try {
            // KeyStore.getInstance(File, ...) tells PKCS12 from JKS by the content.
            KeyStore store = KeyStore.getInstance(trustStore.toFile(), password);
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("trust store " + trustStore + " cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * The writer schema of {@code id}, or empty if the registry does not know the id (404).
     * Waits while the registry is unavailable.
     *
     * @throws RegistryUnavailableException only once {@link #close()} was called while waiting
     * @throws IllegalArgumentException     if the id names a schema that is not Avro
     */
    public Optional<Schema> schemaById(int id) {
        return registeredById(id).map(schema -> avro(schema, "schema id " + id));
    }

    /**
     * The schema of {@code id} as the registry holds it, of any type, or empty if the registry does
     * not know the id (404). Waits while the registry is unavailable.
     *
     * @throws RegistryUnavailableException only once {@link #close()} was called while waiting
     */
    public Optional<RegisteredSchema> registeredById(int id) {
        return request("/schemas/ids/" + id, "schema id " + id).map(body -> registered(body, "schema id " + id));
    }

    /**
     * Every schema {@code schema} refers to, directly or through another, by the name it is
     * referred to by; a schema comes after those it refers to. Each is fetched by its subject and
     * version, waiting while the registry is unavailable.
     *
     * @throws IllegalArgumentException     if a reference names a subject or version the registry
     *                                      does not have, or the references go round
     * @throws RegistryUnavailableException only once {@link #close()} was called while waiting
     */
    public Map<String, RegisteredSchema> referencesOf(RegisteredSchema schema) {
        Map<String, RegisteredSchema> resolved = new LinkedHashMap<>();
        addReferences(schema, resolved, new ArrayList<>());
        return resolved;
    }

    private void addReferences(RegisteredSchema schema, Map<String, RegisteredSchema> resolved, List<String> path) {
        for (Reference reference : schema.references()) {
            if (resolved.containsKey(reference.name())) {
                continue;
            }
            if (path.contains(reference.name())) {
                throw new IllegalArgumentException("schema references go round: " + String.join(" -> ", path)
                        + " -> " + reference.name());
            }
            String what = "reference '" + reference.name() + "' (subject " + reference.subject() + ", version "
                    + reference.version() + ")";
            RegisteredSchema referred = request("/subjects/" + URLEncoder.encode(reference.subject(),
                    StandardCharsets.UTF_8) + "/versions/" + reference.version(), what)
                    .map(body -> registered(body, what))
                    .orElseThrow(() -> new IllegalArgumentException(what + ": the registry does not have it (404)"));
            path.add(reference.name());
            addReferences(referred, resolved, path);
            path.remove(path.size() - 1);
            resolved.put(reference.name(), referred);
        }
    }

    /**
     * The latest schema of {@code subject}, asked once (at start-up): an unavailable registry is
     * not waited for.
     *
     * @throws IllegalArgumentException    if the subject is unknown or its schema is not Avro
     * @throws RegistryUnavailableException if no URL answers
     */
    public Schema latest(String subject) {
        return avro(latestRegistered(subject), "subject " + subject);
    }

    /**
     * The latest schema of {@code subject} as the registry holds it (any type), asked once (at
     * start-up): an unavailable registry is not waited for.
     *
     * @throws IllegalArgumentException    if the subject is unknown
     * @throws RegistryUnavailableException if no URL answers
     */
    public RegisteredSchema latestRegistered(String subject) {
        String path = "/subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8) + "/versions/latest";
        Outcome outcome = once(path);
        if (outcome.status == 200) {
            return registered(outcome.body, "subject " + subject);
        }
        if (outcome.status == 404) {
            throw new IllegalArgumentException("the registry has no subject '" + subject + "'");
        }
        throw new RegistryUnavailableException("the registry did not give the latest schema of subject '" + subject
                + "': " + outcome.why);
    }

    private Optional<String> request(String path, String what) {
        long waitingSince = 0;
        try {
            long backoff = 100;
            long warned = 0;
            while (true) {
                Outcome outcome = once(path);
                if (outcome.status == 200) {
                    fetched.incrementAndGet();
                    if (waitingSince != 0) {
                        LOG.info("schema registry answers again; {} fetched after {} s", what,
                                (System.nanoTime() - waitingSince) / 1_000_000_000);
                    }
                    return Optional.of(outcome.body);
                }
                if (outcome.status == 404) {
                    unknown.incrementAndGet();
                    return Optional.empty();
                }
                failed.incrementAndGet();
                long now = System.nanoTime();
                if (waitingSince == 0) {
                    waitingSince = now;
                    waiting.incrementAndGet();
                }
                if (warned == 0 || now - warned > WARN_EVERY.toNanos()) {
                    warned = now;
                    LOG.warn("schema registry unavailable ({}); waiting for {} before reading on (waiting {} s so far)",
                            outcome.why, what, (now - waitingSince) / 1_000_000_000);
                }
                if (closed) {
                    throw new RegistryUnavailableException("closed while waiting for " + what + ": " + outcome.why);
                }
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RegistryUnavailableException("interrupted while waiting for " + what);
                }
                backoff = Math.min(backoff * 2, maxBackoff.toMillis());
            }
        } finally {
            if (waitingSince != 0) {
                waiting.decrementAndGet();
            }
        }
    }

    /**
     * Registers the client's meters, tagged with the input: {@code rowflow_registry_requests_total
     * {input,outcome}} (fetched, unknown for a 404, unavailable for each failed attempt) and
     * {@code rowflow_registry_waiting_threads{input}}, the stream threads waiting for it now.
     */
    public void bindTo(io.micrometer.core.instrument.MeterRegistry registry, String input) {
        for (var outcome : java.util.Map.of("fetched", fetched, "unknown", unknown, "unavailable", failed).entrySet()) {
            io.micrometer.core.instrument.FunctionCounter.builder("rowflow.registry.requests", outcome.getValue(),
                            java.util.concurrent.atomic.AtomicLong::doubleValue)
                    .tags("input", input, "outcome", outcome.getKey())
                    .description("Requests to the Schema Registry, by outcome (unavailable: each failed attempt)")
                    .register(registry);
        }
        io.micrometer.core.instrument.Gauge.builder("rowflow.registry.waiting.threads", waiting,
                        java.util.concurrent.atomic.AtomicInteger::doubleValue)
                .tag("input", input)
                .description("Stream threads waiting for an unavailable Schema Registry now (their records wait too)")
                .register(registry);
    }

    /** One request, every URL tried from the preferred one on; the last answer or failure. */
    private Outcome once(String path) {
        Outcome last = null;
        int first = preferred;
        for (int i = 0; i < urls.size(); i++) {
            int at = (first + i) % urls.size();
            Outcome outcome = send(urls.get(at), path);
            if (outcome.status == 200 || outcome.status == 404) {
                preferred = at;
                return outcome;
            }
            last = outcome;
        }
        return last;
    }

    private Outcome send(URI base, String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(stripSlash(base.toString()) + path))
                .timeout(timeout)
                .header("Accept", "application/vnd.schemaregistry.v1+json, application/json")
                .GET();
        authorization.ifPresent(value -> request.header("Authorization", value));
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Outcome(response.statusCode(), response.body(), base + " answered " + response.statusCode());
        } catch (IOException e) {
            return new Outcome(-1, null, base + ": " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RegistryUnavailableException("interrupted while asking " + base);
        }
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private static RegisteredSchema registered(String body, String what) {
        JsonNode node;
        try {
            node = JSON.readTree(body);
        } catch (IOException e) {
            throw new IllegalArgumentException(what + ": the registry's answer is not JSON: " + e.getMessage(), e);
        }
        JsonNode schema = node.get("schema");
        if (schema == null || !schema.isTextual()) {
            throw new IllegalArgumentException(what + ": the registry's answer has no schema");
        }
        List<Reference> references = new ArrayList<>();
        for (JsonNode reference : node.path("references")) {
            references.add(new Reference(reference.path("name").asText(), reference.path("subject").asText(),
                    reference.path("version").asInt()));
        }
        return new RegisteredSchema(node.path("schemaType").asText("AVRO"), schema.asText(), List.copyOf(references));
    }

    /** An Avro schema with the named types of the schemas it refers to, which are parsed first. */
    private Schema avro(RegisteredSchema schema, String what) {
        if (!schema.type().equals("AVRO")) {
            throw new IllegalArgumentException(what + " is a " + schema.type() + " schema, not Avro");
        }
        Schema.Parser parser = new Schema.Parser();
        for (RegisteredSchema referred : referencesOf(schema).values()) {
            parser.parse(referred.text());
        }
        return parser.parse(schema.text());
    }

    /**
     * A schema as the registry holds it.
     *
     * @param type       {@code AVRO}, {@code PROTOBUF} or {@code JSON} (the registry leaves it out for Avro)
     * @param text       the schema: Avro JSON, {@code .proto} text, a JSON Schema document
     * @param references the schemas it refers to, each by the name it uses for it
     */
    public record RegisteredSchema(String type, String text, List<Reference> references) {
    }

    /**
     * A schema reference: the name a schema refers to another by (an imported {@code .proto}
     * file, an Avro type's full name, a JSON Schema {@code $ref}), and the subject and version
     * it is registered under.
     */
    public record Reference(String name, String subject, int version) {
    }

    /** Ends any wait in {@link #schemaById}: it throws instead of asking again. */
    @Override
    public void close() {
        closed = true;
    }

    private record Outcome(int status, String body, String why) {
    }
}
