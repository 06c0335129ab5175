package dev.rowflow.demo;

import dev.rowflow.embedded.load.Offsets;

import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import org.apache.kafka.clients.admin.Admin;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The pipeline's memory at full rate, measured where it means something: {@code rowflow run} in a
 * JVM of its own, with the JVM options of the Helm chart's defaults (heap a share of the pod's
 * memory limit), against the embedded stack in the bench's JVM. The resident set size is sampled
 * while it works through a backlog as fast as it can.
 */
final class PipelineMemory {
    /** The chart's defaults (helm/rowflow/values.yaml): resources.limits.memory, jvm.maxRamPercentage, jvm.gc, jvm.youngGenerationMiB. */
    static final long POD_MEMORY_LIMIT_MB = 768;
    static final int MAX_RAM_PERCENTAGE = 50;
    static final int YOUNG_GENERATION_MB = 64;

    /**
     * The JVM options of the Helm chart's defaults (its {@code JAVA_TOOL_OPTIONS}), with
     * {@code -XX:MaxRAM} standing in for the pod's memory limit.
     */
    static List<String> chartJvmOptions() {
        return List.of("-XX:MaxRAM=" + POD_MEMORY_LIMIT_MB + "m", "-XX:MaxRAMPercentage=" + MAX_RAM_PERCENTAGE,
                "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError", "-Xmn" + YOUNG_GENERATION_MB + "m");
    }

    /** What the run showed. */
    record Result(List<String> jvmOptions, long events, double seconds, double eventsPerSecond, long peakRssMb,
                  long medianRssMb) {
    }

    private PipelineMemory() {
    }

    /**
     * Runs the production pipeline on {@code topic} (already holding {@code events} events) under
     * a fresh application id until everything is committed.
     */
    static Result measure(Map<String, Object> baseProps, String topic, long events, Path dir, PrintWriter err)
            throws Exception {
        Map<String, Object> props = new java.util.LinkedHashMap<>(baseProps);
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "rowflow-bench-memory-" + topic); // a group per topic measured
        props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, "bench_memory_data");
        props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, "bench_memory_index");
        props.put(RowflowConfig.LOG_SUMMARY_TABLE_CONFIG, "bench_memory_summary");
        props.put(RowflowConfig.METRICS_PORT_CONFIG, "0");
        Path config = dir.resolve("rowflow-memory.properties");
        Files.writeString(config, props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")));

        List<String> jvmOptions = chartJvmOptions();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ChildJvm.moduleFlags());
        command.addAll(dev.rowflow.embedded.CrashReports.sameAsThisJvm());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.rowflow.pipeline.cli.Rowflow",
                "run", "--config", config.toString()));
        Path log = dir.resolve("rowflow-memory.log");
        Process rowflow = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
        err.printf("pipeline memory: rowflow run in its own JVM (pid %d, %s)%n", rowflow.pid(), String.join(" ", jvmOptions));
        err.flush();
        RowflowConfig rowflowConfig = new RowflowConfig(props);
        List<Long> samples = new ArrayList<>();
        try (Admin admin = Admin.create(rowflowConfig.kafkaProperties())) {
            String group = rowflowConfig.getString(RowflowConfig.APPLICATION_ID_CONFIG);
            long start = 0;
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (true) {
                if (!rowflow.isAlive()) {
                    throw new IllegalStateException("rowflow run exited with " + rowflow.exitValue() + "; its log: " + log);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("rowflow run did not finish within 5 minutes; its log: " + log);
                }
                long uncommitted = committedYet(admin, group, topic) ? Offsets.uncommitted(admin, group, topic) : events;
                if (uncommitted < events && start == 0) {
                    start = System.nanoTime(); // the first commit: it is running at full rate
                }
                if (start != 0) {
                    samples.add(rss(rowflow.pid(), "VmRSS:"));
                }
                if (uncommitted == 0) {
                    break;
                }
                Thread.sleep(100);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long peak = rss(rowflow.pid(), "VmHWM:");
            samples.sort(Long::compare);
            long median = samples.isEmpty() ? 0 : samples.get(samples.size() / 2);
            err.printf("pipeline memory: peak RSS %d MB, median %d MB while working (%d samples)%n", peak >> 20,
                    median >> 20, samples.size());
            err.flush();
            return new Result(jvmOptions, events, seconds, events / seconds, peak >> 20, median >> 20);
        } finally {
            rowflow.destroy();
            if (!rowflow.waitFor(60, TimeUnit.SECONDS)) {
                rowflow.destroyForcibly();
            }
        }
    }

    private static boolean committedYet(Admin admin, String group, String topic) throws Exception {
        try {
            return !admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().isEmpty();
        } catch (java.util.concurrent.ExecutionException e) {
            return false;
        }
    }

    /** A size line of /proc/PID/status, in bytes. */
    private static long rss(long pid, String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
            }
        }
        throw new IOException("no " + field + " in /proc/" + pid + "/status");
    }
}
