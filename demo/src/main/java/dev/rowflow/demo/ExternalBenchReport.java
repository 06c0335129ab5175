package dev.rowflow.demo;

import java.io.PrintWriter;
import java.util.Map;

/**
 * What {@code rowflow bench --external} (and {@code --scale}) reports: as it goes, on stderr, each
 * writer's figures in each round and each latency run's percentiles, flushed at once, so that a
 * long bench shows its progress and a bench cut short still leaves the rounds it ran; at the end,
 * on stdout, the tables of its medians and ratios. Measuring is {@link ExternalBench}'s and
 * {@link ScaleBench}'s.
 */
final class ExternalBenchReport {
    private ExternalBenchReport() {
    }

    /** One writer's figures in one round. */
    static void run(PrintWriter err, int round, String writer, ExternalBench.Run run) {
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
        if (!Double.isNaN(run.launchSeconds())) {
            err.printf("    launch -> first record %.2f s; whole process %.1f CPU-s (%.1f us/row), start-up included%n",
                    run.launchSeconds(), run.processCpuSeconds(), run.processCpuSeconds() * 1e6 / run.rows());
        }
        err.flush();
    }

    /** The latency pass run before the counted ones, on the first format. */
    static void latencyWarmUp(PrintWriter err, String format, VisibilityLatency.Result warmUp) {
        err.printf("  latency warm-up, not counted (%s at %,.0f events/s): p50 %.0f ms, p99 %.0f ms, max %.0f ms%n",
                format, warmUp.eventsPerSecond(), warmUp.p50Millis(), warmUp.p99Millis(), warmUp.maxMillis());
        err.printf("    by when produced: %s%n", String.join("; ", warmUp.byWindow()));
        err.flush();
    }

    /** One counted latency run of {@code format}. */
    static void latency(PrintWriter err, String format, int round, VisibilityLatency.Result latency) {
        err.printf("  latency %s %d at %,.0f events/s: %d probes, p50 %.0f ms, p99 %.0f ms, max %.0f ms%n",
                format, round, latency.eventsPerSecond(), latency.probes(), latency.p50Millis(),
                latency.p99Millis(), latency.maxMillis());
        err.printf("    by when produced: %s%n", String.join("; ", latency.byWindow()));
        err.flush();
    }

    /** The writers' medians, their ratios to the raw client, the latency runs and the JFR profiles. */
    static void table(ExternalBench.Result result, PrintWriter out) {
        out.printf("%n| writer (own JVM) | rows/s | steady rows/s | CPU-s | CPU us/row | of it JIT | of it GC "
                + "| of it HBase client | of it the rest | second half CPU us/row | B allocated/row | peak RSS MB "
                + "| machine busy | durable after s | HBase CPU us/row | of it HBase's GC | of it HBase's JIT "
                + "| Kafka CPU us/row | rows per HBase WAL append |%n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|%n");
        result.medians().forEach((writer, run) -> out.printf(
                "| %s | %,.0f | %,.0f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %,d | %d | %.0f%% | %.1f | %.1f "
                        + "| %.1f | %.1f | %.1f | %.1f |%n",
                ExternalBench.describe(writer, result.settings()),
                run.rowsPerSecond(), run.steadyRowsPerSecond(), run.cpuSeconds(), run.cpuMicrosPerRow(),
                run.jitMicrosPerRow(), run.gcMicrosPerRow(), run.hbaseClientMicrosPerRow(), run.ownMicrosPerRow(),
                run.secondHalfCpuMicrosPerRow(),
                run.allocatedBytesPerRow(), run.peakRssMb(), run.machineBusy() * 100, run.durableSeconds(),
                run.hbaseMicrosPerRow(), run.hbaseGcMicrosPerRow(), run.hbaseJitMicrosPerRow(), run.kafkaMicrosPerRow(),
                run.rowsPerWalAppend()));
        result.ratios().forEach((writer, ratios) -> out.printf("| %s / raw | %.2f | %.2f | | %.2f | | | | | %.2f | | | | | | | | | |%n",
                writer, ratios.rows(), ratios.steady(), ratios.cpu(), ratios.secondHalfCpu()));
        peerTable(result, out);
        out.printf("%nCPU per row without the JIT compiler's threads, over the raw client's: %s%n",
                result.ratios().entrySet().stream().map(r -> String.format("%s %.2f", r.getKey(), r.getValue().cpuWithoutJit()))
                        .collect(java.util.stream.Collectors.joining(", ")));
        result.latencies().forEach((writer, runs) -> {
            for (VisibilityLatency.Result latency : runs) {
                out.printf("%n%s event-to-visible latency at %,.0f events/s (80%% of its rate, or of the "
                                + "%,.0f events/s it took with the producer running if lower) for %.0f s: "
                                + "%d probes, p50 %.0f ms, p99 %.0f ms, max %.0f ms", writer, latency.eventsPerSecond(),
                        latency.sustainedEventsPerSecond(), latency.seconds(), latency.probes(), latency.p50Millis(),
                        latency.p99Millis(), latency.maxMillis());
            }
        });
        out.println();
        out.printf("%nmedians of %d rounds in rotated order, %,d events (%,d rows each: data + index), JVM options %s%s%s%n",
                result.rounds(), result.events(), 2L * result.events(), String.join(" ", result.jvmOptions()),
                result.classArchive() ? "; rowflow's runs map the image's class-data sharing archive" : "",
                added(result.settings()));
        result.profiles().forEach((writer, profile) -> {
            out.printf("%nJFR of one more %s pass (%s, %.0f s recorded, %d stream thread(s)): stream threads' time%n"
                    + "%n| stage | running s | waiting s | share |%n|---|---|---|---|%n", writer, profile.recording(),
                    profile.seconds(), profile.streamThreads());
            for (String stage : JfrProfile.STAGES) {
                out.printf("| %s | %.2f | %.2f | %.1f%% |%n", stage, profile.runningSeconds().get(stage),
                        profile.waitingSeconds().get(stage), profile.sharePercent().get(stage));
            }
            out.printf("%nhottest methods, whole process (share of CPU samples): %s%n",
                    String.join(", ", profile.hottestMethods()));
            out.printf("hottest methods, stream threads: %s%n", String.join(", ", profile.hottestStreamThreadMethods()));
        });
    }

    /**
     * The writers that read Kafka -- rowflow and the hand-written client, the fair peer -- side by side: rows/s,
     * the CPU of the whole process (start-up included) and per row, that row's cost to the broker and the region
     * server, peak RSS and the time from launch to the first record; then rowflow over the peer.
     */
    private static void peerTable(ExternalBench.Result result, PrintWriter out) {
        out.printf("%nAgainst the fair peer, the writers that read the topic:%n%n| writer (own JVM) | rows/s "
                + "| CPU-s, whole process | of it before the first record | writer CPU us/row, whole process "
                + "| Kafka broker CPU us/row | HBase CPU us/row | peak RSS MB | launch -> first record s |%n"
                + "|---|---|---|---|---|---|---|---|---|%n");
        result.medians().forEach((writer, run) -> {
            if (!Double.isNaN(run.launchSeconds())) {
                out.printf("| %s | %,.0f | %.1f | %.1f | %.1f | %.1f | %.1f | %d | %.2f |%n",
                        ExternalBench.describe(writer, result.settings()), run.rowsPerSecond(), run.processCpuSeconds(),
                        run.processCpuSeconds() - run.cpuSeconds(), run.processCpuSeconds() * 1e6 / run.rows(),
                        run.kafkaMicrosPerRow(), run.hbaseMicrosPerRow(), run.peakRssMb(), run.launchSeconds());
            }
        });
        result.peerRatios().forEach((writer, ratios) -> out.printf(
                "| %s / kafka-%s | **%.2f** | **%.2f** | | | | | | **%.2f** |%n", writer, ExternalBench.format(writer),
                ratios.rows(), ratios.processCpu(), ratios.launch()));
        out.printf("%ntargets: rows/s >= 1.20x, CPU of the whole process <= 1.00x, launch -> first record <= 4 s; "
                + "CPU per row from the first record over the peer's: %s%n", result.peerRatios().entrySet().stream()
                .map(r -> String.format("%s %.2f", r.getKey(), r.getValue().cpu()))
                .collect(java.util.stream.Collectors.joining(", ")));
    }

    /** Each shape's medians and its rows/s over the first shape's ({@code --scale}). */
    static void scaleTable(ScaleBench.Result result, PrintWriter out) {
        out.printf("%n| instances x stream threads | rows/s | rows/s per instance | CPU-s | CPU us/row | peak RSS MB "
                + "| machine busy | rows/s / %s |%n|---|---|---|---|---|---|---|---|%n",
                result.medians().keySet().iterator().next());
        result.medians().forEach((shape, run) -> out.printf("| %s | %,.0f | %,.0f | %.1f | %.1f | %d | %.0f%% | %.2f |%n",
                shape, run.rowsPerSecond(), run.rowsPerSecond() / Integer.parseInt(shape.substring(0, shape.indexOf('x'))),
                run.cpuSeconds(), run.cpuMicrosPerRow(), run.peakRssMb(), run.machineBusy() * 100,
                result.ratios().get(shape)));
        out.printf("%nmedians of %d rounds in rotated order, %,d events (%,d rows each: data + index) produced once "
                        + "every instance was ready, %d partitions, JVM options %s%s%n", result.rounds(), result.events(),
                2L * result.events(), result.partitions(), String.join(" ", result.jvmOptions()), added(result.settings()));
    }

    /** The footer's note of the --set settings, if any. */
    private static String added(Map<String, String> settings) {
        return settings.isEmpty() ? "" : ", rowflow's configuration with " + settings.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(java.util.stream.Collectors.joining(","));
    }
}
