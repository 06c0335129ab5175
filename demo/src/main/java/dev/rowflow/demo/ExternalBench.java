package dev.rowflow.demo;

import dev.rowflow.embedded.load.LogEventGenerator;
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
 * chart's JVM options: the raw client ({@link RawWriter}, 2 threads of BufferedMutators, no Kafka),
 * rowflow's sink alone (2 threads, each with a sink of its own as a stream thread has, no Kafka:
 * where rowflow's HBase side stands against the raw client), and {@code rowflow run} with the default configuration, reading
 * the same events from a topic.
 * Several rounds in rotated order; per writer the medians of rows/s (steady: from its first row
 * durable to its last), CPU seconds and CPU per row of its process over that span, its peak RSS,
 * and how busy the machine was.
 */
final class ExternalBench {
    static final String TOPIC = "bench-external";
    static final int PARTITIONS = 4;
    static final int RAW_THREADS = 2;
    /**
     * How often a rowflow run's /metrics is read for its progress. Each read costs the measured
     * process CPU (every meter is collected, Kafka's included): at 50 ms it was a sixth of
     * rowflow's CPU samples. 250 ms is still 60 times Prometheus' usual 15 s, and the clock's
     * error stays within 2.5 % of a 10 s run.
     */
    static final int POLL_MILLIS = 250;
    /** The variants' numbers, for their groups' and tables' names. */
    private static final Map<String, Integer> VARIANTS = new java.util.concurrent.ConcurrentHashMap<>();
    /** How long events are produced at a steady rate for the latency figures. */
    static final int LATENCY_SECONDS = 20;

    /**
     * One writer's figures in one round: rows/s from its first record read to its last row
     * readable (acknowledged by HBase), steady rows/s while it works through the records (rowflow:
     * first to last record processed), CPU and bytes allocated per row over the first span, and
     * the CPU per row HBase's and Kafka's processes spent over it (what the writer costs the
     * servers on the same machine); rowflow's rows are durable (the offsets committed after them)
     * {@code durableSeconds} after its first record. Of the CPU per row, {@code jitMicrosPerRow}
     * went to the JIT compiler's threads, {@code gcMicrosPerRow} to the collector's and
     * {@code hbaseClientMicrosPerRow} to the HBase client's own threads, which encode the requests
     * and read the responses ({@link ThreadCpu}); the rest is the writer's own work. {@code secondHalfCpuMicrosPerRow} is the CPU per row from half its rows
     * (written, or acknowledged for rowflow) to the end: the process warmer, its JIT's work mostly done.
     * {@code hbaseGcMicrosPerRow} and {@code hbaseJitMicrosPerRow} are the parts of HBase's CPU per row its
     * collector's and its JIT compiler's threads took. {@code rowsPerWalAppend} is the writer's rows
     * over the entries the region server appended to its WAL for the writer's tables: it appends one per
     * region per batch of rows it takes (a mini-batch), so this is how many rows a region's batch held on
     * average -- the fewer, larger batches, the less the region server spends per row on its WAL, its
     * locks and its handlers.
     */
    record Run(String writer, int round, long rows, double seconds, double rowsPerSecond, double steadyRowsPerSecond,
               double cpuSeconds, double cpuMicrosPerRow, long allocatedBytesPerRow, long peakRssMb,
               double machineBusy, long dataRows, double durableSeconds, double hbaseMicrosPerRow,
               double kafkaMicrosPerRow, double jitMicrosPerRow, double gcMicrosPerRow, double hbaseClientMicrosPerRow,
               double secondHalfCpuMicrosPerRow, double hbaseGcMicrosPerRow, double hbaseJitMicrosPerRow,
               double rowsPerWalAppend) {

        /**
         * CPU per row neither compiling, collecting nor in the HBase client's threads: reading,
         * decoding, keying, buffering, handing rows to the client.
         */
        double ownMicrosPerRow() {
            return round1(cpuMicrosPerRow - jitMicrosPerRow - gcMicrosPerRow - hbaseClientMicrosPerRow);
        }
    }

    /**
     * {@code rows} over the WAL entries the region server appended for the tables whose names start
     * with {@code prefix} ({@link dev.rowflow.embedded.WalAppends}): rows per region batch.
     */
    private static double rowsPerWalAppend(Servers servers, String prefix, long rows) throws IOException {
        long appends = servers.hbase().invoke(dev.rowflow.embedded.WalAppends.OBJECT_NAME, "appendsOf", prefix);
        return appends == 0 ? 0 : round1((double) rows / appends);
    }

    /** CPU seconds of the HBase process (and of it its collector's and JIT's) and of the Kafka process so far. */
    private record ServerCpu(ThreadCpu hbase, double kafka) {
        static ServerCpu of(Servers servers) throws IOException {
            return new ServerCpu(ThreadCpu.of(servers.hbase().pid()), servers.kafka().cpuSeconds());
        }

        /** Microseconds per row of each since {@code before}: {hbase, kafka, hbase's collector, hbase's JIT}. */
        double[] perRowSince(ServerCpu before, long rows) {
            ThreadCpu spent = hbase.since(before.hbase);
            return new double[] {round1(spent.total() * 1e6 / rows), round1((kafka - before.kafka) * 1e6 / rows),
                    round1(spent.gc() * 1e6 / rows), round1(spent.jit() * 1e6 / rows)};
        }
    }

    /**
     * A writer's medians over the raw client's: rows/s, steady rows/s, CPU per row, CPU per row
     * without the JIT compiler's threads and CPU per row of the second half of the run (two ways to
     * see what a process that runs for days pays: its compilation is over in its first minute).
     */
    record Ratios(double rows, double steady, double cpu, double cpuWithoutJit, double secondHalfCpu) {
    }

    /**
     * Medians per writer ({@code raw}; rowflow's sink alone, {@code sink}; and
     * {@code rowflow-avro} and/or {@code rowflow-json}), each writer's ratios to the raw client (the targets are stated in
     * them), and per rowflow writer its latency (one run per round) and its JFR profile (if asked).
     */
    record Result(int events, int rounds, List<String> jvmOptions, Map<String, String> settings, List<Run> runs,
                  Map<String, Run> medians,
                  Map<String, Ratios> ratios, Map<String, List<VisibilityLatency.Result>> latencies,
                  Map<String, JfrProfile.Result> profiles) {
    }

    /** The formats rowflow reads in this bench: the log pipeline's Avro, and JSON through a declared input. */
    static final List<String> FORMATS = List.of("avro", "json");

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

    /**
     * @param formats          the formats rowflow reads, a writer each: {@code avro} (the log
     *                         pipeline) and {@code json} (a declared input making the same rows)
     * @param jfr              whether to add one more rowflow pass per format, not measured, recorded
     *                         with JFR ({@code settings=profile}) and read by {@link JfrProfile}
     * @param writerJvmOptions the writers' JVM options; empty for the Helm chart's
     * @param settings         settings added to the configuration of every rowflow run (not the raw client's)
     * @param variants         rowflow settings, each measured as one more writer of the first format
     *                         in every round: a setting against the default in the same run
     */
    static Result run(int events, int rounds, List<String> formats, boolean jfr, List<String> writerJvmOptions,
                      Map<String, String> settings, List<Map<String, String>> variants, PrintWriter err)
            throws Exception {
        // Kafka's and HBase's data of a 300,000-event bench take several GB: gone when the bench ends.
        Path dir = dev.rowflow.embedded.TempDirs.create("rowflow-bench-external-");
        List<String> jvmOptions = writerJvmOptions.isEmpty() ? PipelineMemory.chartJvmOptions() : writerJvmOptions;
        try (Servers servers = Servers.start(dir, settings, err)) {
            Map<String, Object> base = servers.base();
            err.printf("bench --external: Kafka pid %d, HBase pid %d; %,d events to topic %s (%s)%n",
                    servers.kafka().pid(), servers.hbase().pid(), events, TOPIC, String.join(", ", formats));
            err.flush();
            long start = System.currentTimeMillis() - events;
            RowflowConfig config = new RowflowConfig(base);
            try (Admin admin = Admin.create(config.kafkaProperties())) {
                List<LogEvent> generated = events(events, start);
                // The raw client, rowflow's sink alone (no Kafka), then rowflow.
                List<String> writers = new ArrayList<>(List.of("raw", "sink"));
                for (String format : formats) {
                    String topic = topic(format);
                    KafkaTopics.createIfAbsent(admin, topic, Optional.of(PARTITIONS), Duration.ofSeconds(60));
                    try (FormatProducer producer = FormatProducer.open(config.kafkaProperties(), topic, format)) {
                        generated.forEach(producer::send);
                        producer.flush();
                    }
                    writers.add("rowflow-" + format);
                }
                for (Map<String, String> variant : variants) {
                    writers.add(variant(formats.get(0), variant));
                }
                // HBase's write path warmed up before any writer is measured, with two raw-client runs:
                // after one alone, the first writer measured still paid 25.9-30.8 us of HBase CPU per
                // row against 9.4-13.5 for the others, 6.4 us of it the region server's JIT compiling
                // (the rest, the code it had not yet compiled running slower).
                err.println("bench --external: warming HBase up with two raw-client runs, not counted ...");
                err.flush();
                for (int warmUp = 0; warmUp < 2; warmUp++) {
                    raw(servers, "raw", events, start, -warmUp, jvmOptions, dir);
                }
                List<Run> runs = new ArrayList<>();
                for (int round = 1; round <= rounds; round++) {
                    // Rotated: each writer goes first in turn (the first gets the quieter cluster).
                    List<String> order = new ArrayList<>(writers);
                    java.util.Collections.rotate(order, -((round - 1) % writers.size()));
                    for (String writer : order) {
                        Run run = !writer.startsWith("rowflow-")
                                ? raw(servers, writer, events, start, round, jvmOptions, dir)
                                : rowflow(servers, admin, writer, events, round, jvmOptions, dir);
                        runs.add(run);
                        err.printf("  round %d %-12s %,d rows in %.1f s: %,.0f rows/s (steady %,.0f), %.1f CPU-s "
                                        + "(%.1f us/row, of it JIT %.1f, GC %.1f, HBase client %.1f; second half %.1f), "
                                        + "%,d B allocated/row, peak RSS %d MB, machine %.0f%% busy, durable after %.1f s, "
                                        + "HBase %.1f us/row (of it GC %.1f, JIT %.1f), %.1f rows per WAL append%n",
                                round, writer, run.rows(), run.seconds(), run.rowsPerSecond(), run.steadyRowsPerSecond(),
                                run.cpuSeconds(), run.cpuMicrosPerRow(), run.jitMicrosPerRow(), run.gcMicrosPerRow(),
                                run.hbaseClientMicrosPerRow(), run.secondHalfCpuMicrosPerRow(),
                                run.allocatedBytesPerRow(), run.peakRssMb(),
                                run.machineBusy() * 100, run.durableSeconds(), run.hbaseMicrosPerRow(),
                                run.hbaseGcMicrosPerRow(), run.hbaseJitMicrosPerRow(), run.rowsPerWalAppend());
                        err.flush();
                    }
                }
                Map<String, Run> medians = new LinkedHashMap<>();
                for (String writer : writers) {
                    medians.put(writer, median(writer, runs.stream().filter(r -> r.writer().equals(writer)).toList()));
                }
                Run raw = medians.get("raw");
                Map<String, Ratios> ratios = new LinkedHashMap<>();
                for (String writer : writers.subList(1, writers.size())) {
                    Run rowflow = medians.get(writer);
                    ratios.put(writer, new Ratios(round2(rowflow.rowsPerSecond() / raw.rowsPerSecond()),
                            round2(rowflow.steadyRowsPerSecond() / raw.steadyRowsPerSecond()),
                            round2(rowflow.cpuMicrosPerRow() / raw.cpuMicrosPerRow()),
                            round2((rowflow.cpuMicrosPerRow() - rowflow.jitMicrosPerRow())
                                    / (raw.cpuMicrosPerRow() - raw.jitMicrosPerRow())),
                            round2(rowflow.secondHalfCpuMicrosPerRow() / raw.secondHalfCpuMicrosPerRow())));
                }
                // Per format, one run per round, each on a fresh rowflow, topic and group (a target holds
                // in every one), first offered the rate rowflow reached on that format with nothing else
                // running, to find what it takes with the bench's producer on the box too.
                Map<String, List<VisibilityLatency.Result>> latencies = new LinkedHashMap<>();
                // One pass not counted first, as the raw runs before the rounds warm HBase's write path:
                // the first latency run of a bench is the first time the region server serves reads, and
                // the bench's producer and prober run at a paced rate.
                String first = formats.get(0);
                VisibilityLatency.Result warmUp = latency(servers.rowflow(), admin, first, 0,
                        medians.get("rowflow-" + first).rowsPerSecond() / 2, LATENCY_SECONDS, Math.min(events, 50_000),
                        jvmOptions, dir, err);
                servers.settle("rowflowlatency" + first + "0_");
                err.printf("  latency warm-up, not counted (%s at %,.0f events/s): p50 %.0f ms, p99 %.0f ms, max %.0f ms%n",
                        first, warmUp.eventsPerSecond(), warmUp.p50Millis(), warmUp.p99Millis(), warmUp.maxMillis());
                err.printf("    by when produced: %s%n", String.join("; ", warmUp.byWindow()));
                err.flush();
                for (String format : formats) {
                    String writer = "rowflow-" + format;
                    double maxRate = medians.get(writer).rowsPerSecond() / 2;
                    for (int round = 1; round <= rounds; round++) {
                        VisibilityLatency.Result latency = latency(servers.rowflow(), admin, format, round, maxRate, LATENCY_SECONDS,
                                Math.min(events, 50_000), jvmOptions, dir, err);
                        latencies.computeIfAbsent(writer, w -> new ArrayList<>()).add(latency);
                        servers.settle("rowflowlatency" + format + round + "_");
                        err.printf("  latency %s %d at %,.0f events/s: %d probes, p50 %.0f ms, p99 %.0f ms, max %.0f ms%n",
                                format, round, latency.eventsPerSecond(), latency.probes(), latency.p50Millis(),
                                latency.p99Millis(), latency.maxMillis());
                        err.printf("    by when produced: %s%n", String.join("; ", latency.byWindow()));
                        err.flush();
                    }
                }
                Map<String, JfrProfile.Result> profiles = new LinkedHashMap<>();
                if (jfr) {
                    for (String format : formats) {
                        Path recording = dir.resolve("rowflow-" + format + ".jfr");
                        List<String> recorded = new ArrayList<>(jvmOptions);
                        recorded.add("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=" + recording);
                        err.printf("bench --external: one more rowflow pass (%s), recorded with JFR ...%n", format);
                        err.flush();
                        rowflow(servers, admin, "rowflow-" + format, events, rounds + 1, recorded, dir);
                        profiles.put("rowflow-" + format, JfrProfile.read(recording));
                    }
                }
                return new Result(events, rounds, jvmOptions, settings, runs, medians, ratios, latencies, profiles);
            }
        }
    }

    /**
     * Kafka and HBase each in a JVM of its own, and the rowflow settings that reach them (the
     * summary table off, as the raw client writes none; the streams' state under {@code dir});
     * {@code rowflowSettings} are the bench's {@code --set}, for rowflow's runs alone.
     */
    record Servers(ChildJvm kafka, ChildJvm hbase, Map<String, Object> base, Map<String, String> rowflowSettings)
            implements AutoCloseable {
        static Servers start(Path dir, Map<String, String> rowflowSettings, PrintWriter err) throws Exception {
            Files.createDirectories(dir.resolve("kafka"));
            Files.createDirectories(dir.resolve("hbase"));
            err.println("bench --external: starting Kafka and HBase, each in a JVM of its own ...");
            err.flush();
            ChildJvm kafka = ChildJvm.start("kafka", List.of("-Xmx768m"), "dev.rowflow.embedded.ServerProcess",
                    List.of("kafka", dir.resolve("kafka").toString()), null);
            try {
                // A region server's heap large enough for its memstores: one writer's run holds about
                // 360 MB of them until its tables are dropped, a latency run more. With 1 GB (a global
                // memstore limit of 410 MB) the collector ran concurrent cycles through every run and
                // the latency runs flushed memstores under pressure: HBase's CPU per row and rowflow's
                // latency then measured the region server's heap, not the writers. Fixed (-Xms), so the
                // full collection between runs (settle) does not shrink it: over a growable heap the runs
                // after one paid 19-25 us of HBase CPU per row, 3.5-6.3 of it collecting.
                ChildJvm hbase = ChildJvm.start("hbase", List.of("-Xms3g", "-Xmx3g"), "dev.rowflow.embedded.ServerProcess",
                        List.of("hbase", dir.resolve("hbase").toString()), null);
                try {
                    Map<String, Object> base = new LinkedHashMap<>();
                    base.putAll(settings(kafka.awaitLine("READY")));
                    base.putAll(settings(hbase.awaitLine("READY")));
                    // The raw client writes data and index rows; so does rowflow here (its summary table is extra work).
                    base.put(RowflowConfig.LOG_SUMMARY_ENABLED_CONFIG, "false");
                    base.put("kafka.state.dir", dir.resolve("streams-state").toString());
                    return new Servers(kafka, hbase, base, Map.copyOf(rowflowSettings));
                } catch (Exception | Error e) {
                    hbase.close();
                    throw e;
                }
            } catch (Exception | Error e) {
                kafka.close();
                throw e;
            }
        }

        /** The configuration every rowflow run starts from: {@link #base} and the bench's settings. */
        Map<String, Object> rowflow() {
            Map<String, Object> rowflow = new LinkedHashMap<>(base);
            rowflow.putAll(rowflowSettings);
            return rowflow;
        }

        /**
         * Drops the tables whose names start with {@code prefix}, then has the region server's JVM
         * collect its garbage: the next writer starts on a region server that holds neither the
         * last one's regions nor the dead memstore cells of them (a few hundred MB a run), which its
         * collector would otherwise clear at whatever moment of the next writer's run it chose.
         */
        void settle(String prefix) throws Exception {
            dropTables(base, prefix);
            hbase.collectGarbage();
        }

        @Override
        public void close() throws InterruptedException {
            try {
                hbase.close();
            } finally {
                kafka.close();
            }
        }
    }

    /** What a writer of the bench is, for its row of the table ({@code settings}: the bench's --set). */
    static String describe(String writer, Map<String, String> settings) {
        return switch (writer) {
            case "raw" -> "raw BufferedMutator client, " + RAW_THREADS + " threads";
            case "sink" -> "rowflow's sink alone (no Kafka), " + RAW_THREADS + " threads";
            default -> writer.contains(" ")
                    ? "rowflow run, " + format(writer) + " input, with " + writer.substring(writer.indexOf(' ') + 1)
                    : "rowflow run, " + (settings.isEmpty() ? "default configuration" : "configuration of --set") + ", "
                    + format(writer) + " input";
        };
    }

    /** The writer that runs rowflow on {@code format} with {@code settings} added to its configuration. */
    static String variant(String format, Map<String, String> settings) {
        return "rowflow-" + format + " " + settings.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(","));
    }

    /** The format a rowflow writer reads: {@code rowflow-json} and its variants read json. */
    private static String format(String writer) {
        int end = writer.indexOf(' ');
        return writer.substring("rowflow-".length(), end < 0 ? writer.length() : end);
    }

    /** The settings a variant adds to rowflow's configuration; none for a rowflow writer of the default one. */
    private static Map<String, Object> variantSettings(String writer) {
        Map<String, Object> settings = new LinkedHashMap<>();
        if (writer.contains(" ")) {
            for (String setting : writer.substring(writer.indexOf(' ') + 1).split(",")) {
                int eq = setting.indexOf('=');
                settings.put(setting.substring(0, eq), setting.substring(eq + 1));
            }
        }
        return settings;
    }

    /** The topic of the bench's events in {@code format}. */
    private static String topic(String format) {
        return format.equals("avro") ? TOPIC : TOPIC + "-" + format;
    }

    /**
     * A {@link RawWriter} run: {@code raw} the hand-written BufferedMutator client, {@code sink}
     * rowflow's sink alone, without Kafka.
     */
    private static Run raw(Servers servers, String name, int events, long start, int round,
                           List<String> jvmOptions, Path dir) throws Exception {
        Map<String, Object> base = servers.base();
        Path config = write(dir.resolve(name + "-" + round + ".properties"), base);
        String prefix = name.replace("-", "") + round + "_";
        try (ChildJvm writer = ChildJvm.start(name + " writer", jvmOptions, RawWriter.class.getName(), List.of(
                config.toString(), Integer.toString(events), Long.toString(start), Integer.toString(RAW_THREADS),
                prefix, name.equals("raw") ? "mutator" : name), dir.resolve(name + "-" + round + ".log"))) {
            writer.awaitLine("STARTED");
            CpuMeter machine = new CpuMeter();
            ServerCpu servers0 = ServerCpu.of(servers);
            Map<String, String> result = settings(writer.awaitLine("RESULT"));
            double busy = machine.stop().machineBusy();
            ServerCpu servers1 = ServerCpu.of(servers);
            long rows = Long.parseLong(result.get("rows"));
            double seconds = Double.parseDouble(result.get("seconds"));
            double cpu = Double.parseDouble(result.get("cpuSeconds"));
            double jit = Double.parseDouble(result.get("jitSeconds"));
            double gc = Double.parseDouble(result.get("gcSeconds"));
            double hbaseClient = Double.parseDouble(result.get("hbaseClientSeconds"));
            long dataRows = dataRows(base, prefix + "log_data");
            double rowsPerAppend = rowsPerWalAppend(servers, prefix, rows);
            servers.settle(prefix);
            double[] server = servers1.perRowSince(servers0, rows);
            return new Run(name, round, rows, seconds, rows / seconds, rows / seconds, cpu, round1(cpu * 1e6 / rows),
                    Long.parseLong(result.get("allocatedBytes")) / rows, Long.parseLong(result.get("peakRssMb")), busy,
                    dataRows, seconds, server[0], server[1], round1(jit * 1e6 / rows), round1(gc * 1e6 / rows),
                    round1(hbaseClient * 1e6 / rows), round1(Double.parseDouble(result.get("secondHalfCpuSeconds")) * 1e6
                            / Long.parseLong(result.get("secondHalfRows"))), server[2], server[3], rowsPerAppend);
        }
    }

    private static Run rowflow(Servers servers, Admin admin, String writer, int events, int round,
                               List<String> jvmOptions, Path dir) throws Exception {
        Map<String, Object> base = servers.base();
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        long rows = 2L * events;
        String format = format(writer);
        Map<String, Object> settings = variantSettings(writer);
        // A variant's group and tables by its settings' place among the variants (its name holds them).
        String name = format + (settings.isEmpty() ? "" : "v" + VARIANTS.computeIfAbsent(writer, w -> VARIANTS.size() + 1))
                + round;
        try (RowflowJvm rowflow = RowflowJvm.start(servers.rowflow(), name, 0, settings, topic(format), format, jvmOptions,
                dir)) {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            long t0 = 0;
            long t1 = 0;
            long visible = 0;
            ThreadCpu cpu0 = null;
            ThreadCpu cpu = null;
            ThreadCpu half = null;
            long halfSent = 0;
            ThreadCpu secondHalf = null;
            long allocated0 = 0;
            long allocated = 0;
            long peak = 0;
            double busy = 0;
            CpuMeter machine = null;
            ServerCpu servers0 = null;
            double[] server = null;
            while (true) {
                rowflow.check(deadline, "commit of every row");
                // From its /metrics: records its stream threads processed, rows sent and acknowledged
                // (readable), and rows made durable (counted after the flush at a commit).
                RowflowJvm.Progress progress = RowflowJvm.progress(http, rowflow.metrics());
                if (t0 == 0 && progress.consumed() > 0) {
                    // Its first records: from here it works, past start-up and the group's join.
                    t0 = System.nanoTime();
                    cpu0 = ThreadCpu.of(rowflow.jvm().pid());
                    allocated0 = rowflow.jvm().allocatedBytes();
                    machine = new CpuMeter();
                    servers0 = ServerCpu.of(servers);
                }
                if (t0 != 0 && t1 == 0 && progress.consumed() >= events) {
                    t1 = System.nanoTime();
                }
                if (t0 != 0 && half == null && progress.sent() >= rows / 2 && progress.sent() < rows) {
                    half = ThreadCpu.of(rowflow.jvm().pid());
                    halfSent = progress.sent();
                }
                if (t0 != 0 && visible == 0 && progress.sent() >= rows) {
                    visible = System.nanoTime();
                    ThreadCpu end = ThreadCpu.of(rowflow.jvm().pid());
                    cpu = end.since(cpu0);
                    // A run too short to be read half-way: its second half is the whole of it.
                    secondHalf = half == null ? cpu : end.since(half);
                    allocated = rowflow.jvm().allocatedBytes() - allocated0;
                    peak = rowflow.jvm().peakRssMb();
                    busy = machine.stop().machineBusy();
                    server = ServerCpu.of(servers).perRowSince(servers0, rows);
                }
                if (visible != 0 && progress.durable() >= rows) {
                    long durable = System.nanoTime();
                    double seconds = (visible - t0) / 1e9;
                    double steadySeconds = ((t1 == 0 ? visible : t1) - t0) / 1e9;
                    awaitCommitted(admin, rowflow, events);
                    long dataRows = dataRows(base, rowflow.dataTable());
                    rowflow.close();
                    double rowsPerAppend = rowsPerWalAppend(servers, "rowflow" + name + "_", rows);
                    servers.settle("rowflow" + name + "_");
                    return new Run(writer, round, rows, seconds, rows / seconds, rows / steadySeconds, cpu.total(),
                            round1(cpu.total() * 1e6 / rows), allocated / rows, peak, busy, dataRows,
                            round1((durable - t0) / 1e9), server[0], server[1], round1(cpu.jit() * 1e6 / rows),
                            round1(cpu.gc() * 1e6 / rows), round1(cpu.hbaseClient() * 1e6 / rows),
                            round1(secondHalf.total() * 1e6 / (half == null ? rows : rows - halfSent)), server[2], server[3],
                            rowsPerAppend);
                }
                Thread.sleep(POLL_MILLIS);
            }
        }
    }

    /** How long events are offered at the rate rowflow reached alone, to find the rate it takes with the producer on the box. */
    static final int SUSTAINED_SECONDS = 8;

    /**
     * Event-to-visible latency of a rowflow run that has caught up: a warm-up backlog first (its
     * JIT warm, its group joined); then events offered at {@code maxEventsPerSecond} (the rate it
     * reached with nothing else running) for {@link #SUSTAINED_SECONDS}, the rate it takes while
     * the bench's producer and the broker's produce path share the machine measured over them
     * ({@link #sustainedRate}); once it has caught up, events at 80 % of the lower of the two for about
     * {@code seconds}, a sample of them probed until readable ({@link VisibilityLatency}). So the
     * offered rate is below what the machine sustains, whatever else the producer costs it.
     */
    private static VisibilityLatency.Result latency(Map<String, Object> base, Admin admin, String format, int round,
                                                    double maxEventsPerSecond, int seconds, int warmUp,
                                                    List<String> jvmOptions, Path dir, PrintWriter err)
            throws Exception {
        String topic = TOPIC + "-latency-" + format + "-" + round;
        KafkaTopics.createIfAbsent(admin, topic, Optional.of(PARTITIONS), Duration.ofSeconds(60));
        RowflowConfig config = new RowflowConfig(base);
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        LogEventGenerator generator = new LogEventGenerator(8 + round, 200, System.currentTimeMillis());
        try (RowflowJvm rowflow = RowflowJvm.start(base, "latency" + format + round, topic, format, jvmOptions, dir);
             FormatProducer producer = FormatProducer.open(config.kafkaProperties(), topic, format)) {
            for (int i = 0; i < warmUp; i++) {
                producer.send(generator.next());
            }
            producer.flush();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (RowflowJvm.progress(http, rowflow.metrics()).sent() < 2L * warmUp) {
                rowflow.check(deadline, "rows of the warm-up");
                Thread.sleep(100);
            }
            double sustained = sustainedRate(producer, generator, http, rowflow, maxEventsPerSecond, warmUp);
            double eventsPerSecond = 0.8 * Math.min(maxEventsPerSecond, sustained);
            err.printf("bench --external: rowflow (%s) took %,.0f events/s offered %,.0f with the producer running; "
                    + "latency at 80 %% of the lower, %,.0f events/s (%,.0f rows/s), for %d s ...%n", format, sustained,
                    maxEventsPerSecond, eventsPerSecond, 2 * eventsPerSecond, seconds);
            err.flush();
            try (org.apache.hadoop.hbase.client.Connection connection =
                         dev.rowflow.pipeline.runtime.HBaseConnections.connect(config);
                 org.apache.hadoop.hbase.client.Table table = connection.getTable(
                         org.apache.hadoop.hbase.TableName.valueOf(rowflow.dataTable()))) {
                return VisibilityLatency.measure(producer, generator, dev.rowflow.pipeline.ingest.LogIngest.rows(config, null), table,
                        (long) (eventsPerSecond * seconds), eventsPerSecond, Duration.ofMinutes(1))
                        .withSustained(round1(sustained));
            }
        }
    }

    /**
     * Offers {@code eventsPerSecond} for {@link #SUSTAINED_SECONDS} to a rowflow run that has written
     * the rows of {@code before} events, and returns the events per second it took: those events
     * over the time from the first of them offered to the last row written (acknowledged, read from
     * its /metrics every 100 ms). At most the rate offered; less by what it fell behind, a stall of
     * HBase's included (a window over the last seconds alone read nothing when HBase's WAL stalled
     * through it).
     */
    private static double sustainedRate(FormatProducer producer, LogEventGenerator generator,
                                        java.net.http.HttpClient http, RowflowJvm rowflow, double eventsPerSecond,
                                        long before) throws Exception {
        long count = (long) (eventsPerSecond * SUSTAINED_SECONDS);
        double nanosPerEvent = 1e9 / eventsPerSecond;
        long start = System.nanoTime();
        for (long i = 0; i < count; i++) {
            long wait = start + (long) (i * nanosPerEvent) - System.nanoTime();
            if (wait > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(wait);
            }
            producer.send(generator.next());
        }
        producer.flush();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (RowflowJvm.progress(http, rowflow.metrics()).sent() < 2 * (before + count)) {
            rowflow.check(deadline, "rows of the events offered at the rate it reached alone");
            Thread.sleep(100);
        }
        return count / ((System.nanoTime() - start) / 1e9);
    }

    /** Waits until the group has committed every event (the rows are durable already). */
    static void awaitCommitted(Admin admin, RowflowJvm rowflow, long events) throws Exception {
        if (Offsets.awaitCommitted(admin, rowflow.group(), List.of(rowflow.topic()), events, Duration.ofMinutes(2),
                committed -> { }) < events) {
            throw new IllegalStateException("rowflow run wrote every row but did not commit within 2 minutes");
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
        List<Double> durable = runs.stream().map(Run::durableSeconds).sorted().toList();
        List<Long> allocated = runs.stream().map(Run::allocatedBytesPerRow).sorted().toList();
        List<Double> hbase = runs.stream().map(Run::hbaseMicrosPerRow).sorted().toList();
        List<Double> kafka = runs.stream().map(Run::kafkaMicrosPerRow).sorted().toList();
        List<Double> jit = runs.stream().map(Run::jitMicrosPerRow).sorted().toList();
        List<Double> gc = runs.stream().map(Run::gcMicrosPerRow).sorted().toList();
        List<Double> hbaseClient = runs.stream().map(Run::hbaseClientMicrosPerRow).sorted().toList();
        List<Double> secondHalf = runs.stream().map(Run::secondHalfCpuMicrosPerRow).sorted().toList();
        List<Double> hbaseGc = runs.stream().map(Run::hbaseGcMicrosPerRow).sorted().toList();
        List<Double> hbaseJit = runs.stream().map(Run::hbaseJitMicrosPerRow).sorted().toList();
        List<Double> perAppend = runs.stream().map(Run::rowsPerWalAppend).sorted().toList();
        // Peak RSS: the largest of the rounds, not the middle one.
        return new Run(writer, 0, middle.rows(), middle.seconds(), middle.rowsPerSecond(),
                steady.get((steady.size() - 1) / 2), middle.cpuSeconds(), cpu.get((cpu.size() - 1) / 2),
                allocated.get((allocated.size() - 1) / 2), rss.get(rss.size() - 1), middle.machineBusy(), middle.dataRows(),
                durable.get((durable.size() - 1) / 2), hbase.get((hbase.size() - 1) / 2), kafka.get((kafka.size() - 1) / 2),
                jit.get((jit.size() - 1) / 2), gc.get((gc.size() - 1) / 2), hbaseClient.get((hbaseClient.size() - 1) / 2),
                secondHalf.get((secondHalf.size() - 1) / 2), hbaseGc.get((hbaseGc.size() - 1) / 2),
                hbaseJit.get((hbaseJit.size() - 1) / 2), perAppend.get((perAppend.size() - 1) / 2));
    }

    /**
     * Deletes the tables whose names start with {@code prefix}: each writer of each round starts on
     * a region server that holds no other writer's regions and memstores.
     */
    static void dropTables(Map<String, Object> base, String prefix) throws Exception {
        try (org.apache.hadoop.hbase.client.Connection connection =
                     dev.rowflow.pipeline.runtime.HBaseConnections.connect(new RowflowConfig(base));
             org.apache.hadoop.hbase.client.Admin admin = connection.getAdmin()) {
            for (org.apache.hadoop.hbase.TableName table : admin.listTableNames(
                    java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(prefix) + ".*"))) {
                admin.disableTable(table);
                admin.deleteTable(table);
            }
        }
    }

    /** Rows of a writer's data table: every event's row must be there, once. */
    static long dataRows(Map<String, Object> base, String table) throws Exception {
        try (org.apache.hadoop.hbase.client.Connection connection =
                     dev.rowflow.pipeline.runtime.HBaseConnections.connect(new RowflowConfig(base));
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
    static Map<String, String> settings(String line) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String pair : line.trim().split("\\s+")) {
            int eq = pair.indexOf('=');
            settings.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return settings;
    }

    static Path write(Path file, Map<String, Object> props) throws IOException {
        return Files.writeString(file, props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")));
    }

    static double round1(double value) {
        return Math.round(value * 10) / 10.0;
    }

    static double round2(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
