package dev.rowflow.demo;

import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.embedded.load.Offsets;
import dev.rowflow.events.LogEvent;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import org.apache.kafka.clients.admin.Admin;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@code rowflow bench --external}: Kafka and HBase each in a JVM of its own
 * ({@code ServerProcess}), and each writer under measurement in a JVM of its own with the Helm
 * chart's JVM options: the raw client ({@link RawWriter}, 2 threads of BufferedMutators, no Kafka)
 * and {@code rowflow run} with the default configuration, reading the same events from a topic.
 * Several rounds in rotated order; per writer the medians of rows/s (steady: from its first row
 * durable to its last), CPU seconds and CPU per row of its process over that span, its peak RSS,
 * and how busy the machine was.
 */
final class ExternalBench {
    static final String TOPIC = "bench-external";
    static final int PARTITIONS = 4;
    static final int RAW_THREADS = 2;

    /** One writer's figures in one round. */
    /**
     * One writer's figures in one round: rows/s from its first record read to its last row durable
     * (rowflow: at the commit after it), steady rows/s while it works through the records (rowflow:
     * first to last record processed), CPU over the first span.
     */
    record Run(String writer, int round, long rows, double seconds, double rowsPerSecond, double steadyRowsPerSecond,
               double cpuSeconds, double cpuMicrosPerRow, long peakRssMb, double machineBusy, long dataRows) {
    }

    /** Medians per writer, and the ratios the targets are stated in. */
    record Result(int events, int rounds, List<String> jvmOptions, List<Run> runs, Map<String, Run> medians,
                  double rowsRatio, double steadyRatio, double cpuRatio) {
    }

    private ExternalBench() {
    }

    /** The bench's events: the same for every writer and round. */
    static List<LogEvent> events(int count, long start) {
        LogEventGenerator generator = new LogEventGenerator(8, 200, start);
        List<LogEvent> events = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            events.add(generator.next());
        }
        return events;
    }

    static Result run(int events, int rounds, PrintWriter err) throws Exception {
        Path dir = Files.createTempDirectory("rowflow-bench-external-");
        Files.createDirectories(dir.resolve("kafka"));
        Files.createDirectories(dir.resolve("hbase"));
        List<String> jvmOptions = List.of("-XX:MaxRAM=" + PipelineMemory.POD_MEMORY_LIMIT_MB + "m",
                "-XX:MaxRAMPercentage=" + PipelineMemory.MAX_RAM_PERCENTAGE, "-XX:+ExitOnOutOfMemoryError");
        err.println("bench --external: starting Kafka and HBase, each in a JVM of its own ...");
        err.flush();
        try (ChildJvm kafka = ChildJvm.start("kafka", List.of("-Xmx768m"), "dev.rowflow.embedded.ServerProcess",
                List.of("kafka", dir.resolve("kafka").toString()), null);
             ChildJvm hbase = ChildJvm.start("hbase", List.of("-Xmx1g"), "dev.rowflow.embedded.ServerProcess",
                     List.of("hbase", dir.resolve("hbase").toString()), null)) {
            Map<String, Object> base = new LinkedHashMap<>();
            base.putAll(settings(kafka.awaitLine("READY")));
            base.putAll(settings(hbase.awaitLine("READY")));
            base.put(RowflowConfig.LOGS_TOPIC_CONFIG, TOPIC);
            // The raw client writes data and index rows; so does rowflow here (its summary table is extra work).
            base.put(RowflowConfig.LOG_SUMMARY_ENABLED_CONFIG, "false");
            base.put("kafka.state.dir", dir.resolve("streams-state").toString());
            err.printf("bench --external: Kafka pid %d, HBase pid %d; %,d events to topic %s%n", kafka.pid(), hbase.pid(),
                    events, TOPIC);
            err.flush();
            long start = System.currentTimeMillis() - events;
            RowflowConfig config = new RowflowConfig(base);
            try (Admin admin = Admin.create(config.kafkaProperties())) {
                KafkaTopics.createIfAbsent(admin, TOPIC, Optional.of(PARTITIONS), Duration.ofSeconds(60));
                try (LogEventProducer producer = LogEventProducer.open(config.kafkaProperties(), TOPIC)) {
                    for (LogEvent event : events(events, start)) {
                        producer.send(event);
                    }
                    producer.flush();
                }
                List<Run> runs = new ArrayList<>();
                for (int round = 1; round <= rounds; round++) {
                    // Rotated: the writer that goes first gets the quieter cluster.
                    boolean rawFirst = round % 2 == 1;
                    for (String writer : rawFirst ? List.of("raw", "rowflow") : List.of("rowflow", "raw")) {
                        Run run = writer.equals("raw")
                                ? raw(base, events, start, round, jvmOptions, dir, err)
                                : rowflow(base, admin, events, round, jvmOptions, dir, err);
                        runs.add(run);
                        err.printf("  round %d %-8s %,d rows in %.1f s: %,.0f rows/s (steady %,.0f), %.1f CPU-s "
                                        + "(%.1f us/row), peak RSS %d MB, machine %.0f%% busy%n", round, writer, run.rows(),
                                run.seconds(), run.rowsPerSecond(), run.steadyRowsPerSecond(), run.cpuSeconds(),
                                run.cpuMicrosPerRow(), run.peakRssMb(), run.machineBusy() * 100);
                        err.flush();
                    }
                }
                Map<String, Run> medians = new LinkedHashMap<>();
                for (String writer : List.of("raw", "rowflow")) {
                    medians.put(writer, median(writer, runs.stream().filter(r -> r.writer().equals(writer)).toList()));
                }
                Run raw = medians.get("raw");
                Run rowflow = medians.get("rowflow");
                return new Result(events, rounds, jvmOptions, runs, medians,
                        round2(rowflow.rowsPerSecond() / raw.rowsPerSecond()),
                        round2(rowflow.steadyRowsPerSecond() / raw.steadyRowsPerSecond()),
                        round2(rowflow.cpuMicrosPerRow() / raw.cpuMicrosPerRow()));
            }
        }
    }

    private static Run raw(Map<String, Object> base, int events, long start, int round, List<String> jvmOptions,
                           Path dir, PrintWriter err) throws Exception {
        Path config = write(dir.resolve("raw-" + round + ".properties"), base);
        CpuMeter machine = new CpuMeter();
        try (ChildJvm writer = ChildJvm.start("raw writer", jvmOptions, RawWriter.class.getName(), List.of(
                config.toString(), Integer.toString(events), Long.toString(start), Integer.toString(RAW_THREADS),
                "raw" + round + "_"), dir.resolve("raw-" + round + ".log"))) {
            Map<String, String> result = settings(writer.awaitLine("RESULT"));
            double busy = machine.stop().machineBusy();
            long rows = Long.parseLong(result.get("rows"));
            double seconds = Double.parseDouble(result.get("seconds"));
            double cpu = Double.parseDouble(result.get("cpuSeconds"));
            return new Run("raw", round, rows, seconds, rows / seconds, rows / seconds, cpu, round1(cpu * 1e6 / rows),
                    Long.parseLong(result.get("peakRssMb")), busy, dataRows(base, "raw" + round + "_log_data"));
        }
    }

    private static Run rowflow(Map<String, Object> base, Admin admin, int events, int round, List<String> jvmOptions,
                               Path dir, PrintWriter err) throws Exception {
        Map<String, Object> props = new LinkedHashMap<>(base);
        String group = "bench-external-" + round;
        int metricsPort = freePort();
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, group);
        props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, "rowflow" + round + "_data");
        props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, "rowflow" + round + "_index");
        props.put(RowflowConfig.LOG_SUMMARY_TABLE_CONFIG, "rowflow" + round + "_summary");
        props.put(RowflowConfig.METRICS_PORT_CONFIG, Integer.toString(metricsPort));
        Path config = write(dir.resolve("rowflow-" + round + ".properties"), props);
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.net.URI metrics = java.net.URI.create("http://127.0.0.1:" + metricsPort + "/metrics");
        long rows = 2L * events;
        try (ChildJvm rowflow = ChildJvm.start("rowflow run", jvmOptions, "dev.rowflow.pipeline.cli.Rowflow",
                List.of("run", "--config", config.toString()), dir.resolve("rowflow-" + round + ".log"))) {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            long t0 = 0;
            long t1 = 0;
            double cpu0 = 0;
            CpuMeter machine = null;
            while (true) {
                if (!rowflow.process().isAlive()) {
                    throw new IllegalStateException("rowflow run exited with " + rowflow.process().exitValue()
                            + "; its log: " + dir.resolve("rowflow-" + round + ".log"));
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("rowflow run did not finish within 10 minutes");
                }
                // From its /metrics: records its stream threads processed, and rows made durable
                // (rowflow_sink_rows_total counts after the flush at a commit).
                long[] progress = progress(http, metrics);
                long consumed = progress[0];
                long durable = progress[1];
                if (t0 == 0 && consumed > 0) {
                    // Its first records: from here it works, past start-up and the group's join.
                    t0 = System.nanoTime();
                    cpu0 = rowflow.cpuSeconds();
                    machine = new CpuMeter();
                }
                if (t0 != 0 && t1 == 0 && consumed >= events) {
                    t1 = System.nanoTime();
                }
                if (durable >= rows) {
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    double steadySeconds = ((t1 == 0 ? System.nanoTime() : t1) - t0) / 1e9;
                    double cpu = rowflow.cpuSeconds() - cpu0;
                    long peak = rowflow.peakRssMb();
                    double busy = machine.stop().machineBusy();
                    awaitCommitted(admin, group, events);
                    return new Run("rowflow", round, rows, seconds, rows / seconds, rows / steadySeconds, cpu,
                            round1(cpu * 1e6 / rows), peak, busy, dataRows(base, "rowflow" + round + "_data"));
                }
                Thread.sleep(20);
            }
        }
    }

    /**
     * {records its stream threads processed, rows made durable} from its /metrics, or zeros before
     * it answers.
     */
    private static long[] progress(java.net.http.HttpClient http, java.net.URI metrics) throws InterruptedException {
        try {
            String text = http.send(java.net.http.HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(5)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            long consumed = 0;
            long durable = 0;
            for (String line : text.split("\n")) {
                if (line.startsWith("kafka_stream_thread_process_total{")) {
                    consumed += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                } else if (line.startsWith("rowflow_sink_rows_total{")) {
                    durable += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
            return new long[] {consumed, durable};
        } catch (IOException notYet) {
            return new long[] {0, 0};
        }
    }

    /** Waits until the group has committed every event (the rows are durable already). */
    private static void awaitCommitted(Admin admin, String group, long events) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (Offsets.committed(admin, group, TOPIC) < events) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("rowflow run wrote every row but did not commit within 2 minutes");
            }
            Thread.sleep(100);
        }
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The middle run of a writer by rows/s (the lower middle of an even count). */
    private static Run median(String writer, List<Run> runs) {
        List<Run> sorted = new ArrayList<>(runs);
        sorted.sort(java.util.Comparator.comparingDouble(Run::rowsPerSecond));
        Run middle = sorted.get((sorted.size() - 1) / 2);
        List<Double> cpu = runs.stream().map(Run::cpuMicrosPerRow).sorted().toList();
        List<Long> rss = runs.stream().map(Run::peakRssMb).sorted().toList();
        List<Double> steady = runs.stream().map(Run::steadyRowsPerSecond).sorted().toList();
        return new Run(writer, 0, middle.rows(), middle.seconds(), middle.rowsPerSecond(),
                steady.get((steady.size() - 1) / 2), middle.cpuSeconds(), cpu.get((cpu.size() - 1) / 2), rss.get(rss.size() - 1), middle.machineBusy(),
                middle.dataRows());
    }

    /** Rows of a writer's data table: every event's row must be there, once. */
    private static long dataRows(Map<String, Object> base, String table) throws Exception {
        try (org.apache.hadoop.hbase.client.Connection connection =
                     dev.rowflow.pipeline.runtime.RowflowPipeline.connect(new RowflowConfig(base));
             org.apache.hadoop.hbase.client.Table t = connection.getTable(
                     org.apache.hadoop.hbase.TableName.valueOf(table));
             org.apache.hadoop.hbase.client.ResultScanner scanner = t.getScanner(new org.apache.hadoop.hbase.client.Scan()
                     .setFilter(new org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter()).setCaching(5_000))) {
            long rows = 0;
            for (var ignored : scanner) {
                rows++;
            }
            return rows;
        }
    }

    /** {@code key=value key=value} as a map. */
    private static Map<String, String> settings(String line) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String pair : line.trim().split("\\s+")) {
            int eq = pair.indexOf('=');
            settings.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return settings;
    }

    private static Path write(Path file, Map<String, Object> props) throws IOException {
        return Files.writeString(file, props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")));
    }

    private static double round1(double value) {
        return Math.round(value * 10) / 10.0;
    }

    private static double round2(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
