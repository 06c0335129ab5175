package dev.rowflow.pipeline.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;

/**
 * HTTP endpoints for Kubernetes and Prometheus: {@code /metrics} (Prometheus text format),
 * {@code /healthz} (200 while the process serves) and {@code /readyz} (200 when the pipeline says
 * it is ready, 503 otherwise).
 */
public final class MetricsServer implements AutoCloseable {
    private final PrometheusMeterRegistry registry;
    private final JvmGcMetrics gcMetrics;
    private final HttpServer server;
    private volatile BooleanSupplier ready = () -> false;

    private MetricsServer(PrometheusMeterRegistry registry, JvmGcMetrics gcMetrics, HttpServer server) {
        this.registry = registry;
        this.gcMetrics = gcMetrics;
        this.server = server;
    }

    /** Starts serving on {@code port} (0 picks a free one) of all interfaces. */
    public static MetricsServer start(int port) throws IOException {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        JvmGcMetrics gcMetrics = new JvmGcMetrics();
        gcMetrics.bindTo(registry);

        HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
        MetricsServer metrics = new MetricsServer(registry, gcMetrics, server);
        server.createContext("/metrics", exchange -> respond(exchange, 200,
                "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
        server.createContext("/healthz", exchange -> respond(exchange, 200, "text/plain", "ok\n"));
        server.createContext("/readyz", exchange -> {
            boolean isReady = metrics.ready.getAsBoolean();
            respond(exchange, isReady ? 200 : 503, "text/plain", isReady ? "ready\n" : "not ready\n");
        });
        server.start();
        return metrics;
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The port actually bound. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** What {@code /readyz} asks. */
    public void readiness(BooleanSupplier ready) {
        this.ready = ready;
    }

    @Override
    public void close() {
        server.stop(0);
        gcMetrics.close();
        registry.close();
    }

    private static void respond(HttpExchange exchange, int status, String contentType, String body)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
