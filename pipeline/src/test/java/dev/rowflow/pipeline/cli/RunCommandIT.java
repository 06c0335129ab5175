package dev.rowflow.pipeline.cli;

import dev.rowflow.embedded.load.Offsets;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.pipeline.runtime.InstanceStatus;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The production artifact as an operator runs it: {@code java -jar rowflow-pipeline.jar run
 * --config FILE} in its own JVM, with only its own lib/ (no embedded stack), against the embedded
 * Kafka and HBase as if they were external; stopped with SIGTERM.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class RunCommandIT {
    private static final String FILE_SECRET = "FileSecret-7f3a";
    private static final String ENV_SECRET = "EnvSecret-91c2";
    private static EmbeddedStack stack;

    @BeforeAll
    static void shareStack(EmbeddedStack shared) {
        stack = shared;
    }

    @Test
    void shouldRunFromAConfigFileAndEnvironmentAndCommitEverythingBeforeExitingOnSigterm(@TempDir Path dir)
            throws Exception {
        int metricsPort = freePort();
        Path configFile = dir.resolve("rowflow.properties");
        Files.writeString(configFile, stack.rowflowProperties().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("\n"))
                + "\napplication.id=it-run\ntable.log.data=run_data\ntable.log.index=run_index\n"
                + "keying.layout.log.data=bucket(4) | timestamp:ts, hostname:text, eventType:text\nmetrics.port=" + metricsPort + "\n"
                // a long commit interval: the rows of the last records are committed by SIGTERM
                + "kafka.commit.interval.ms=600000\n"
                // secrets (unused over PLAINTEXT, but parsed and dumped by the Kafka clients' config logging)
                + "kafka.ssl.truststore.password=" + FILE_SECRET + "\n");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.kafka().bootstrapServers()))) {
            KafkaTopics.createIfAbsent(admin, "run-logs", Optional.of(2), Duration.ofSeconds(30));
            try (LogEventProducer producer = LogEventProducer.open(
                    Map.of("bootstrap.servers", stack.kafka().bootstrapServers()), "run-logs")) {
                producer.sendAll(new LogEventGenerator(11, 20, 1_700_000_000_000L), 2_000, () -> false);
                for (int i = 0; i < 3; i++) {
                    producer.sendRaw("bad-" + i, ("not avro " + i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
            }

            List<String> command = new java.util.ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(dev.rowflow.embedded.CrashReports.sameAsThisJvm());
            command.addAll(List.of("-jar", System.getProperty("rowflow.pipeline.jar"), "run", "--config",
                    configFile.toString()));
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("rowflow.log").toFile());
            // The topic comes from the environment, overriding the file's default.
            builder.environment().put("ROWFLOW_CONFIG_TOPIC_LOGS", "run-logs");
            builder.environment().put("ROWFLOW_CONFIG_KAFKA_SASL_JAAS_CONFIG",
                    "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\""
                            + ENV_SECRET + "\";");
            Process rowflow = builder.start();
            try {
                awaitReady(metricsPort, rowflow, dir);
                awaitRows("run_data", 2_000, rowflow, dir);
                String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + metricsPort + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
                assertThat(metrics).contains("rowflow_sink_rows_total").doesNotContain(FILE_SECRET, ENV_SECRET);
                assertThat(Offsets.uncommitted(admin, "it-run", "run-logs"))
                        .as("nothing committed yet with a 10-minute commit interval").isEqualTo(2_003);
                // /status, and `rowflow status` reading it: all read, the rows written, 3 set aside, no commit yet.
                InstanceStatus.Input logs = awaitStatus(metricsPort, s -> s.inputs().get(0).deadLetters() == 3
                        && s.inputs().get(0).rowsOut() == 4_000 && s.inputs().get(0).recordsIn() == 2_003)
                        .inputs().get(0);
                assertThat(logs.name()).isEqualTo("logs");
                assertThat(logs.state()).isEqualTo("RUNNING");
                assertThat(logs.topics()).containsExactly("run-logs");
                assertThat(logs.partitions()).isEqualTo(2);
                assertThat(logs.lag()).isZero();
                assertThat(logs.recordsIn()).isEqualTo(2_003);
                assertThat(logs.rowsOut()).as("data and index rows").isEqualTo(4_000);
                assertThat(logs.lastError().reason()).isEqualTo("SerializationException");
                assertThat(logs.lastCommit()).as("nothing committed yet").isNull();
                java.io.StringWriter printed = new java.io.StringWriter();
                int exit = Rowflow.commandLine().setOut(new java.io.PrintWriter(printed))
                        .execute("status", "--url", "http://127.0.0.1:" + metricsPort);
                assertThat(exit).as("ready").isZero();
                assertThat(printed.toString()).startsWith("it-run (rowflow ").contains(": RUNNING, ready, HBase reachable, last commit never")
                        .containsPattern("\\nlogs +RUNNING +run-logs +2 +0 +2003 +4000 +3 +never +.* run-logs-[01]@\\d+ SerializationException");

                rowflow.destroy(); // SIGTERM
                assertThat(rowflow.waitFor(60, TimeUnit.SECONDS)).as("exited within 60 s of SIGTERM").isTrue();
                assertThat(rowflow.exitValue()).as("exit status after SIGTERM (a stop, not a failure)").isZero();
            } finally {
                rowflow.destroyForcibly();
            }

            assertThat(Offsets.uncommitted(admin, "it-run", "run-logs")).as("committed on SIGTERM").isZero();
            assertThat(countRows("run_data")).isEqualTo(2_000);
            assertThat(countRows("run_index")).isEqualTo(2_000);
            String log = Files.readString(dir.resolve("rowflow.log"));
            assertThat(log).contains("stopping: committing and closing");
            // Where its start-up went, the three parts adding up to the whole (each rounded to 10 ms).
            java.util.regex.Matcher started = java.util.regex.Pattern.compile("running; metrics on port \\d+; started in "
                    + "(\\d+\\.\\d\\d) s: the JVM and the command line (\\d+\\.\\d\\d) s, the configuration and plan "
                    + "(\\d+\\.\\d\\d) s, connections, tables and topics (\\d+\\.\\d\\d) s").matcher(log);
            assertThat(started.find()).as(log).isTrue();
            double parts = Double.parseDouble(started.group(2)) + Double.parseDouble(started.group(3))
                    + Double.parseDouble(started.group(4));
            assertThat(Double.parseDouble(started.group(1))).isPositive().isCloseTo(parts, org.assertj.core.data.Offset.offset(0.02));
            // Secrets from the file and the environment appear nowhere in what the process printed.
            assertThat(log).isNotEmpty().doesNotContain(FILE_SECRET, ENV_SECRET);
        }
    }

    private static void awaitReady(int port, Process rowflow, Path dir) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            assertThat(rowflow.isAlive()).as("rowflow alive; its log:%n%s", log(dir)).isTrue();
            try {
                HttpResponse<String> ready = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/readyz")).build(), HttpResponse.BodyHandlers.ofString());
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (java.io.IOException notListeningYet) {
                // the JVM is still starting
            }
            Thread.sleep(200);
        }
        throw new AssertionError("rowflow never became ready; its log:\n" + log(dir));
    }

    private static InstanceStatus awaitStatus(int port, java.util.function.Predicate<InstanceStatus> done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        InstanceStatus status;
        do {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/status")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).contains("application/json");
            status = InstanceStatus.fromJson(response.body());
        } while (!done.test(status) && System.nanoTime() < deadline && sleep());
        return status;
    }

    private static boolean sleep() throws InterruptedException {
        Thread.sleep(200);
        return true;
    }

    private static void awaitRows(String table, long expected, Process rowflow, Path dir) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (countRows(table) < expected && System.nanoTime() < deadline) {
            assertThat(rowflow.isAlive()).as("rowflow alive; its log:%n%s", log(dir)).isTrue();
            Thread.sleep(200);
        }
        assertThat(countRows(table)).as("rows in %s; rowflow's log:%n%s", table, log(dir)).isEqualTo(expected);
    }

    private static long countRows(String table) throws Exception {
        return dev.rowflow.embedded.load.TableRows.count(stack.hbase().connection(), table);
    }

    private static String log(Path dir) throws Exception {
        Path log = dir.resolve("rowflow.log");
        return Files.exists(log) ? Files.readString(log) : "(no log)";
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
