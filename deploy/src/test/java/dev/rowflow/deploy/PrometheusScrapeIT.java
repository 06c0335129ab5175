package dev.rowflow.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.pipeline.metrics.MetricsServer;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Prometheus (Debian's package) scrapes a running rowflow on the embedded stack every
 * second; every PromQL expression of the dashboard and the alert rules is run against it and must
 * parse, and the throughput panels must return data. Skipped with a message where Prometheus is
 * not installed.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class PrometheusScrapeIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static MetricsServer metrics;
    private static RowflowPipeline pipeline;
    private static Process prometheus;
    private static Path dir;
    private static String prometheusUrl;
    private static final AtomicBoolean stopProducing = new AtomicBoolean();
    private static Thread producing;

    @BeforeAll
    static void start(EmbeddedStack stack) throws Exception {
        Path binary = Promtool.require("prometheus");
        Map<String, Object> props = new HashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "scrape");
        props.put(RowflowConfig.LOGS_TOPIC_CONFIG, "scrape-logs");
        props.put(RowflowConfig.LOGS_DEAD_LETTER_TOPIC_CONFIG, "scrape-logs.dead-letter");
        props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, "scrape_data");
        props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, "scrape_index");
        props.put(RowflowConfig.LOG_SUMMARY_TABLE_CONFIG, "scrape_summary");
        props.put(RowflowConfig.LOG_DATA_LAYOUT_CONFIG, "bucket(4) | timestamp:ts, hostname:text, eventType:text");
        props.put("kafka.commit.interval.ms", "500");
        RowflowConfig config = new RowflowConfig(props);
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, "scrape-logs", Optional.of(2), Duration.ofSeconds(30));
        }
        metrics = MetricsServer.start(0);
        pipeline = RowflowPipeline.start(config, metrics.registry());
        metrics.readiness(pipeline::ready);

        // A steady flow of events, and one bad record so the dead-letter counter exists.
        producing = new Thread(() -> {
            LogEventGenerator generator = new LogEventGenerator(3, 20, System.currentTimeMillis());
            try (LogEventProducer producer = LogEventProducer.open(config.kafkaProperties(), "scrape-logs")) {
                producer.sendRaw("bad", "not avro".getBytes(StandardCharsets.UTF_8));
                while (!stopProducing.get()) {
                    for (int i = 0; i < 50; i++) {
                        producer.send(generator.next());
                    }
                    producer.flush();
                    Thread.sleep(100);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "scrape-producer");
        producing.start();

        dir = Files.createTempDirectory("rowflow-prometheus-");
        int port = freePort();
        Files.writeString(dir.resolve("prometheus.yml"), """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                rule_files:
                  - %s
                scrape_configs:
                  - job_name: rowflow
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """.formatted(Promtool.RULES, metrics.port()));
        prometheus = new ProcessBuilder(binary.toString(), "--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        prometheusUrl = "http://127.0.0.1:" + port;
    }

    @AfterAll
    static void stop() throws Exception {
        stopProducing.set(true);
        if (producing != null) {
            producing.join(30_000);
        }
        if (prometheus != null) {
            prometheus.destroy();
            prometheus.waitFor(30, TimeUnit.SECONDS);
        }
        if (pipeline != null) {
            pipeline.close();
        }
        if (metrics != null) {
            metrics.close();
        }
    }

    @Test
    void shouldAnswerEveryExpressionOfTheDashboardAndTheRulesAndShowThroughput() throws Exception {
        // The throughput panels: once Prometheus has a few scrapes of a flowing pipeline, they show it.
        String recordsIn = panelExpression("Records in");
        String rowsOut = panelExpression("Rows out");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && !(positive(queryWhenUp(recordsIn)) && positive(queryWhenUp(rowsOut)))) {
            assertThat(prometheus.isAlive()).as("prometheus alive; log:%n%s", log()).isTrue();
            Thread.sleep(1_000);
        }
        assertThat(positive(query(recordsIn))).as("%s returns a rate above 0; log:%n%s", recordsIn, log()).isTrue();
        assertThat(positive(query(rowsOut))).as("%s returns a rate above 0", rowsOut).isTrue();

        List<String> expressions = new ArrayList<>();
        DashboardTest.expressions().forEach(e -> expressions.add(dashboardToPromQL(e)));
        for (JsonNode group : new ObjectMapper(new YAMLFactory()).readTree(Promtool.RULES.toFile()).path("groups")) {
            group.path("rules").forEach(rule -> expressions.add(rule.path("expr").asText()));
        }
        Map<String, String> failures = new LinkedHashMap<>();
        for (String expr : expressions) {
            JsonNode answer = query(expr);
            if (!answer.path("status").asText().equals("success")) {
                failures.put(expr, answer.toString());
            }
        }
        assertThat(failures).as("expressions Prometheus refused").isEmpty();
        assertThat(expressions).hasSize(DashboardTest.expressions().size() + 9);

        // The metrics the dashboard's "why is it slow" panels read are there too.
        for (String series : List.of("rowflow_sink_flush_seconds_bucket", "rowflow_sink_bucket_rows_total",
                "rowflow_sink_unflushed_bytes", "rowflow_sink_sent_rows_total", "rowflow_ready", "rowflow_hbase_reachable", "rowflow_dead_letters_total",
                "kafka_consumer_fetch_manager_records_lag_max", "jvm_memory_used_bytes", "rowflow_streams_tasks",
                "rowflow_streams_rebalances_total", "rowflow_streams_rebalancing_seconds_count",
                "rowflow_streams_restore_remaining_records", "rowflow_streams_restored_records_total")) {
            assertThat(query(series).path("data").path("result")).as("series %s scraped", series).isNotEmpty();
        }
    }

    /** Grafana's interval variable as Prometheus reads it: enough for rate() over 1 s scrapes. */
    private static String dashboardToPromQL(String expr) {
        return expr.replace("$__rate_interval", "15s");
    }

    private static String panelExpression(String title) throws Exception {
        for (JsonNode panel : JSON.readTree(Promtool.DASHBOARD.toFile()).path("panels")) {
            if (panel.path("title").asText().equals(title) && panel.path("type").asText().equals("timeseries")) {
                return dashboardToPromQL(panel.path("targets").get(0).path("expr").asText());
            }
        }
        throw new AssertionError("no panel " + title);
    }

    private static JsonNode query(String expr) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(prometheusUrl + "/api/v1/query?query="
                + URLEncoder.encode(expr, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(response.body());
    }

    /** A query, or an empty answer while Prometheus is still starting. */
    private static JsonNode queryWhenUp(String expr) throws Exception {
        try {
            return query(expr);
        } catch (java.io.IOException e) {
            return JSON.createObjectNode();
        }
    }

    private static boolean positive(JsonNode answer) {
        for (JsonNode sample : answer.path("data").path("result")) {
            if (Double.parseDouble(sample.path("value").get(1).asText()) > 0) {
                return true;
            }
        }
        return false;
    }

    private static String log() throws Exception {
        String log = Files.readString(dir.resolve("prometheus.log"));
        return log.substring(Math.max(0, log.length() - 3_000));
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
