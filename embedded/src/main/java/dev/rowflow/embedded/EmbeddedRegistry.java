package dev.rowflow.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.avro.Schema;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Apicurio Registry as a child process on a free port of 127.0.0.1: a real Schema Registry with
 * the Confluent-compatible API ({@link #url()}), for the tests and the demo. It comes from Maven
 * Central ({@code io.apicurio:apicurio-registry-app}, unpacked by this module's build); the
 * schemas live in an H2 database file of its own directory, so {@link #stop()} then
 * {@link #start()} on the same port keeps every schema and id -- an outage, not a new registry.
 *
 * <p>The process is started through a shell that watches this JVM: if the JVM is killed
 * (SIGKILL runs no shutdown hook), the registry goes with it within a second.
 */
public final class EmbeddedRegistry implements AutoCloseable {
    /** Overrides where Apicurio's {@code -runner.jar} is looked for. */
    public static final String JAR_ENV = "ROWFLOW_REGISTRY_JAR";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private final Path jar;
    private final Path dir;
    private final int port;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;

    private EmbeddedRegistry(Path jar, Path dir, int port) {
        this.jar = jar;
        this.dir = dir;
        this.port = port;
    }

    /** Starts a registry of its own (a fresh, empty database) and waits until it answers. */
    public static EmbeddedRegistry launch() {
        EmbeddedRegistry registry = new EmbeddedRegistry(runnerJar(), TempDirs.create("rowflow-registry-"),
                FreePorts.next());
        Runtime.getRuntime().addShutdownHook(new Thread(registry::stop, "registry-stop"));
        registry.start();
        return registry;
    }

    /** Where Apicurio's runner jar is: {@value #JAR_ENV}, else where this module's build unpacked it. */
    static Path runnerJar() {
        String configured = System.getenv(JAR_ENV);
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        Properties build = new Properties();
        try (InputStream in = EmbeddedRegistry.class.getResourceAsStream("registry.properties")) {
            if (in == null) {
                throw new IllegalStateException("registry.properties is missing from the embedded module's classes");
            }
            build.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path jar = Path.of(build.getProperty("runner.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("Apicurio Registry is not at " + jar + ": build the embedded module "
                    + "(mvn -pl embedded package unpacks it from Maven Central) or point " + JAR_ENV + " at its runner jar");
        }
        return jar;
    }

    /** Starts the process (again, after {@link #stop()}: same port, same schemas) and waits until it answers. */
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            return;
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String command = String.join(" ", List.of(quote(java), "-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + port,
                "-Dquarkus.log.level=WARN", "-jar", quote(jar.toString())));
        // The shell ends the registry when this JVM is gone, however it ended.
        String watched = command + " & child=$!; while kill -0 " + ProcessHandle.current().pid()
                + " 2>/dev/null && kill -0 $child 2>/dev/null; do sleep 1; done; kill $child 2>/dev/null; wait $child";
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", watched)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("registry.log").toFile()));
        // Schemas in an H2 file instead of the default in-memory database, so a restart keeps them.
        builder.environment().put("REGISTRY_DATASOURCE_URL", "jdbc:h2:file:" + dir.resolve("registry"));
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("could not start Apicurio Registry: " + e.getMessage(), e);
        }
        awaitReady(Duration.ofSeconds(90));
    }

    private static String quote(String arg) {
        return "'" + arg.replace("'", "'\\''") + "'";
    }

    private void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Apicurio Registry exited with " + process.exitValue()
                        + " before answering; see " + dir.resolve("registry.log"));
            }
            try {
                if (get("/subjects").statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                stop();
                throw new IllegalStateException("Apicurio Registry did not answer within " + timeout + "; see "
                        + dir.resolve("registry.log"));
            }
            sleep(100);
        }
    }

    /** Stops the process (the port and the schemas stay for {@link #start()}); waits until it is gone. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        List<ProcessHandle> all = process.toHandle().descendants().toList();
        all.forEach(ProcessHandle::destroy);
        process.destroy();
        for (ProcessHandle handle : all) {
            try {
                handle.onExit().get(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                handle.destroyForcibly();
            }
        }
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /** The Confluent-compatible API: {@code http://127.0.0.1:<port>/apis/ccompat/v7}. */
    public String url() {
        return "http://127.0.0.1:" + port + "/apis/ccompat/v7";
    }

    /** Apicurio's own API, {@code http://127.0.0.1:<port>/apis/registry/v2}, which its serdes and converters use. */
    public String apiUrl() {
        return "http://127.0.0.1:" + port + "/apis/registry/v2";
    }

    /**
     * Registers {@code schema} under {@code subject} (compatibility rules as the registry has
     * them) and returns the id the registry gave it: use it, never assume one.
     */
    public int register(String subject, Schema schema) {
        return register(subject, "AVRO", schema.toString(), java.util.List.of());
    }

    /**
     * Registers a schema of any type ({@code AVRO}, {@code PROTOBUF}, {@code JSON}) under
     * {@code subject}, with its references (each a {@code name}, {@code subject} and
     * {@code version}), through the Confluent-compatible API; returns the id it was given.
     */
    public int register(String subject, String type, String schema, java.util.List<java.util.Map<String, Object>> references) {
        try {
            java.util.Map<String, Object> request = new java.util.LinkedHashMap<>();
            request.put("schema", schema);
            if (!type.equals("AVRO")) {
                request.put("schemaType", type);
            }
            if (!references.isEmpty()) {
                request.put("references", references);
            }
            String body = JSON.writeValueAsString(request);
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url() + "/subjects/"
                                    + URLEncoder.encode(subject, StandardCharsets.UTF_8) + "/versions"))
                            .header("Content-Type", CONTENT_TYPE)
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("registering a schema under " + subject + " answered "
                        + response.statusCode() + ": " + response.body());
            }
            JsonNode id = JSON.readTree(response.body()).get("id");
            return id.asInt();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> get(String path) throws IOException {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        stop();
        TempDirs.delete(dir);
    }
}
