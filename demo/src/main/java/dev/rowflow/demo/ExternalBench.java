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
 *
 * <p>This class runs the rounds: which writers, in which order, their medians and ratios, the
 * latency and JFR passes after them, and the writers' names. The servers are {@link BenchServers},
 * one run of each writer is {@link ExternalWriters}', and what is printed as the rounds go is
 * {@link ExternalBenchReport}'s.
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
    /** How often a rowflow run's /metrics is read until its first record: its start-up is timed to within it. */
    static final int START_POLL_MILLIS = 20;
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
     * locks and its handlers. {@code launchSeconds} is the time from its JVM's launch to its first
     * record read (a Kafka reader's, its tables existing) and {@code processCpuSeconds} the CPU of its
     * whole process to its last row acknowledged, start-up included; both NaN for the writers
     * without Kafka.
     */
    record Run(String writer, int round, long rows, double seconds, double rowsPerSecond, double steadyRowsPerSecond,
               double cpuSeconds, double cpuMicrosPerRow, long allocatedBytesPerRow, long peakRssMb,
               double machineBusy, long dataRows, double durableSeconds, double hbaseMicrosPerRow,
               double kafkaMicrosPerRow, double jitMicrosPerRow, double gcMicrosPerRow, double hbaseClientMicrosPerRow,
               double secondHalfCpuMicrosPerRow, double hbaseGcMicrosPerRow, double hbaseJitMicrosPerRow,
               double rowsPerWalAppend, double launchSeconds, double processCpuSeconds) {

        /**
         * CPU per row neither compiling, collecting nor in the HBase client's threads: reading,
         * decoding, keying, buffering, handing rows to the client.
         */
        double ownMicrosPerRow() {
            return round1(cpuMicrosPerRow - jitMicrosPerRow - gcMicrosPerRow - hbaseClientMicrosPerRow);
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
     * A rowflow writer's medians over the Kafka-reading client's of the same format ({@link KafkaWriter}, the
     * fair peer): rows/s, CPU of the whole process (start-up included), CPU per row from the first record, and
     * the time from launch to the first record.
     */
    record PeerRatios(double rows, double processCpu, double cpu, double launch) {
    }

    /**
     * Medians per writer ({@code raw}; rowflow's sink alone, {@code sink}; and
     * {@code rowflow-avro} and/or {@code rowflow-json}), each writer's ratios to the raw client (the targets are stated in
     * them), and per rowflow writer its latency (one run per round) and its JFR profile (if asked).
     */
    record Result(int events, int rounds, List<String> jvmOptions, boolean classArchive, Map<String, String> settings,
                  List<Run> runs,
                  Map<String, Run> medians,
                  Map<String, Ratios> ratios, Map<String, PeerRatios> peerRatios,
                  Map<String, List<VisibilityLatency.Result>> latencies,
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
        try (BenchServers servers = BenchServers.start(dir, settings, err)) {
            Map<String, Object> base = servers.base();
            // rowflow as its image runs it: the class-data sharing archive mapped; the peers without one.
            List<String> archive = ClassArchive.jvmOptions(dir, err);
            List<String> rowflowOptions = new ArrayList<>(jvmOptions);
            rowflowOptions.addAll(archive);
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
                    writers.add("kafka-" + format);
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
                    ExternalWriters.raw(servers, "raw", events, start, -warmUp, jvmOptions, dir);
                }
                List<Run> runs = new ArrayList<>();
                for (int round = 1; round <= rounds; round++) {
                    // Rotated: each writer goes first in turn (the first gets the quieter cluster).
                    List<String> order = new ArrayList<>(writers);
                    java.util.Collections.rotate(order, -((round - 1) % writers.size()));
                    for (String writer : order) {
                        Run run = writer.startsWith("rowflow-")
                                ? ExternalWriters.rowflow(servers, admin, writer, events, round, rowflowOptions, dir)
                                : writer.startsWith("kafka-")
                                ? ExternalWriters.kafka(servers, writer, events, round, jvmOptions, generated, dir)
                                : ExternalWriters.raw(servers, writer, events, start, round, jvmOptions, dir);
                        runs.add(run);
                        ExternalBenchReport.run(err, round, writer, run);
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
                // Against the fair peer: each rowflow writer over the Kafka client reading the same format.
                Map<String, PeerRatios> peerRatios = new LinkedHashMap<>();
                for (String writer : writers) {
                    Run peer = medians.get("kafka-" + format(writer));
                    if (writer.startsWith("rowflow-") && peer != null) {
                        Run rowflow = medians.get(writer);
                        peerRatios.put(writer, new PeerRatios(round2(rowflow.rowsPerSecond() / peer.rowsPerSecond()),
                                round2(rowflow.processCpuSeconds() / peer.processCpuSeconds()),
                                round2(rowflow.cpuMicrosPerRow() / peer.cpuMicrosPerRow()),
                                round2(rowflow.launchSeconds() / peer.launchSeconds())));
                    }
                }
                // Per format, one run per round, each on a fresh rowflow, topic and group (a target holds
                // in every one), first offered the rate rowflow reached on that format with nothing else
                // running, to find what it takes with the bench's producer on the box too.
                Map<String, List<VisibilityLatency.Result>> latencies = new LinkedHashMap<>();
                // One pass not counted first, as the raw runs before the rounds warm HBase's write path:
                // the first latency run of a bench is the first time the region server serves reads, and
                // the bench's producer and prober run at a paced rate.
                String first = formats.get(0);
                VisibilityLatency.Result warmUp = ExternalWriters.latency(servers.rowflow(), admin, first, 0,
                        medians.get("rowflow-" + first).rowsPerSecond() / 2, LATENCY_SECONDS, Math.min(events, 50_000),
                        rowflowOptions, dir, err);
                servers.settle("rowflowlatency" + first + "0_");
                ExternalBenchReport.latencyWarmUp(err, first, warmUp);
                for (String format : formats) {
                    String writer = "rowflow-" + format;
                    double maxRate = medians.get(writer).rowsPerSecond() / 2;
                    for (int round = 1; round <= rounds; round++) {
                        VisibilityLatency.Result latency = ExternalWriters.latency(servers.rowflow(), admin, format,
                                round, maxRate, LATENCY_SECONDS, Math.min(events, 50_000), rowflowOptions, dir, err);
                        latencies.computeIfAbsent(writer, w -> new ArrayList<>()).add(latency);
                        servers.settle("rowflowlatency" + format + round + "_");
                        ExternalBenchReport.latency(err, format, round, latency);
                    }
                }
                Map<String, JfrProfile.Result> profiles = new LinkedHashMap<>();
                if (jfr) {
                    for (String format : formats) {
                        Path recording = dir.resolve("rowflow-" + format + ".jfr");
                        List<String> recorded = new ArrayList<>(rowflowOptions);
                        recorded.add("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=" + recording);
                        err.printf("bench --external: one more rowflow pass (%s), recorded with JFR ...%n", format);
                        err.flush();
                        ExternalWriters.rowflow(servers, admin, "rowflow-" + format, events, rounds + 1, recorded, dir);
                        profiles.put("rowflow-" + format, JfrProfile.read(recording));
                    }
                }
                return new Result(events, rounds, jvmOptions, !archive.isEmpty(), settings, runs, medians, ratios, peerRatios,
                        latencies, profiles);
            }
        }
    }

    /** What a writer of the bench is, for its row of the table ({@code settings}: the bench's --set). */
    static String describe(String writer, Map<String, String> settings) {
        return switch (writer) {
            case "raw" -> "raw BufferedMutator client, " + RAW_THREADS + " threads";
            case "sink" -> "rowflow's sink alone (no Kafka), " + RAW_THREADS + " threads";
            case "kafka-avro", "kafka-json" -> "hand-written KafkaConsumer -> BufferedMutator client, " + format(writer)
                    + " input";
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

    /** The format a Kafka-reading writer reads: {@code rowflow-json}, its variants and {@code kafka-json} read json. */
    static String format(String writer) {
        int end = writer.indexOf(' ');
        return writer.substring(writer.indexOf('-') + 1, end < 0 ? writer.length() : end);
    }

    /** The settings a variant adds to rowflow's configuration; none for a rowflow writer of the default one. */
    static Map<String, Object> variantSettings(String writer) {
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
    static String topic(String format) {
        return format.equals("avro") ? TOPIC : TOPIC + "-" + format;
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
        List<Double> launch = runs.stream().map(Run::launchSeconds).sorted().toList();
        List<Double> processCpu = runs.stream().map(Run::processCpuSeconds).sorted().toList();
        // Peak RSS: the largest of the rounds, not the middle one.
        return new Run(writer, 0, middle.rows(), middle.seconds(), middle.rowsPerSecond(),
                steady.get((steady.size() - 1) / 2), middle.cpuSeconds(), cpu.get((cpu.size() - 1) / 2),
                allocated.get((allocated.size() - 1) / 2), rss.get(rss.size() - 1), middle.machineBusy(), middle.dataRows(),
                durable.get((durable.size() - 1) / 2), hbase.get((hbase.size() - 1) / 2), kafka.get((kafka.size() - 1) / 2),
                jit.get((jit.size() - 1) / 2), gc.get((gc.size() - 1) / 2), hbaseClient.get((hbaseClient.size() - 1) / 2),
                secondHalf.get((secondHalf.size() - 1) / 2), hbaseGc.get((hbaseGc.size() - 1) / 2),
                hbaseJit.get((hbaseJit.size() - 1) / 2), perAppend.get((perAppend.size() - 1) / 2),
                launch.get((launch.size() - 1) / 2), processCpu.get((processCpu.size() - 1) / 2));
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
