package dev.rowflow.pipeline.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Clock;
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
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * HTTP endpoints for Kubernetes and Prometheus: {@code /metrics} (Prometheus text format; only
 * the metrics named by {@code name[]} parameters if there are any, and only those are collected:
 * {@link NamedScrapeRegistry}),
 * {@code /healthz} (200 while the process serves), {@code /readyz} (200 when the pipeline says
 * it is ready, 503 otherwise) and {@code /status} (the pipeline's status as JSON, 503 until it has
 * started).
 */
public final class MetricsServer implements AutoCloseable {
    private final PrometheusMeterRegistry registry;
    private final JvmGcMetrics gcMetrics;
    private final HttpServer server;
    private volatile BooleanSupplier ready = () -> false;
    private volatile java.util.function.Supplier<String> status;

    private MetricsServer(PrometheusMeterRegistry registry, JvmGcMetrics gcMetrics, HttpServer server) {
        this.registry = registry;
        this.gcMetrics = gcMetrics;
        this.server = server;
    }

    /** Starts serving on {@code port} (0 picks a free one) of all interfaces. */
    public static MetricsServer start(int port) throws IOException {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
                new NamedScrapeRegistry(), Clock.SYSTEM);
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        JvmGcMetrics gcMetrics = new JvmGcMetrics();
        gcMetrics.bindTo(registry);

        HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
        MetricsServer metrics = new MetricsServer(registry, gcMetrics, server);
        server.createContext("/metrics", exchange -> {
            java.util.Set<String> names = namesAsked(exchange.getRequestURI().getRawQuery());
            respond(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", names.isEmpty() ? registry.scrape()
                    : registry.scrape("text/plain; version=0.0.4; charset=utf-8", names));
        });
        server.createContext("/healthz", exchange -> respond(exchange, 200, "text/plain", "ok\n"));
        server.createContext("/readyz", exchange -> {
            boolean isReady = metrics.ready.getAsBoolean();
            respond(exchange, isReady ? 200 : 503, "text/plain", isReady ? "ready\n" : "not ready\n");
        });
        server.createContext("/status", exchange -> {
            java.util.function.Supplier<String> status = metrics.status;
            if (status == null) {
                respond(exchange, 503, "text/plain", "starting\n");
            } else {
                respond(exchange, 200, "application/json", status.get());
            }
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

    /** What {@code /status} serves: a JSON document, made at each request. */
    public void status(java.util.function.Supplier<String> status) {
        this.status = status;
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

    /**
     * The metric names of {@code name[]=...} parameters, as Prometheus' own client takes them (a
     * series name such as {@code x_total} stands for its metric {@code x}): a poller that wants a
     * few series does not pay for rendering all of Kafka's.
     */
    static java.util.Set<String> namesAsked(String query) {
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        if (query == null) {
            return names;
        }
        for (String parameter : query.split("&")) {
            int eq = parameter.indexOf('=');
            if (eq > 0 && java.net.URLDecoder.decode(parameter.substring(0, eq), StandardCharsets.UTF_8).equals("name[]")) {
                String name = java.net.URLDecoder.decode(parameter.substring(eq + 1), StandardCharsets.UTF_8);
                names.add(name);
                // A series' name as it is exported (a counter's _total) asks for its metric.
                for (String suffix : List.of("_total", "_count", "_sum", "_bucket", "_max")) {
                    if (name.endsWith(suffix)) {
                        names.add(name.substring(0, name.length() - suffix.length()));
                    }
                }
            }
        }
        return names;
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
