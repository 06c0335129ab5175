package dev.rowflow.demo;

import dev.rowflow.pipeline.config.RowflowConfig;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** A {@code rowflow run} in a JVM of its own, on its own group and tables, and its /metrics. */
record RowflowJvm(ChildJvm jvm, String group, String topic, String dataTable, java.net.URI metrics, Path log,
                  long launched) implements AutoCloseable {
    /**
     * @param format {@code avro}: the log pipeline reads {@code topic}; {@code json}: a declared
     *               input making the same rows ({@link InputBench#declare})
     */
    static RowflowJvm start(Map<String, Object> base, String name, String topic, String format,
                            List<String> jvmOptions, Path dir) throws IOException {
        return start(base, name, 0, Map.of(), topic, format, jvmOptions, dir, false);
    }

    /**
     * Instance {@code instance} of the rowflow application {@code name}: instances of one
     * name share its group and tables, each with its own configuration file, log and metrics
     * port; {@code extra} settings (e.g. {@code kafka.num.stream.threads}) are added. With
     * {@code tablesFirst} its tables are created before it is launched ({@code rowflow tables create}
     * in this JVM), so that it starts as a restarted or newly scaled instance does, its tables there.
     */
    static RowflowJvm start(Map<String, Object> base, String name, int instance, Map<String, Object> extra,
                            String topic, String format, List<String> jvmOptions, Path dir, boolean tablesFirst)
            throws IOException {
        Map<String, Object> props = new LinkedHashMap<>(base);
        props.putAll(extra);
        String group = "bench-external-" + name;
        int metricsPort = freePort();
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, group);
        if (format.equals("avro")) {
            props.put(RowflowConfig.LOGS_TOPIC_CONFIG, topic);
            props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, "rowflow" + name + "_data");
            props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, "rowflow" + name + "_index");
            props.put(RowflowConfig.LOG_SUMMARY_TABLE_CONFIG, "rowflow" + name + "_summary");
        } else {
            InputBench.declare(props, "bench" + format, topic, format, "rowflow" + name);
        }
        props.put(RowflowConfig.METRICS_PORT_CONFIG, Integer.toString(metricsPort));
        String file = "rowflow-" + name + (instance == 0 ? "" : "-" + instance);
        Path config = ExternalBench.write(dir.resolve(file + ".properties"), props);
        Path log = dir.resolve(file + ".log");
        if (tablesFirst) {
            java.io.StringWriter said = new java.io.StringWriter();
            int created = dev.rowflow.pipeline.cli.Rowflow.commandLine().setOut(new java.io.PrintWriter(said))
                    .setErr(new java.io.PrintWriter(said)).execute("tables", "create", "--config", config.toString());
            if (created != 0) {
                throw new IOException("rowflow tables create --config " + config + " failed: " + said);
            }
        }
        long launched = System.nanoTime();
        ChildJvm jvm = ChildJvm.start("rowflow run", jvmOptions, "dev.rowflow.pipeline.cli.Rowflow",
                List.of("run", "--config", config.toString()), log);
        return new RowflowJvm(jvm, group, topic, "rowflow" + name + "_data",
                // Only the series the bench reads: rendering all of Kafka's metrics costs the process CPU.
                java.net.URI.create("http://127.0.0.1:" + metricsPort + "/metrics?" + Stream.of(
                        "kafka_stream_thread_process_total", "rowflow_sink_sent_rows_total", "rowflow_sink_rows_total",
                        "rowflow_ready")
                        .map(metric -> "name%5B%5D=" + metric).collect(Collectors.joining("&"))), log, launched);
    }

    /** Throws if it exited or {@code deadline} (System.nanoTime) passed. */
    void check(long deadline, String waitingFor) {
        if (!jvm.process().isAlive()) {
            throw new IllegalStateException("rowflow run exited with " + jvm.process().exitValue() + "; its log: "
                    + log);
        }
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException("rowflow run: no " + waitingFor + " within the time given; its log: " + log);
        }
    }

    @Override
    public void close() throws InterruptedException {
        jvm.close();
    }

    /** What a rowflow run's /metrics says of its progress (zeros before it answers). */
    record Progress(long consumed, long sent, long durable, boolean ready) {
    }

    /** Its progress as {@code metrics} (its /metrics address) says. */
    static Progress progress(java.net.http.HttpClient http, java.net.URI metrics) throws InterruptedException {
        try {
            String text = http.send(java.net.http.HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(5)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            long consumed = 0;
            long sent = 0;
            long durable = 0;
            boolean ready = false;
            for (String line : text.split("\n")) {
                if (line.startsWith("kafka_stream_thread_process_total{")) {
                    consumed += value(line);
                } else if (line.startsWith("rowflow_sink_sent_rows_total{")) {
                    sent += value(line);
                } else if (line.startsWith("rowflow_sink_rows_total{")) {
                    durable += value(line);
                } else if (line.startsWith("rowflow_ready")) {
                    ready = value(line) == 1;
                }
            }
            return new Progress(consumed, sent, durable, ready);
        } catch (IOException notYet) {
            return new Progress(0, 0, 0, false);
        }
    }

    private static long value(String line) {
        return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
