package dev.rowflow.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.embedded.EmbeddedBigtable;
import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.embedded.load.Offsets;
import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import dev.rowflow.sinks.hbase.Store;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@code rowflow bench}: in one run on the embedded stack, with the same rows, (a) the raw
 * BufferedMutator ceiling, (b) rowflow end to end from the topic, (c) naive per-record
 * {@code Table.put}; (d) each query kind's latency; the seeds' hotspot experiment from HBase's
 * region metrics; and the pipeline's memory in a JVM of its own. Ratios are of figures measured
 * in the same run, so they mean something on a shared, noisy box.
 *
 * <p>This class reads the options and runs the phases (or the {@link ExternalBench} and
 * {@link ScaleBench} with {@code --external}); their tables are {@link BenchReport}'s and
 * {@link ExternalBenchReport}'s.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Measure, in one run on the embedded stack: the raw BufferedMutator ceiling (a), rowflow end "
                + "to end (b), naive per-record puts (c), query latency per kind (d), the hotspot experiment "
                + "(region write shares), and the pipeline's RSS in its own JVM. Prints a table, or --json."})
final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--events", defaultValue = "200000", description = "Events (default: ${DEFAULT-VALUE}).")
    int events;

    @Option(names = "--json", description = "Print the result as one JSON object on the last line of stdout.")
    boolean json;

    @Option(names = "--naive-rows", defaultValue = "20000",
            description = "Rows written one Table.put at a time for (c) (default: ${DEFAULT-VALUE}); a sample, "
                    + "since all of them would take minutes.")
    int naiveRows;

    @Option(names = "--queries", defaultValue = "200", description = "Queries per kind for (d) (default: ${DEFAULT-VALUE}).")
    int queries;

    @Option(names = "--stream-threads", defaultValue = "1",
            description = "kafka.num.stream.threads for (b) and the memory run (default: ${DEFAULT-VALUE}, rowflow's default).")
    int streamThreads;

    @Option(names = "--store", defaultValue = "hbase", paramLabel = "STORE",
            description = "hbase (the mini cluster) or bigtable (Google's Bigtable emulator: in memory, not a "
                    + "performance reference for Cloud Bigtable) (default: ${DEFAULT-VALUE}).")
    String store;

    @Option(names = "--format", defaultValue = "avro", paramLabel = "FORMAT",
            split = ",", description = "avro: (b) reads the events as single-object Avro; json: also (b') the same "
                    + "events as JSON, avro-registry: also (b'') in the Schema Registry wire format (a registry is "
                    + "started), protobuf-registry: the same as Protobuf, debezium: also (b''') as Debezium change events (creates, before.image=full: "
                    + "nothing read), debezium-partial: the same with before.image=partial (each batch of "
                    + "changes reads its rows), debezium-join: the same joined by hostname with a table of hosts "
                    + "(each change through the join), each through a declared input that makes the same rows, in the "
                    + "same run; a list "
                    + "runs several; with --external, json adds a rowflow writer reading the events as JSON "
                    + "(default: ${DEFAULT-VALUE}).")
    List<String> formats;

    @Option(names = "--skip-memory", description = "Do not run the pipeline in its own JVM to measure its memory.")
    boolean skipMemory;

    @Option(names = "--external", description = "Kafka, HBase, the raw client, a hand-written Kafka-to-HBase client "
            + "and rowflow run each in a JVM of its own (the writers with the Helm chart's JVM options), --rounds rounds "
            + "in rotated order; prints per writer the medians of rows/s, CPU per row and peak RSS, the Kafka readers' "
            + "launch to first record and whole-process CPU, and rowflow's ratios to the raw and the hand-written client.")
    boolean external;

    @Option(names = "--jfr", description = "With --external: one more rowflow pass per format recorded with JFR; prints "
            + "its stream threads' time per stage (poll, deserialize, keying, mutate, flush, commit) and the hottest methods.")
    boolean jfr;

    @Option(names = "--writer-jvm-options", paramLabel = "OPTIONS", description = "With --external: the JVM options "
            + "of both writers, in one argument (default: the Helm chart's, with -XX:MaxRAM for the pod's limit).")
    String writerJvmOptions;

    @Option(names = "--rounds", defaultValue = "3", description = "Rounds of --external (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--variant", paramLabel = "KEY=VALUE[,KEY=VALUE...]", description = "With --external: one more "
            + "rowflow writer (the first format) with these settings added to the default configuration, in every "
            + "round: what a setting is worth, measured against the default in the same run. Repeatable.")
    List<String> variants;

    @Option(names = "--set", paramLabel = "KEY=VALUE[,KEY=VALUE...]", description = "With --external: settings added "
            + "to the configuration of every rowflow run (the measured runs, the variants, the latency and JFR passes, "
            + "--scale's instances), not to the raw client's: the bench of a configuration other than the default, e.g. "
            + "--set kafka.commit.interval.ms=1000. Repeatable.")
    List<String> sets;

    @Option(names = "--scale", split = ",", paramLabel = "SHAPE", description = "With --external: instead of the "
            + "writer comparison, rowflow in each shape INSTANCESxTHREADS (e.g. 1x1,1x2,2x1): that many JVMs of one "
            + "application id, that many stream threads each, draining the events from a topic of "
            + ScaleBench.PARTITIONS + " partitions; rows/s, CPU and their ratio to the first shape.")
    List<String> scale;

    /**
     * One throughput phase: rows/s, the CPU this JVM (stack included) spent per row, and how busy
     * the whole machine was. With the machine near 100% busy in both, b / a is about the inverse
     * ratio of their CPU per row: what bounds it here is CPU, not rowflow waiting.
     */
    record Phase(double rowsPerSecond, double cpuMicrosPerRow, double machineBusy) {
    }

    /** The result; rows are data plus index rows. */
    record BenchResult(int events, long rows, double rawRowsPerSecond, double rowflowRowsPerSecond,
                       double naiveRowsPerSecond, int naiveRows, double ratio, double ratioToNaive,
                       Phase raw, Phase rowflow, List<QueryLatency.Result> queries, List<HotspotExperiment.Result> hotspot,
                       PipelineMemory.Result memory, String dataLayout, String machine, double seconds, String store,
                       Map<String, Phase> formats, Map<String, Double> formatToAvro,
                       Map<String, PipelineMemory.Result> formatMemory) {
    }

    @picocli.CommandLine.Option(names = "--summary",
            description = "Let rowflow also keep the log summary table (the raw ceiling does not write it).")
    boolean summary;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Store target;
        try {
            target = Store.of(store);
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--store: " + e.getMessage());
        }
        for (String format : formats) {
            if (!format.equals("avro") && !InputBench.FORMATS.contains(format)) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--format: '" + format
                        + "' is not one of avro, json, avro-registry");
            }
        }
        if (target == Store.BIGTABLE && EmbeddedBigtable.findEmulator().isEmpty()) {
            err.println("rowflow bench: --store bigtable: " + EmbeddedBigtable.HOW_TO_GET_IT);
            return 2;
        }
        if (scale != null && !external) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--scale needs --external");
        }
        if (variants != null && (!external || scale != null)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--variant needs --external (and no --scale)");
        }
        if (sets != null && !external) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--set needs --external");
        }
        Map<String, String> set = new LinkedHashMap<>();
        for (String pairs : sets == null ? List.<String>of() : sets) {
            set.putAll(settings("--set", pairs));
        }
        if (external && scale != null) {
            List<ScaleBench.Shape> shapes = new ArrayList<>();
            for (String shape : scale) {
                try {
                    shapes.add(ScaleBench.Shape.parse(shape));
                } catch (IllegalArgumentException e) {
                    throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--scale: " + e.getMessage());
                }
            }
            ScaleBench.Result result = ScaleBench.run(events, rounds, shapes, writerJvmOptions == null ? List.of()
                    : List.of(writerJvmOptions.trim().split("\\s+")), set, err);
            print(result, out -> ExternalBenchReport.scaleTable(result, out));
            return 0;
        }
        if (external) {
            for (String format : formats) {
                if (!ExternalBench.FORMATS.contains(format)) {
                    throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--format: '" + format
                            + "' is not one of " + String.join(", ", ExternalBench.FORMATS) + " with --external");
                }
            }
            // As without --external: rowflow always reads the Avro events; json adds a writer.
            List<String> read = ExternalBench.FORMATS.stream()
                    .filter(format -> format.equals("avro") || formats.contains(format)).toList();
            List<Map<String, String>> settings = new ArrayList<>();
            for (String variant : variants == null ? List.<String>of() : variants) {
                settings.add(settings("--variant", variant));
            }
            ExternalBench.Result result = ExternalBench.run(events, rounds, read, jfr, writerJvmOptions == null
                    ? List.of() : List.of(writerJvmOptions.trim().split("\\s+")), set, settings, err);
            print(result, out -> ExternalBenchReport.table(result, out));
            return 0;
        }
        err.println("rowflow bench: starting the embedded stack ...");
        err.flush();
        long benchStart = System.nanoTime();
        try (EmbeddedStack stack = EmbeddedStack.start()) {
            Map<String, Object> props = new LinkedHashMap<>(stack.rowflowProperties(store));
            props.put(RowflowConfig.APPLICATION_ID_CONFIG, "rowflow-bench");
            props.put(RowflowConfig.LOGS_TOPIC_CONFIG, "bench-logs");
            props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, "bench_data");
            props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, "bench_index");
            props.put(RowflowConfig.LOG_DATA_LAYOUT_CONFIG, "bucket(8) | timestamp:ts, hostname:text, eventType:text");
            // Completion is measured by committed offsets, so commit (and flush) every second;
            // with Kafka Streams' default 30 s the run would end at a commit, not when the rows are in.
            props.put("kafka.commit.interval.ms", "1000");
            props.put("kafka.num.stream.threads", Integer.toString(streamThreads));
            // The raw ceiling writes data and index rows only; the summary counters are extra work
            // measured on request.
            props.put(RowflowConfig.LOG_SUMMARY_ENABLED_CONFIG, String.valueOf(summary));
            RowflowConfig config = new RowflowConfig(props);
            LogEventRows rows = dev.rowflow.pipeline.ingest.LogIngest.rows(config, null);

            List<LogEvent> generated = new ArrayList<>(events);
            LogEventGenerator generator = new LogEventGenerator(8, 200, System.currentTimeMillis() - events);
            for (int i = 0; i < events; i++) {
                generated.add(generator.next());
            }
            Map<TableRole, List<Put>> puts = ClientBaselines.puts(rows, generated);
            Phase rawPhase = ClientBaselines.rawCeiling(config, rows, generated, puts, err);
            Phase rowflowPhase = endToEnd(config, generated, err);
            Map<String, Phase> formatPhases = new LinkedHashMap<>();
            Map<String, PipelineMemory.Result> formatMemory = new LinkedHashMap<>();
            for (String format : InputBench.FORMATS) {
                if (formats.contains(format)) {
                    InputBench.Result phase = InputBench.endToEnd(format, props, generated,
                            skipMemory ? null : stack.directory(), err);
                    formatPhases.put(format, phase.phase());
                    if (phase.memory() != null) {
                        formatMemory.put(format, phase.memory());
                    }
                }
            }
            double raw = rawPhase.rowsPerSecond();
            double rowflow = rowflowPhase.rowsPerSecond();
            double naive = ClientBaselines.naivePuts(config, rows, generated, puts, naiveRows, err);
            List<QueryLatency.Result> latencies;
            List<HotspotExperiment.Result> hotspot;
            try (Connection connection = dev.rowflow.pipeline.runtime.HBaseConnections.connect(config)) {
                latencies = QueryLatency.run(connection, config, generated, queries, err);
                if (target.capabilities().regionMetrics()) {
                    hotspot = HotspotExperiment.run(connection, events / 2, err);
                } else {
                    hotspot = List.of();
                    err.printf("hotspot experiment: skipped, store %s reports no per-region write counts%n", store);
                }
            }
            PipelineMemory.Result memory = skipMemory ? null : PipelineMemory.measure(props,
                    config.getString(RowflowConfig.LOGS_TOPIC_CONFIG), events, stack.directory(), err);
            long totalRows = 2L * events;
            BenchResult result = new BenchResult(events, totalRows, Math.round(raw), Math.round(rowflow),
                    Math.round(naive), Math.min(naiveRows, (int) totalRows), Math.round(rowflow / raw * 100) / 100.0,
                    Math.round(rowflow / naive * 10) / 10.0, rawPhase, rowflowPhase, latencies, hotspot, memory,
                    rows.dataLayout().spec(),
                    Runtime.getRuntime().availableProcessors() + " cores, Java " + System.getProperty("java.version"),
                    Math.round((System.nanoTime() - benchStart) / 1e8) / 10.0, target.token(), formatPhases,
                    ratios(formatPhases, rowflow), formatMemory);
            print(result, out -> BenchReport.table(result, out));
        }
        return 0;
    }

    private static Map<String, Double> ratios(Map<String, Phase> phases, double avro) {
        Map<String, Double> ratios = new LinkedHashMap<>();
        phases.forEach((format, phase) -> ratios.put(format, Math.round(phase.rowsPerSecond() / avro * 100) / 100.0));
        return ratios;
    }

    /** The same events through the topic and the production pipeline, timed from RUNNING to all committed. */
    static Phase endToEnd(RowflowConfig config, List<LogEvent> events, PrintWriter err) throws Exception {
        String topic = config.getString(RowflowConfig.LOGS_TOPIC_CONFIG);
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, topic, Optional.of(4), Duration.ofSeconds(30));
            try (LogEventProducer producer = LogEventProducer.open(config.kafkaProperties(), topic)) {
                events.forEach(producer::send);
            }
            try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry())) {
                while (pipeline.state() != KafkaStreams.State.RUNNING) {
                    Thread.sleep(10);
                }
                CpuMeter cpu = new CpuMeter();
                long start = System.nanoTime();
                while (Offsets.uncommitted(admin, config.getString(RowflowConfig.APPLICATION_ID_CONFIG), topic) > 0) {
                    if (System.nanoTime() - start > TimeUnit.MINUTES.toNanos(10)) {
                        throw new IllegalStateException("the pipeline did not finish within 10 minutes");
                    }
                    Thread.sleep(50);
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                double rowsPerSecond = 2.0 * events.size() / seconds;
                CpuMeter.Usage usage = cpu.stop();
                long written = 2L * events.size();
                err.printf("rowflow end to end:  %,d rows in %.1f s, %,.0f rows/s (RUNNING -> last offset committed); "
                        + "%.1f us CPU per row, machine %.0f%% busy%n", written, seconds, rowsPerSecond,
                        usage.microsPerRow(written), usage.machineBusy() * 100);
                err.flush();
                return new Phase(rowsPerSecond, usage.microsPerRow(written), usage.machineBusy());
            }
        }
    }

    /** {@code KEY=VALUE[,KEY=VALUE...]} of {@code option}, in their order. */
    private Map<String, String> settings(String option, String pairs) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String pair : pairs.split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0 || pair.contains(" ")) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), option + ": '" + pair
                        + "' is not KEY=VALUE (settings separated by commas, no spaces)");
            }
            settings.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return settings;
    }

    /**
     * The result as one JSON object on the last line of stdout ({@code --json}), or as the tables
     * {@code tables} prints.
     */
    private void print(Object result, Consumer<PrintWriter> tables) throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(new ObjectMapper().writeValueAsString(result));
        } else {
            tables.accept(out);
        }
        out.flush();
    }
}
