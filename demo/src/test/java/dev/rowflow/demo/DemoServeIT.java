package dev.rowflow.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rowflow demo} without {@code --events}, in its own JVM as a user starts it: {@code /readyz}
 * turns ready once the streams run, {@code /metrics} serves the sink's and Kafka Streams' metrics,
 * and SIGTERM ends it with its summary.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class DemoServeIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void shouldServeMetricsAndTurnReadyOnceTheStreamsRun() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path log = Files.createTempFile("rowflow-demo-serve", ".log");
        java.util.List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(dev.rowflow.embedded.CrashReports.sameAsThisJvm());
        command.addAll(java.util.List.of("-jar", System.getProperty("rowflow.demo.jar"), "demo", "--metrics-port",
                Integer.toString(port), "--rate", "500"));
        Process demo = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            String base = "http://127.0.0.1:" + port;
            int firstStatus = -1;
            int status = -1;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
            while (System.nanoTime() < deadline && status != 200) {
                assertThat(demo.isAlive()).as("demo alive; its output:%n%s", Files.readString(log)).isTrue();
                status = statusOf(base + "/readyz");
                if (firstStatus < 0 && status > 0) {
                    firstStatus = status;
                }
                Thread.sleep(250);
            }
            assertThat(status).as("/readyz; output:%n%s", Files.readString(log)).isEqualTo(200);
            assertThat(statusOf(base + "/healthz")).isEqualTo(200);

            String metrics = "";
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline && !metrics.contains("rowflow_sink_rows_total{table=\"log_data\"}")) {
                metrics = get(base + "/metrics");
                Thread.sleep(500);
            }
            assertThat(metrics).contains("rowflow_sink_rows_total{table=\"log_data\"}",
                    "rowflow_sink_flush_seconds_bucket", "rowflow_sink_bucket_rows_total", "rowflow_ready 1.0",
                    "rowflow_hbase_reachable 1.0", "kafka_stream_thread_process_total",
                    "kafka_consumer_fetch_manager_records_lag_max", "jvm_memory_used_bytes");
        } finally {
            demo.destroy();
            assertThat(demo.waitFor(90, TimeUnit.SECONDS)).as("demo stops on SIGTERM").isTrue();
        }
        assertThat(Files.readString(log)).contains("rowflow demo summary");
    }

    private static int statusOf(String url) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private static String get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
