package dev.rowflow.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.embedded.load.Offsets;
import dev.rowflow.embedded.load.TableRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The image as deploy/build-image.sh builds it from Debian's archive: its configuration is the
 * Dockerfile's, it holds Java, rowflow's jars and no secrets, and its entrypoint, started from its
 * unpacked root filesystem in a chroot (a private mount namespace: the root read-only, /proc,
 * /dev, a tmpfs /tmp, the configuration and state mounted as the chart mounts them; uid 10001),
 * runs the pipeline against the embedded stack, answers /readyz, writes every event and exits 0
 * on SIGTERM with everything committed; pushed as docs/deploy.md says (skopeo) to a registry (Debian's
 * docker-registry), it is served unchanged. A container itself cannot be started on these machines.
 *
 * <p>Skipped, with a message, where the build cannot run: not root, or debootstrap, buildah,
 * chroot or unshare missing (Debian: {@code apt-get install debootstrap buildah}).
 */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(EmbeddedStackExtension.class)
class ImageIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path WORK = ImageDefinition.DEPLOY.resolve("target/image-it");
    private static final Path ARCHIVE = WORK.resolve("rowflow-image.oci.tar");
    private static final Path ROOT = WORK.resolve("rootfs");
    private static final Path PIPELINE_TARGET = ImageDefinition.PROJECT.resolve("pipeline/target");
    private static final int EVENTS = 2_000;
    private static JsonNode config;
    private static Process rowflow;

    @BeforeAll
    static void buildAndUnpack() throws Exception {
        String missing = whyItCannotBuild();
        if (missing != null) {
            System.err.println("ImageIT skipped: " + missing);
            Assumptions.abort(missing);
        }
        deleteRecursively(WORK);
        Files.createDirectories(WORK);
        Run build = run(Duration.ofMinutes(8), "bash", ImageDefinition.SCRIPT.toString(), "--output", ARCHIVE.toString());
        assertThat(build.exit).as("build-image.sh exit status; its output:%n%s", build.out).isZero();
        System.out.println(build.out.lines().filter(l -> l.contains(" MB ")).collect(Collectors.joining("\n")));

        // docker load / skopeo read the archive this way: index -> manifest -> config and layers.
        Path oci = WORK.resolve("oci");
        Files.createDirectories(oci);
        assertThat(run(Duration.ofMinutes(2), "tar", "-xf", ARCHIVE.toString(), "-C", oci.toString()).exit).isZero();
        JsonNode index = JSON.readTree(oci.resolve("index.json").toFile());
        assertThat(index.path("manifests")).hasSize(1);
        JsonNode manifest = JSON.readTree(blob(oci, index.path("manifests").get(0).path("digest").asText()).toFile());
        config = JSON.readTree(blob(oci, manifest.path("config").path("digest").asText()).toFile());
        Files.createDirectories(ROOT);
        for (JsonNode layer : manifest.path("layers")) {
            assertThat(layer.path("mediaType").asText()).isEqualTo("application/vnd.oci.image.layer.v1.tar+gzip");
            Run unpack = run(Duration.ofMinutes(3), "tar", "-xzpf", blob(oci, layer.path("digest").asText()).toString(),
                    "--numeric-owner", "-C", ROOT.toString());
            assertThat(unpack.exit).as("unpacking a layer: %s", unpack.out).isZero();
        }
        deleteRecursively(oci);
    }

    @AfterAll
    static void stop() {
        if (rowflow != null) {
            rowflow.destroyForcibly();
        }
    }

    @Test
    @Order(1)
    void shouldCarryTheDockerfilesConfiguration() throws Exception {
        JsonNode c = config.path("config");
        Map<String, List<String>> dockerfile = new LinkedHashMap<>();
        for (String[] instruction : ImageDefinition.instructions(ImageDefinition.DOCKERFILE)) {
            dockerfile.computeIfAbsent(instruction[0], k -> new ArrayList<>()).add(instruction[1]);
        }
        assertThat(config.path("os").asText()).isEqualTo("linux");
        assertThat(c.path("User").asText()).isEqualTo(dockerfile.get("USER").get(0)).isEqualTo("10001:10001");
        assertThat(strings(c.path("Entrypoint"))).isEqualTo(ImageDefinition.list(dockerfile.get("ENTRYPOINT").get(0)));
        assertThat(strings(c.path("Cmd"))).isEqualTo(ImageDefinition.list(dockerfile.get("CMD").get(0)));
        List<String> env = new ArrayList<>(List.of(ImageDefinition.DEBIAN_BASE_PATH));
        dockerfile.get("ENV").forEach(e -> ImageDefinition.pairs(e).forEach((k, v) -> env.add(k + "=" + v)));
        assertThat(strings(c.path("Env"))).isEqualTo(env);
        assertThat(fieldNames(c.path("ExposedPorts"))).containsExactly(dockerfile.get("EXPOSE").get(0) + "/tcp");

        Map<String, String> labels = new LinkedHashMap<>();
        dockerfile.get("LABEL").forEach(l -> labels.putAll(ImageDefinition.pairs(l)));
        Set<String> imageLabels = fieldNames(c.path("Labels")).stream().filter(k -> !k.startsWith("io.buildah."))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(imageLabels).isEqualTo(new TreeSet<>(labels.keySet()));
        labels.forEach((k, v) -> {
            if (!ImageDefinition.BUILD_LABELS.contains(k)) {
                assertThat(c.path("Labels").path(k).asText()).as(k).isEqualTo(v);
            }
        });
        assertThat(c.path("Labels").path("org.opencontainers.image.version").asText())
                .isEqualTo(System.getProperty("rowflow.version"));
        assertThat(c.path("Labels").path("org.opencontainers.image.revision").asText())
                .isEqualTo(run(Duration.ofSeconds(30), "git", "-C", ImageDefinition.PROJECT.toString(), "rev-parse", "HEAD")
                        .out.strip());
        assertThat(Instant.parse(c.path("Labels").path("org.opencontainers.image.created").asText()))
                .isBetween(Instant.now().minus(Duration.ofHours(1)), Instant.now());

        // Nothing secret in the environment it carries or in the history of its layers.
        Pattern secret = Pattern.compile("(?i)pass|secret|token|credential|private|key=");
        assertThat(strings(c.path("Env"))).noneMatch(e -> secret.matcher(e).find());
        assertThat(config.path("history").toString()).doesNotContainPattern(secret);
    }

    @Test
    @Order(2)
    void shouldHoldJavaRowflowsJarsAndNoSecrets() throws Exception {
        // rowflow: the production jar and exactly its lib/.
        assertThat(Files.mismatch(ROOT.resolve("opt/rowflow/rowflow-pipeline.jar"),
                PIPELINE_TARGET.resolve("rowflow-pipeline-" + System.getProperty("rowflow.version") + ".jar"))).isEqualTo(-1L);
        assertThat(names(ROOT.resolve("opt/rowflow/lib"))).isEqualTo(names(PIPELINE_TARGET.resolve("lib")));
        // Beside them only the class-data sharing archive, read-only, and no trace of its making.
        assertThat(names(ROOT.resolve("opt/rowflow"))).containsExactlyInAnyOrder("lib", "rowflow-pipeline.jar", "rowflow.jsa");
        assertThat(Files.getPosixFilePermissions(ROOT.resolve("opt/rowflow/rowflow.jsa")))
                .containsExactlyInAnyOrder(java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                        java.nio.file.attribute.PosixFilePermission.GROUP_READ,
                        java.nio.file.attribute.PosixFilePermission.OTHERS_READ);
        assertThat(ROOT.resolve("tmp/rowflow-image")).doesNotExist();
        assertThat(ROOT.resolve("tmp/rowflow-jsa.log")).doesNotExist();
        // Java and the other packages, installed by dpkg from Debian's archive.
        String status = Files.readString(ROOT.resolve("var/lib/dpkg/status"));
        for (String pkg : ImageDefinition.packages()) {
            assertThat(status).containsPattern("(?m)^Package: " + Pattern.quote(pkg) + "\n(?:.+\n)*?Status: install ok installed$");
        }
        assertThat(Files.readSymbolicLink(ROOT.resolve("usr/bin/java")).toString()).isEqualTo("/etc/alternatives/java");
        // The account and the directories of prepare-root.
        assertThat(Files.readAllLines(ROOT.resolve("etc/passwd"))).contains("rowflow:x:10001:10001::/nonexistent:/usr/sbin/nologin");
        assertThat(Files.readAllLines(ROOT.resolve("etc/group"))).contains("rowflow:x:10001:");
        assertThat(Files.getAttribute(ROOT.resolve("var/lib/rowflow/state"), "unix:uid")).isEqualTo(10001);
        assertThat(Files.getAttribute(ROOT.resolve("opt/rowflow/lib"), "unix:uid")).isEqualTo(0);
        // Trimmed: documentation but the copyright files, man pages, translations, package lists, caches.
        try (Stream<Path> docs = Files.walk(ROOT.resolve("usr/share/doc"))) {
            assertThat(docs.filter(Files::isRegularFile).map(p -> p.getFileName().toString())).isNotEmpty().allMatch("copyright"::equals);
        }
        assertThat(names(ROOT.resolve("usr/share/man"))).isEmpty();
        assertThat(names(ROOT.resolve("usr/share/locale"))).isSubsetOf("locale.alias");
        assertThat(names(ROOT.resolve("var/lib/apt/lists"))).isEmpty();
        assertThat(names(ROOT.resolve("var/cache/apt/archives"))).noneMatch(n -> n.endsWith(".deb"));
        assertThat(names(ROOT.resolve("dev"))).isEmpty();
        // What belongs to the machine that built it or to whoever runs it stays out: no host name,
        // resolver, configuration, credentials, keys or repository.
        assertThat(ROOT.resolve("etc/hostname")).doesNotExist();
        assertThat(ROOT.resolve("etc/resolv.conf")).doesNotExist();
        assertThat(names(ROOT.resolve("etc/rowflow"))).isEmpty();
        List<String> found = new ArrayList<>();
        Pattern credentialFile = Pattern.compile("id_(rsa|dsa|ecdsa|ed25519)|\\.netrc|\\.git-credentials|settings\\.xml"
                + "|\\.pgpass|config\\.json|.*\\.(jks|p12|pfx|keystore)|rowflow\\.properties|\\.git");
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName() == null ? "" : file.getFileName().toString();
                if (credentialFile.matcher(name).matches()) {
                    found.add(ROOT.relativize(file).toString());
                } else if (Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !name.endsWith(".jar")
                        && Files.size(file) < 1_000_000 && Files.readString(file, java.nio.charset.StandardCharsets.ISO_8859_1)
                        .contains("PRIVATE KEY-----")) {
                    found.add(ROOT.relativize(file) + " (a private key)");
                }
            }
        }
        assertThat(found).as("credentials in the image").isEmpty();
    }

    @Test
    @Order(3)
    void shouldRunItsEntrypointAsUid10001OnAReadOnlyRootAndStopCleanlyOnSigterm(EmbeddedStack stack) throws Exception {
        Path conf = Files.createDirectories(WORK.resolve("run/etc-rowflow"));
        Path state = Files.createDirectories(WORK.resolve("run/state"));
        Files.setAttribute(state, "unix:uid", 10001);
        Files.setAttribute(state, "unix:gid", 10001);
        int metricsPort = freePort();
        Map<String, String> props = new LinkedHashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "image-it");
        props.put(RowflowConfig.LOGS_TOPIC_CONFIG, "image-logs");
        props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, "image_data");
        props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, "image_index");
        props.put(RowflowConfig.METRICS_PORT_CONFIG, Integer.toString(metricsPort));
        // Where the chart mounts the state volume; the only writable place besides /tmp.
        props.put("kafka.state.dir", "/var/lib/rowflow/state");
        // A long commit interval: what is committed at the end was committed by SIGTERM.
        props.put("kafka.commit.interval.ms", "600000");
        Files.writeString(conf.resolve("rowflow.properties"), props.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("\n", "", "\n")));

        try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.kafka().bootstrapServers()))) {
            KafkaTopics.createIfAbsent(admin, "image-logs", Optional.of(2), Duration.ofSeconds(30));
            try (LogEventProducer producer = LogEventProducer.open(
                    Map.of("bootstrap.servers", stack.kafka().bootstrapServers()), "image-logs")) {
                producer.sendAll(new LogEventGenerator(19, 20, 1_700_000_000_000L), EVENTS, () -> false);
            }

            // What a container runtime does before it starts the entrypoint, in a mount namespace
            // of the process's own (gone when it exits): the image's root read-only (checked),
            // /proc, /dev, a tmpfs /tmp, the ConfigMap's and the state volume's mounts, the host's
            // name resolution; then the image's Entrypoint + Cmd with exactly the image's Env.
            String setup = """
                    set -eu
                    root=$1 conf=$2 state=$3; shift 3
                    touch "$root/etc/hosts" "$root/etc/resolv.conf"
                    mount --bind "$root" "$root"
                    mount -o remount,bind,ro "$root"
                    if touch "$root/.writable" 2>/dev/null; then echo "the root filesystem is writable" >&2; exit 97; fi
                    mount -t proc proc "$root/proc"
                    mount --rbind /dev "$root/dev"
                    mount -t tmpfs -o mode=1777,size=256m tmpfs "$root/tmp"
                    mount --bind "$conf" "$root/etc/rowflow"
                    mount -o remount,bind,ro "$root/etc/rowflow"
                    mount --bind "$state" "$root/var/lib/rowflow/state"
                    mount --bind /etc/hosts "$root/etc/hosts"
                    mount --bind /etc/resolv.conf "$root/etc/resolv.conf"
                    exec chroot --userspec=10001:10001 "$root" "$@"
                    """;
            List<String> command = new ArrayList<>(List.of("unshare", "--mount", "--propagation", "private",
                    "sh", "-c", setup, "sh", ROOT.toString(), conf.toString(), state.toString()));
            command.addAll(strings(config.path("config").path("Entrypoint")));
            command.addAll(strings(config.path("config").path("Cmd")));
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(WORK.resolve("run/rowflow.log").toFile());
            builder.environment().clear();
            for (String env : strings(config.path("config").path("Env"))) {
                builder.environment().put(env.substring(0, env.indexOf('=')), env.substring(env.indexOf('=') + 1));
            }
            // Where each class came from, and the classes this run loaded as a list the image's archive is made of.
            builder.environment().merge("JAVA_TOOL_OPTIONS", " -Xlog:class+load=info:file=/var/lib/rowflow/state/class-load.log"
                    + " -XX:DumpLoadedClassList=/var/lib/rowflow/state/rowflow.classlist", String::concat);
            rowflow = builder.start();

            awaitReady(metricsPort);
            // unshare, sh and chroot exec: the process started is the image's java, as uid 10001.
            assertThat(Files.readAllLines(Path.of("/proc", Long.toString(rowflow.pid()), "status")))
                    .contains("Uid:\t10001\t10001\t10001\t10001", "Gid:\t10001\t10001\t10001\t10001");
            assertThat(Files.readSymbolicLink(Path.of("/proc", Long.toString(rowflow.pid()), "exe")).toString())
                    .startsWith(ROOT.resolve("usr/lib/jvm/java-17-openjdk-").toString());
            awaitRows(stack, "image_data", EVENTS);
            awaitRows(stack, "image_index", EVENTS);
            assertThat(Offsets.uncommitted(admin, "image-it", "image-logs"))
                    .as("nothing committed yet with a 10-minute commit interval").isEqualTo(EVENTS);

            rowflow.destroy(); // SIGTERM, as the kubelet stops a container
            assertThat(rowflow.waitFor(60, TimeUnit.SECONDS)).as("exited within 60 s of SIGTERM; log:%n%s", log()).isTrue();
            assertThat(rowflow.exitValue()).as("exit status after SIGTERM; log:%n%s", log()).isZero();
            assertThat(Offsets.uncommitted(admin, "image-it", "image-logs")).as("committed on SIGTERM").isZero();
            assertThat(TableRows.scan(stack.connection("hbase"), "image_data")).hasSize(EVENTS);
            assertThat(TableRows.scan(stack.connection("hbase"), "image_index")).hasSize(EVENTS);
            assertThat(Files.readString(WORK.resolve("run/rowflow.log"))).contains("stopping: committing and closing");
            assertThat(ROOT.resolve(".writable")).doesNotExist();
            assertClassesFromTheArchive(state);
        }
    }

    /**
     * The entrypoint mapped the image's class-data sharing archive, and nearly every class the run
     * loaded came from it: a list gone stale (a dependency upgraded) fails here with this run's
     * list to copy over {@code deploy/image/rowflow.classlist}.
     */
    private static void assertClassesFromTheArchive(Path state) throws IOException {
        List<String> loaded = Files.readAllLines(state.resolve("class-load.log")).stream()
                .filter(line -> line.contains(" source: ")).toList();
        long shared = loaded.stream().filter(line -> line.contains("source: shared objects file")).count();
        Path fresh = Files.copy(state.resolve("rowflow.classlist"), WORK.resolve("rowflow.classlist"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertThat(loaded).hasSizeGreaterThan(5_000);
        assertThat((double) shared / loaded.size())
                .as("%d of the %d classes rowflow loaded came from /opt/rowflow/rowflow.jsa: copy %s over "
                        + "deploy/image/rowflow.classlist", shared, loaded.size(), fresh)
                .isGreaterThan(0.9);
    }

    @Test
    @Order(4)
    void shouldPushToARegistryAsTheReadmeSaysAndServeTheSameImage() throws Exception {
        List<String> missing = Stream.of("skopeo", "docker-registry").filter(t -> !onPath(t)).toList();
        Assumptions.assumeTrue(missing.isEmpty(), "the push is not tried: " + String.join(", ", missing)
                + " not installed (Debian: apt-get install skopeo docker-registry)");
        // Debian's Docker registry (the distribution project) on loopback, plain HTTP.
        Path registry = Files.createDirectories(WORK.resolve("registry"));
        int port = freePort();
        Files.writeString(registry.resolve("config.yml"), """
                version: 0.1
                storage:
                  filesystem:
                    rootdirectory: %s
                http:
                  addr: 127.0.0.1:%d
                """.formatted(registry.resolve("data"), port));
        Process server = new ProcessBuilder("docker-registry", "serve", registry.resolve("config.yml").toString())
                .redirectErrorStream(true).redirectOutput(registry.resolve("registry.log").toFile()).start();
        try {
            HttpClient http = HttpClient.newHttpClient();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            int status = 0;
            while (status != 200 && System.nanoTime() < deadline && server.isAlive()) {
                try {
                    status = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v2/")).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode();
                } catch (IOException notYet) {
                    Thread.sleep(200);
                }
            }
            assertThat(status).as("registry up; its log:%n%s", Files.readString(registry.resolve("registry.log"))).isEqualTo(200);

            String reference = "127.0.0.1:" + port + "/rowflow:" + System.getProperty("rowflow.version");
            Run push = run(Duration.ofMinutes(3), "skopeo", "copy", "--dest-tls-verify=false",
                    "oci-archive:" + ARCHIVE, "docker://" + reference);
            assertThat(push.exit).as("skopeo copy: %s", push.out).isZero();
            JsonNode built = JSON.readTree(run(Duration.ofMinutes(1), "skopeo", "inspect", "oci-archive:" + ARCHIVE).out);
            Run inspect = run(Duration.ofMinutes(1), "skopeo", "inspect", "--tls-verify=false", "docker://" + reference);
            assertThat(inspect.exit).as("skopeo inspect: %s", inspect.out).isZero();
            JsonNode served = JSON.readTree(inspect.out);
            // The same manifest (so the same config and layers), pushed without conversion.
            assertThat(served.path("Digest").asText()).startsWith("sha256:").isEqualTo(built.path("Digest").asText());
            assertThat(served.path("Labels")).isEqualTo(config.path("config").path("Labels"));
        } finally {
            server.destroy();
            server.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Why the image cannot be built here, or null. */
    private static String whyItCannotBuild() throws Exception {
        if (!run(Duration.ofSeconds(10), "id", "-u").out.strip().equals("0")) {
            return "building the image needs root (debootstrap installs packages, prepare-root runs in a chroot)";
        }
        List<String> missing = Stream.of("debootstrap", "buildah", "chroot", "unshare", "mount", "tar", "git")
                .filter(tool -> !onPath(tool)).toList();
        return missing.isEmpty() ? null
                : String.join(", ", missing) + " not installed (Debian: apt-get install debootstrap buildah)";
    }

    private static boolean onPath(String tool) {
        return Stream.of(System.getenv("PATH").split(File.pathSeparator), new String[] {"/usr/sbin", "/sbin"})
                .flatMap(Stream::of).anyMatch(dir -> Files.isExecutable(Path.of(dir, tool)));
    }

    private static void awaitReady(int port) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        int status = 0;
        while (status != 200 && System.nanoTime() < deadline) {
            assertThat(rowflow.isAlive()).as("rowflow alive; its log:%n%s", log()).isTrue();
            try {
                status = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            } catch (IOException notYet) {
                status = 0;
            }
            if (status != 200) {
                Thread.sleep(250);
            }
        }
        assertThat(status).as("/readyz; rowflow's log:%n%s", log()).isEqualTo(200);
    }

    private static void awaitRows(EmbeddedStack stack, String table, int expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (rows(stack, table) < expected && System.nanoTime() < deadline) {
            assertThat(rowflow.isAlive()).as("rowflow alive; its log:%n%s", log()).isTrue();
            Thread.sleep(250);
        }
        assertThat(rows(stack, table)).as("rows in %s; rowflow's log:%n%s", table, log()).isEqualTo(expected);
    }

    private static int rows(EmbeddedStack stack, String table) throws IOException {
        try (org.apache.hadoop.hbase.client.Admin admin = stack.connection("hbase").getAdmin()) {
            if (!admin.tableExists(org.apache.hadoop.hbase.TableName.valueOf(table))) {
                return 0;
            }
        }
        return TableRows.scan(stack.connection("hbase"), table).size();
    }

    private static String log() {
        try {
            String log = Files.readString(WORK.resolve("run/rowflow.log"));
            return log.substring(Math.max(0, log.length() - 4_000));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static Path blob(Path oci, String digest) {
        return oci.resolve("blobs").resolve(digest.replace(':', '/'));
    }

    private static List<String> strings(JsonNode array) {
        List<String> strings = new ArrayList<>();
        array.forEach(n -> strings.add(n.asText()));
        return strings;
    }

    private static Set<String> fieldNames(JsonNode object) {
        Set<String> names = new TreeSet<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static Set<String> names(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
                    Files.delete(p);
                }
            }
        }
    }

    private record Run(int exit, String out) {
    }

    private static Run run(Duration timeout, String... command) throws Exception {
        Path out = Files.createTempFile("rowflow-image-it", ".out");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish within " + timeout
                        + ":\n" + Files.readString(out));
            }
            return new Run(process.exitValue(), Files.readString(out));
        } finally {
            Files.delete(out);
        }
    }
}
