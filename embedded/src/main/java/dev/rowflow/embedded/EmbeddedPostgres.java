package dev.rowflow.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server from Debian's {@code postgresql} package, in a temporary directory, for
 * change data capture: {@code initdb} and {@code pg_ctl} run as the package's {@code postgres}
 * user when this process is root (PostgreSQL refuses to run as root), the server listens on a free
 * loopback port with {@code wal_level=logical} (Debezium's pgoutput), trust authentication, and
 * durability off (a test's data need not survive a power cut). Stopped on close and at JVM exit.
 */
public final class EmbeddedPostgres implements AutoCloseable {
    /** The server's superuser, as initdb makes it. */
    public static final String USER = "postgres";

    private final Path bin;
    private final Path dir;
    private final int port;
    private Thread stopAtExit;

    private EmbeddedPostgres(Path bin, Path dir, int port) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
    }

    /**
     * The directory of PostgreSQL's server programs ({@code initdb}, {@code pg_ctl}): Debian's
     * {@code /usr/lib/postgresql/<major>/bin}, newest first; empty where the package is not installed.
     */
    public static Optional<Path> binaries() {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
                    .max(Comparator.comparing(b -> Integer.parseInt(b.getParent().getFileName().toString()
                            .replaceAll("\\D", "0"))));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Creates a cluster with a database {@code database} and starts its server.
     *
     * @throws IllegalStateException where the package is not installed, or initdb or pg_ctl fail (with their output)
     */
    public static EmbeddedPostgres start(String database) {
        Path bin = binaries().orElseThrow(() -> new IllegalStateException(
                "PostgreSQL's server programs are not installed: apt-get install postgresql"));
        Path dir = TempDirs.create("rowflow-postgres");
        try {
            // The postgres user must reach its directory: the temp dir is private to us otherwise.
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            Path data = dir.resolve("data");
            Path sockets = dir.resolve("sockets");
            Files.createDirectories(sockets);
            if (root()) {
                run(List.of("chown", "-R", USER + ":", dir.toString()), dir);
            }
            int port = FreePorts.next();
            EmbeddedPostgres server = new EmbeddedPostgres(bin, dir, port);
            server.asServerUser(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", USER,
                    "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"));
            server.asServerUser(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l",
                    dir.resolve("server.log").toString(), "-w", "-t", "60", "-o",
                    "-p " + port + " -k " + sockets + " -c listen_addresses=127.0.0.1 -c wal_level=logical"
                            + " -c max_wal_senders=8 -c max_replication_slots=8 -c fsync=off"
                            + " -c synchronous_commit=off -c full_page_writes=off -c max_connections=40", "start"));
            server.stopAtExit = new Thread(server::stop, "stop postgres " + port);
            Runtime.getRuntime().addShutdownHook(server.stopAtExit);
            server.asServerUser(List.of(bin.resolve("createdb").toString(), "-h", "127.0.0.1", "-p",
                    Integer.toString(port), "-U", USER, database));
            return server;
        } catch (IOException e) {
            TempDirs.delete(dir);
            throw new UncheckedIOException(e);
        }
    }

    /** {@code jdbc:postgresql://127.0.0.1:<port>/<database>}. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return port;
    }

    /** The server's log, for a test's failure message. */
    public String log() {
        try {
            return Files.readString(dir.resolve("server.log"));
        } catch (IOException e) {
            return "(no server log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        stop();
        if (stopAtExit != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(stopAtExit);
            } catch (IllegalStateException e) {
                // exiting already
            }
        }
        TempDirs.delete(dir);
    }

    private void stop() {
        try {
            asServerUser(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m",
                    "immediate", "-w", "stop"));
        } catch (RuntimeException | IOException e) {
            // not running
        }
    }

    private void asServerUser(List<String> command) throws IOException {
        List<String> full = new ArrayList<>();
        if (root()) {
            full.addAll(List.of("runuser", "-u", USER, "--"));
        }
        full.addAll(command);
        run(full, dir);
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static void run(List<String> command, Path dir) throws IOException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        // pg_ctl's server inherits no pipe of ours: its log goes to a file, so this read ends with pg_ctl.
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(String.join(" ", command) + " interrupted");
        }
    }
}
