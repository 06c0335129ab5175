package dev.rowflow.demo;

import java.io.PrintWriter;

/**
 * What {@code rowflow bench --external} reports as it goes, on stderr: each writer's figures in
 * each round and each latency run's percentiles, flushed at once, so that a long bench shows its
 * progress and a bench cut short still leaves the rounds it ran.
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
}
