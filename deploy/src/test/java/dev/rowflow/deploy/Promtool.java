package dev.rowflow.deploy;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Prometheus' own tools from the Debian package {@code prometheus}, when installed. */
final class Promtool {
    static final Path RULES = Chart.DIR.resolve("files/prometheus-rules.yaml");
    static final Path DASHBOARD = Chart.DIR.resolve("files/grafana-dashboard.json");

    private Promtool() {
    }

    /** The path of {@code binary} on the PATH; skips the calling test with a clear message if absent. */
    static Path require(String binary) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(dir, binary);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        Assumptions.abort(binary + " is not installed: `apt-get install prometheus` (Debian) provides it; "
                + ".ci/run installs it");
        throw new IllegalStateException("unreachable");
    }

    /** Runs a command; returns its exit code and output. */
    static Result run(Path workDir, String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(new ArrayList<>(List.of(command))).directory(workDir.toFile())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish in 2 minutes");
        }
        return new Result(process.exitValue(), output);
    }

    record Result(int exitCode, String output) {
    }
}
