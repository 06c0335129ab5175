package dev.rowflow.demo;

import dev.rowflow.demo.ExternalBench.Run;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import org.apache.kafka.clients.admin.Admin;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static dev.rowflow.demo.ExternalBench.round1;

/**
 * The peer writers of {@code rowflow bench --external}, each one run in a JVM of its own against
 * the bench's {@link BenchServers}, measured as {@link ExternalBench.Run}: the raw BufferedMutator
 * client or rowflow's sink alone ({@link RawWriter}, no Kafka), {@code rowflow run} reading the
 * events from a topic ({@link RowflowJvm}, its progress read from its /metrics), and a rowflow
 * run's event-to-visible latency ({@link VisibilityLatency}). Which writers run, in which order
 * and how often is {@link ExternalBench}'s.
 */
final class ExternalWriters {
    /** The variants' numbers, for their groups' and tables' names. */
    private static final Map<String, Integer> VARIANTS = new java.util.concurrent.ConcurrentHashMap<>();

    private ExternalWriters() {
    }

    /** CPU seconds of the HBase process (and of it its collector's and JIT's) and of the Kafka process so far. */
    private record ServerCpu(ThreadCpu hbase, double kafka) {
        static ServerCpu of(BenchServers servers) throws IOException {
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
     * {@code rows} over the WAL entries the region server appended for the tables whose names start
     * with {@code prefix} ({@link dev.rowflow.embedded.WalAppends}): rows per region batch.
     */
    private static double rowsPerWalAppend(BenchServers servers, String prefix, long rows) throws IOException {
        long appends = servers.hbase().invoke(dev.rowflow.embedded.WalAppends.OBJECT_NAME, "appendsOf", prefix);
        return appends == 0 ? 0 : round1((double) rows / appends);
    }

    /**
     * A {@link RawWriter} run: {@code raw} the hand-written BufferedMutator client, {@code sink}
     * rowflow's sink alone, without Kafka.
     */
    static Run raw(BenchServers servers, String name, int events, long start, int round,
                   List<String> jvmOptions, Path dir) throws Exception {
        Map<String, Object> base = servers.base();
        Path config = ExternalBench.write(dir.resolve(name + "-" + round + ".properties"), base);
        String prefix = name.replace("-", "") + round + "_";
        try (ChildJvm writer = ChildJvm.start(name + " writer", jvmOptions, RawWriter.class.getName(), List.of(
                config.toString(), Integer.toString(events), Long.toString(start),
                Integer.toString(ExternalBench.RAW_THREADS), prefix, name.equals("raw") ? "mutator" : name),
                dir.resolve(name + "-" + round + ".log"))) {
            writer.awaitLine("STARTED");
            return measure(servers, writer, name, round, prefix, Double.NaN);
        }
    }

    /**
     * A {@link KafkaWriter} run, the fair peer: the hand-written Kafka-to-HBase client reading the
     * events of {@code format} from the topic rowflow reads, with as many threads as rowflow has
     * stream threads, into tables created before it starts as rowflow's are (the start-up of a
     * restarted or newly scaled instance, whose tables exist).
     */
    static Run kafka(BenchServers servers, String writer, int events, int round, List<String> jvmOptions,
                     List<dev.rowflow.events.LogEvent> generated, Path dir) throws Exception {
        Map<String, Object> base = servers.base();
        RowflowConfig config = new RowflowConfig(base);
        String format = ExternalBench.format(writer);
        String prefix = writer.replace("-", "") + round + "_";
        try (org.apache.hadoop.hbase.client.Connection connection =
                     dev.rowflow.pipeline.runtime.HBaseConnections.connect(config)) {
            ClientBaselines.tablesLike(config, dev.rowflow.pipeline.ingest.LogIngest.rows(config, null), prefix, generated,
                    connection);
        }
        Path file = ExternalBench.write(dir.resolve(writer + "-" + round + ".properties"), base);
        int threads = Integer.parseInt(String.valueOf(servers.rowflow().getOrDefault("kafka.num.stream.threads", "1")));
        String commitMs = String.valueOf(servers.rowflow().getOrDefault("kafka.commit.interval.ms", "30000"));
        long launched = System.nanoTime();
        try (ChildJvm jvm = ChildJvm.start(writer + " writer", jvmOptions, KafkaWriter.class.getName(), List.of(
                file.toString(), ExternalBench.topic(format), format, Integer.toString(threads), prefix,
                "bench-" + writer + "-" + round, Integer.toString(events), commitMs), dir.resolve(writer + "-" + round + ".log"))) {
            jvm.awaitLine("CONSUMING");
            return measure(servers, jvm, writer, round, prefix, ExternalBench.round2((System.nanoTime() - launched) / 1e9));
        }
    }

    /**
     * Measures a writer's JVM from the line it prints when it starts its work to its {@code RESULT}
     * line ({@link RawWriter}, {@link KafkaWriter}): its own figures, what the servers spent over the
     * span, its data table's rows; then drops its tables. {@code launchSeconds}: NaN for a writer
     * without Kafka.
     */
    private static Run measure(BenchServers servers, ChildJvm jvm, String writer, int round, String prefix,
                               double launchSeconds) throws Exception {
        CpuMeter machine = new CpuMeter();
        ServerCpu servers0 = ServerCpu.of(servers);
        Map<String, String> result = ExternalBench.settings(jvm.awaitLine("RESULT"));
        double busy = machine.stop().machineBusy();
        ServerCpu servers1 = ServerCpu.of(servers);
        long rows = Long.parseLong(result.get("rows"));
        double seconds = Double.parseDouble(result.get("seconds"));
        double cpu = Double.parseDouble(result.get("cpuSeconds"));
        long dataRows = ExternalBench.dataRows(servers.base(), prefix + "log_data");
        double rowsPerAppend = rowsPerWalAppend(servers, prefix, rows);
        servers.settle(prefix);
        double[] server = servers1.perRowSince(servers0, rows);
        return new Run(writer, round, rows, seconds, rows / seconds, rows / seconds, cpu, round1(cpu * 1e6 / rows),
                Long.parseLong(result.get("allocatedBytes")) / rows, Long.parseLong(result.get("peakRssMb")), busy,
                dataRows, seconds, server[0], server[1], perRow(result, "jitSeconds", rows),
                perRow(result, "gcSeconds", rows), perRow(result, "hbaseClientSeconds", rows),
                perRow(result, "secondHalfCpuSeconds", Long.parseLong(result.get("secondHalfRows"))), server[2], server[3],
                rowsPerAppend, launchSeconds, result.containsKey("processCpuSeconds")
                        ? Double.parseDouble(result.get("processCpuSeconds")) : Double.NaN);
    }

    /** Microseconds per row of the seconds a RESULT line gives under {@code key}. */
    private static double perRow(Map<String, String> result, String key, long rows) {
        return round1(Double.parseDouble(result.get(key)) * 1e6 / rows);
    }

    static Run rowflow(BenchServers servers, Admin admin, String writer, int events, int round,
                       List<String> jvmOptions, Path dir) throws Exception {
        Map<String, Object> base = servers.base();
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        long rows = 2L * events;
        String format = ExternalBench.format(writer);
        Map<String, Object> settings = ExternalBench.variantSettings(writer);
        // A variant's group and tables by its settings' place among the variants (its name holds them).
        String name = format + (settings.isEmpty() ? "" : "v" + VARIANTS.computeIfAbsent(writer, w -> VARIANTS.size() + 1))
                + round;
        try (RowflowJvm rowflow = RowflowJvm.start(servers.rowflow(), name, 0, settings, ExternalBench.topic(format), format,
                jvmOptions, dir, true)) {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            long t0 = 0;
            double launch = 0;
            double processCpu = 0;
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
                    launch = (t0 - rowflow.launched()) / 1e9;
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
                    processCpu = end.total();
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
                    ExternalBench.awaitCommitted(admin, rowflow, events);
                    long dataRows = ExternalBench.dataRows(base, rowflow.dataTable());
                    rowflow.close();
                    double rowsPerAppend = rowsPerWalAppend(servers, "rowflow" + name + "_", rows);
                    servers.settle("rowflow" + name + "_");
                    return new Run(writer, round, rows, seconds, rows / seconds, rows / steadySeconds, cpu.total(),
                            round1(cpu.total() * 1e6 / rows), allocated / rows, peak, busy, dataRows,
                            round1((durable - t0) / 1e9), server[0], server[1], round1(cpu.jit() * 1e6 / rows),
                            round1(cpu.gc() * 1e6 / rows), round1(cpu.hbaseClient() * 1e6 / rows),
                            round1(secondHalf.total() * 1e6 / (half == null ? rows : rows - halfSent)), server[2], server[3],
                            rowsPerAppend, ExternalBench.round2(launch), processCpu);
                }
                // Until its first record, read often: its start-up is measured to that moment.
                Thread.sleep(t0 == 0 ? ExternalBench.START_POLL_MILLIS : ExternalBench.POLL_MILLIS);
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
    static VisibilityLatency.Result latency(Map<String, Object> base, Admin admin, String format, int round,
                                            double maxEventsPerSecond, int seconds, int warmUp,
                                            List<String> jvmOptions, Path dir, PrintWriter err)
            throws Exception {
        String topic = ExternalBench.TOPIC + "-latency-" + format + "-" + round;
        KafkaTopics.createIfAbsent(admin, topic, Optional.of(ExternalBench.PARTITIONS), Duration.ofSeconds(60));
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
}
