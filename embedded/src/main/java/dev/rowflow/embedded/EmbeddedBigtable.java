package dev.rowflow.embedded;

import com.google.cloud.bigtable.hbase.BigtableConfiguration;
import com.google.cloud.bigtable.hbase.BigtableOptionsFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Google's Bigtable emulator ({@code cbtemulator}, in memory) as a child process on a free port of
 * 127.0.0.1, with an HBase {@link Connection} to it through Google's HBase adapter: the second
 * store rowflow's tests run on. It is up in about a second; {@link #close()} stops it.
 *
 * <p>The emulator comes with the Google Cloud CLI (Debian package
 * {@code google-cloud-cli-bigtable-emulator}); {@link #findEmulator()} looks for it.
 */
public final class EmbeddedBigtable implements AutoCloseable {
    public static final String PROJECT = "rowflow";
    public static final String INSTANCE = "embedded";
    /** Overrides where the emulator binary is looked for. */
    public static final String EMULATOR_ENV = "ROWFLOW_CBTEMULATOR";
    /** What a user reads when the emulator is not on the machine. */
    public static final String HOW_TO_GET_IT = "the Bigtable emulator (cbtemulator) is not on this machine: install "
            + "Debian package google-cloud-cli-bigtable-emulator (or `gcloud components install bigtable`), or point "
            + EMULATOR_ENV + " at the binary";

    private static final List<String> KNOWN_PLACES = List.of(
            "/usr/lib/google-cloud-sdk/platform/bigtable-emulator/cbtemulator",
            "/usr/share/google-cloud-sdk/platform/bigtable-emulator/cbtemulator",
            "/opt/google-cloud-sdk/platform/bigtable-emulator/cbtemulator");

    private final Process process;
    private final String endpoint;
    private Connection connection;

    private EmbeddedBigtable(Process process, String endpoint) {
        this.process = process;
        this.endpoint = endpoint;
    }

    /** Where {@code cbtemulator} is: {@value #EMULATOR_ENV}, the PATH, or the Cloud CLI's places. */
    public static Optional<Path> findEmulator() {
        String configured = System.getenv(EMULATOR_ENV);
        if (configured != null && !configured.isBlank()) {
            Path path = Path.of(configured);
            return Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
        }
        String pathVariable = System.getenv().getOrDefault("PATH", "");
        for (String dir : pathVariable.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "cbtemulator"))) {
                return Optional.of(Path.of(dir, "cbtemulator"));
            }
        }
        return KNOWN_PLACES.stream().map(Path::of).filter(Files::isExecutable).findFirst();
    }

    /**
     * Starts the emulator and waits until it accepts connections.
     *
     * @throws IllegalStateException saying how to get it if it is not on the machine
     */
    public static EmbeddedBigtable start() {
        Path binary = findEmulator().orElseThrow(() -> new IllegalStateException(HOW_TO_GET_IT));
        int port = FreePorts.next();
        try {
            Process process = new ProcessBuilder(binary.toString(), "-host", "127.0.0.1", "-port", Integer.toString(port))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            EmbeddedBigtable bigtable = new EmbeddedBigtable(process, "127.0.0.1:" + port);
            Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly, "cbtemulator-stop"));
            bigtable.awaitListening(port, Duration.ofSeconds(30));
            return bigtable;
        } catch (IOException e) {
            throw new IllegalStateException("could not start " + binary + ": " + e.getMessage(), e);
        }
    }

    private void awaitListening(int port, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("cbtemulator exited with " + process.exitValue() + " before listening");
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    process.destroyForcibly();
                    throw new IllegalStateException("cbtemulator did not listen on port " + port + " within " + timeout);
                }
                try {
                    TimeUnit.MILLISECONDS.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    /** {@code 127.0.0.1:<port>}, as {@code BIGTABLE_EMULATOR_HOST} would name it. */
    public String endpoint() {
        return endpoint;
    }

    /** A client configuration for the emulator: the adapter's connection, project and instance. */
    public Configuration configuration() {
        Configuration conf = BigtableConfiguration.configure(PROJECT, INSTANCE);
        conf.set(BigtableOptionsFactory.BIGTABLE_EMULATOR_HOST_KEY, endpoint);
        return conf;
    }

    /** A connection shared by the tests of a JVM; closed with the emulator. */
    public synchronized Connection connection() {
        if (connection == null) {
            connection = BigtableConfiguration.connect(configuration());
        }
        return connection;
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (IOException e) {
                // the emulator goes next anyway
            }
        }
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
