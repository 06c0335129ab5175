package dev.rowflow.pipeline.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class MetricsServerTest {
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void shouldServePrometheusMetricsLivenessAndReadiness() throws Exception {
        try (MetricsServer server = MetricsServer.start(0)) {
            AtomicBoolean ready = new AtomicBoolean(false);

            HttpResponse<String> metrics = get(server, "/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.body()).contains("# TYPE jvm_memory_used_bytes gauge");
            assertThat(get(server, "/healthz").statusCode()).isEqualTo(200);
            assertThat(get(server, "/readyz").statusCode()).as("ready before a pipeline says so").isEqualTo(503);

            server.readiness(ready::get);
            assertThat(get(server, "/readyz").statusCode()).isEqualTo(503);
            ready.set(true);
            assertThat(get(server, "/readyz").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void shouldServeOnlyTheMetricsNamedByNameParameters() throws Exception {
        try (MetricsServer server = MetricsServer.start(0)) {
            server.registry().counter("rowflow.sink.sent.rows", "table", "t").increment(7);
            server.registry().counter("rowflow.sink.rows", "table", "t").increment(3);

            String body = get(server, "/metrics?name[]=rowflow_sink_sent_rows_total&name%5B%5D=jvm_threads_live_threads")
                    .body();

            assertThat(body).contains("rowflow_sink_sent_rows_total{table=\"t\"} 7.0", "jvm_threads_live_threads ")
                    .doesNotContain("rowflow_sink_rows_total", "jvm_memory_used_bytes");
            assertThat(get(server, "/metrics?other=1").body()).contains("rowflow_sink_rows_total{table=\"t\"} 3.0",
                    "jvm_memory_used_bytes");
        }
    }

    @Test
    void shouldCollectOnlyTheMetersOfTheNamesAskedOnceItHasSeenThem() throws Exception {
        try (MetricsServer server = MetricsServer.start(0)) {
            AtomicInteger reads = new AtomicInteger();
            Gauge.builder("kafka.consumer.records.lag", reads, AtomicInteger::incrementAndGet).register(server.registry());
            server.registry().counter("rowflow.sink.sent.rows").increment(2);

            for (int i = 0; i < 3; i++) {
                assertThat(get(server, "/metrics?name[]=rowflow_sink_sent_rows_total").body())
                        .contains("rowflow_sink_sent_rows_total 2.0").doesNotContain("kafka_consumer_records_lag");
            }
            assertThat(reads).as("read by the first filtered scrape only, which learns its name").hasValue(1);

            assertThat(get(server, "/metrics").body()).contains("kafka_consumer_records_lag 2.0");
            assertThat(get(server, "/metrics?name[]=kafka_consumer_records_lag").body())
                    .contains("kafka_consumer_records_lag 3.0").doesNotContain("rowflow_sink_sent_rows_total");

            Counter late = server.registry().counter("rowflow.sink.failed.rows");
            late.increment(5);
            assertThat(get(server, "/metrics?name[]=rowflow_sink_failed_rows_total").body())
                    .contains("rowflow_sink_failed_rows_total 5.0");
            server.registry().remove(late);
            assertThat(get(server, "/metrics?name[]=rowflow_sink_failed_rows_total&name[]=rowflow_sink_sent_rows_total")
                    .body()).contains("rowflow_sink_sent_rows_total 2.0").doesNotContain("rowflow_sink_failed_rows");
            assertThat(reads).hasValue(3);
        }
    }

    private HttpResponse<String> get(MetricsServer server, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
