package dev.rowflow.pipeline.guarantees;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The production jar ({@code rowflow run}) in its own JVM, as a user starts it: for tests that kill
 * it, weigh it or read its {@code /metrics}. Its output goes to {@code rowflow.log} in the test's
 * directory, appended across restarts.
 */
public final class RowflowProcess {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private final Process process;
    private final Path log;
    private final int metricsPort;

    private RowflowProcess(Process process, Path log, int metricsPort) {
        this.process = process;
        this.log = log;
        this.metricsPort = metricsPort;
    }

    /** {@code java <jvmOptions> -jar rowflow-pipeline.jar run --config <configFile>}, on a free metrics port. */
    public static RowflowProcess start(Path configFile, Path dir, List<String> jvmOptions) throws Exception {
        return start(configFile, dir.resolve("rowflow.log"), jvmOptions, Map.of());
    }

    /**
     * As {@link #start(Path, Path, List)}, its output appended to {@code log}, with further
     * environment variables (e.g. {@code ROWFLOW_CONFIG_KAFKA_GROUP_INSTANCE_ID}, as the Helm chart
     * sets it from the pod name): for several instances of one configuration.
     */
    public static RowflowProcess start(Path configFile, Path log, List<String> jvmOptions, Map<String, String> environment)
            throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(dev.rowflow.embedded.CrashReports.sameAsThisJvm());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", System.getProperty("rowflow.pipeline.jar"), "run", "--config",
                configFile.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        int port = freePort();
        builder.environment().put("ROWFLOW_CONFIG_METRICS_PORT", Integer.toString(port));
        return new RowflowProcess(builder.start(), log, port);
    }

    Process process() {
        return process;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The last 5,000 characters the process printed, for failure messages. */
    public String logTail() throws Exception {
        if (!Files.exists(log)) {
            return "(no log)";
        }
        String text = Files.readString(log);
        return text.substring(Math.max(0, text.length() - 5_000));
    }

    /**
     * The sum of the samples of one Prometheus metric whose labels contain every given
     * {@code name="value"} pair; empty until the metrics server answers.
     */
    java.util.OptionalDouble metric(String name, Map<String, String> labels) throws Exception {
        String body;
        try {
            body = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (java.io.IOException notListeningYet) {
            return java.util.OptionalDouble.empty();
        }
        Matcher sample = Pattern.compile("^" + Pattern.quote(name) + "(\\{[^}]*})? (\\S+)$", Pattern.MULTILINE)
                .matcher(body);
        double sum = 0;
        while (sample.find()) {
            String labelText = sample.group(1) == null ? "" : sample.group(1);
            if (labels.entrySet().stream().allMatch(l -> labelText.contains(l.getKey() + "=\"" + l.getValue() + "\""))) {
                sum += Double.parseDouble(sample.group(2));
            }
        }
        return java.util.OptionalDouble.of(sum);
    }

    /** The process's peak resident set size so far ({@code VmHWM} in /proc), in bytes. */
    long peakRssBytes() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
            }
        }
        throw new IllegalStateException("no VmHWM in /proc/" + process.pid() + "/status");
    }

    /** SIGKILL: no shutdown hook, no final commit. */
    public void kill() throws Exception {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("rowflow did not die of SIGKILL within 30 s");
        }
    }

    /** SIGTERM and wait, as Kubernetes stops a pod. */
    public void stop() throws Exception {
        process.destroy();
        process.waitFor(60, TimeUnit.SECONDS);
    }

    /** SIGTERM and wait; its exit code, or an error if it did not exit within 60 s. */
    int terminate() throws Exception {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new AssertionError("rowflow did not exit within 60 s of SIGTERM; log:\n" + logTail());
        }
        return process.exitValue();
    }

    static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
