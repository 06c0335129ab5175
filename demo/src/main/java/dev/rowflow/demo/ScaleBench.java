package dev.rowflow.demo;

import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.events.LogEvent;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupState;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code rowflow bench --external --scale 1x1,1x2,2x1}: how rowflow scales out on this machine.
 * For each shape (instances x stream threads), {@code rowflow run} in that many JVMs of one
 * application id, each with that many stream threads; once every instance is ready and the group
 * is stable, the events are produced to a fresh topic of {@link #PARTITIONS} partitions and the
 * instances drain them. Per shape the medians of rows/s (first record processed to last row
 * acknowledged), CPU of all instances over that span and per row, the largest peak RSS, and how
 * busy the machine was.
 */
final class ScaleBench {
    /** Partitions of each round's topic: at least instances x threads of every shape, as in production. */
    static final int PARTITIONS = 12;
    private static final Pattern SHAPE = Pattern.compile("([1-9][0-9]*)x([1-9][0-9]*)");

    /** A deployment shape: {@code instances} JVMs of one application id, {@code threads} stream threads each. */
    record Shape(int instances, int threads) {
        static Shape parse(String text) {
            Matcher m = SHAPE.matcher(text.trim());
            if (!m.matches()) {
                throw new IllegalArgumentException("'" + text + "' is not INSTANCESxTHREADS, e.g. 2x1");
            }
            Shape shape = new Shape(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
            if (shape.instances() * shape.threads() > PARTITIONS) {
                throw new IllegalArgumentException("'" + text + "' has more stream threads than the " + PARTITIONS
                        + " partitions: the extra ones would idle");
            }
            return shape;
        }

        @Override
        public String toString() {
            return instances + "x" + threads;
        }
    }

    /** One shape in one round. */
    record Run(String shape, int round, long rows, double seconds, double rowsPerSecond, double cpuSeconds,
               double cpuMicrosPerRow, long peakRssMb, double machineBusy, long dataRows) {
    }

    /** Per shape the median round, and its rows/s over the first shape's. */
    record Result(int events, int rounds, int partitions, List<String> jvmOptions, Map<String, String> settings,
                  List<Run> runs,
                  Map<String, Run> medians, Map<String, Double> ratios) {
    }

    private ScaleBench() {
    }

    /** {@code settings} are added to every instance's configuration (the bench's {@code --set}). */
    static Result run(int events, int rounds, List<Shape> shapes, List<String> writerJvmOptions,
                      Map<String, String> settings, PrintWriter err) throws Exception {
        Path dir = dev.rowflow.embedded.TempDirs.create("rowflow-bench-scale-");
        List<String> jvmOptions = writerJvmOptions.isEmpty() ? PipelineMemory.chartJvmOptions() : writerJvmOptions;
        try (BenchServers servers = BenchServers.start(dir, settings, err);
             Admin admin = Admin.create(new RowflowConfig(servers.base()).kafkaProperties())) {
            List<LogEvent> generated = ExternalBench.events(events, System.currentTimeMillis() - events);
            List<Run> runs = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                // Rotated: each shape goes first in turn.
                List<Shape> order = new ArrayList<>(shapes);
                java.util.Collections.rotate(order, -((round - 1) % shapes.size()));
                for (Shape shape : order) {
                    Run run = drain(servers.rowflow(), admin, shape, generated, round, jvmOptions, dir);
                    runs.add(run);
                    err.printf("  round %d %s: %,d rows in %.1f s: %,.0f rows/s, %.1f CPU-s (%.1f us/row), "
                                    + "peak RSS %d MB, machine %.0f%% busy%n", round, shape, run.rows(), run.seconds(),
                            run.rowsPerSecond(), run.cpuSeconds(), run.cpuMicrosPerRow(), run.peakRssMb(),
                            run.machineBusy() * 100);
                    err.flush();
                }
            }
            Map<String, Run> medians = new LinkedHashMap<>();
            for (Shape shape : shapes) {
                List<Run> of = runs.stream().filter(r -> r.shape().equals(shape.toString()))
                        .sorted(Comparator.comparingDouble(Run::rowsPerSecond)).toList();
                medians.put(shape.toString(), of.get((of.size() - 1) / 2));
            }
            Map<String, Double> ratios = new LinkedHashMap<>();
            double first = medians.get(shapes.get(0).toString()).rowsPerSecond();
            medians.forEach((shape, run) -> ratios.put(shape, ExternalBench.round2(run.rowsPerSecond() / first)));
            return new Result(events, rounds, PARTITIONS, jvmOptions, settings, runs, medians, ratios);
        }
    }

    private static Run drain(Map<String, Object> base, Admin admin, Shape shape, List<LogEvent> events, int round,
                             List<String> jvmOptions, Path dir) throws Exception {
        String name = "scale" + shape.instances() + "x" + shape.threads() + "r" + round;
        String topic = "bench-" + name;
        KafkaTopics.createIfAbsent(admin, topic, Optional.of(PARTITIONS), Duration.ofSeconds(60));
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        List<RowflowJvm> instances = new ArrayList<>();
        try {
            for (int i = 0; i < shape.instances(); i++) {
                instances.add(RowflowJvm.start(base, name, i,
                        Map.of("kafka.num.stream.threads", Integer.toString(shape.threads())), topic, "avro",
                        jvmOptions, dir, false));
            }
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            // Every instance ready and the group stable with every stream thread a member: the
            // tasks are where they stay, and no rebalance falls into the measured span.
            while (!stable(admin, instances.get(0).group(), shape.instances() * shape.threads())
                    || !instances.stream().allMatch(jvm -> progress(http, jvm).ready())) {
                instances.forEach(jvm -> jvm.check(deadline, "stable group of " + shape));
                Thread.sleep(100);
            }
            try (LogEventProducer producer = LogEventProducer.open(new RowflowConfig(base).kafkaProperties(), topic)) {
                events.forEach(producer::send);
                producer.flush();
            }
            long rows = 2L * events.size();
            long t0 = 0;
            double cpu0 = 0;
            CpuMeter machine = null;
            while (true) {
                instances.forEach(jvm -> jvm.check(deadline, "rows of every event"));
                List<RowflowJvm.Progress> progress = instances.stream().map(jvm -> progress(http, jvm)).toList();
                if (t0 == 0 && progress.stream().anyMatch(p -> p.consumed() > 0)) {
                    t0 = System.nanoTime();
                    cpu0 = cpuSeconds(instances);
                    machine = new CpuMeter();
                }
                if (t0 != 0 && progress.stream().mapToLong(RowflowJvm.Progress::sent).sum() >= rows) {
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    double cpu = cpuSeconds(instances) - cpu0;
                    double busy = machine.stop().machineBusy();
                    long peak = 0;
                    for (RowflowJvm jvm : instances) {
                        peak = Math.max(peak, jvm.jvm().peakRssMb());
                    }
                    ExternalBench.awaitCommitted(admin, instances.get(0), events.size());
                    return new Run(shape.toString(), round, rows, ExternalBench.round1(seconds), rows / seconds,
                            ExternalBench.round1(cpu), ExternalBench.round1(cpu * 1e6 / rows), peak, busy,
                            ExternalBench.dataRows(base, instances.get(0).dataTable()));
                }
                Thread.sleep(ExternalBench.POLL_MILLIS);
            }
        } finally {
            for (RowflowJvm jvm : instances) {
                jvm.close();
            }
        }
    }

    private static boolean stable(Admin admin, String group, int members) throws Exception {
        ConsumerGroupDescription description;
        try {
            description = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group)
                    .get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException) {
                return false; // no instance has joined yet
            }
            throw e;
        }
        return description.groupState() == GroupState.STABLE && description.members().size() == members
                && description.members().stream().allMatch(m -> !m.assignment().topicPartitions().isEmpty());
    }

    private static RowflowJvm.Progress progress(java.net.http.HttpClient http, RowflowJvm jvm) {
        try {
            return RowflowJvm.progress(http, jvm.metrics());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static double cpuSeconds(List<RowflowJvm> instances) throws java.io.IOException {
        double sum = 0;
        for (RowflowJvm jvm : instances) {
            sum += jvm.jvm().cpuSeconds();
        }
        return sum;
    }
}
