package dev.rowflow.demo;

import java.io.PrintWriter;

/**
 * The tables {@code rowflow bench} prints for its run on the embedded stack: rows/s of the raw
 * ceiling, rowflow end to end and naive puts with their ratios, each format's rows/s and CPU per
 * row, query latency per kind, the hotspot experiment and the pipeline's memory. Measuring them
 * is {@link BenchCommand}'s.
 */
final class BenchReport {
    private BenchReport() {
    }

    /** Every table of the run, then its footer: events, rows, layout, store and machine. */
    static void table(BenchCommand.BenchResult result, PrintWriter out) {
        out.printf("%n| measure | rows/s |%n|---|---|%n");
        out.printf("| (a) raw BufferedMutator ceiling | %,.0f |%n", result.rawRowsPerSecond());
        out.printf("| (b) rowflow end to end | %,.0f |%n", result.rowflowRowsPerSecond());
        out.printf("| (c) naive Table.put per row (%,d rows) | %,.0f |%n", result.naiveRows(), result.naiveRowsPerSecond());
        result.formats().forEach((format, phase) -> out.printf("| (%s) rowflow end to end, the same events as %s | %,.0f |%n",
                format.equals("json") ? "b'" : "b''", format, phase.rowsPerSecond()));
        out.printf("| b / a | %.2f |%n| b / c | %.1f |%n", result.ratio(), result.ratioToNaive());
        result.formats().forEach((format, phase) -> {
            out.printf("| %s / b (%s / single-object Avro) | %.2f |%n", format.equals("json") ? "b'" : "b''", format,
                    result.formatToAvro().get(format));
            out.printf("CPU per row, %s %.1f us (single-object Avro b %.1f us); machine busy %.0f%%%n", format,
                    phase.cpuMicrosPerRow(), result.rowflow().cpuMicrosPerRow(), phase.machineBusy() * 100);
        });
        BenchCommand.Phase json = result.formats().get("json");
        result.formats().forEach((format, phase) -> {
            if (json != null && format.startsWith("debezium")) {
                // Change events of the same rows against plain JSON: what the envelope and its deletes cost.
                out.printf("| b'' / b' (%s / json) | %.2f |%n", format, phase.rowsPerSecond() / json.rowsPerSecond());
            }
        });
        out.printf("%nCPU per row (this JVM: stack and client or pipeline): a %.1f us, b %.1f us; machine busy: a %.0f%%, "
                        + "b %.0f%%%n", result.raw().cpuMicrosPerRow(), result.rowflow().cpuMicrosPerRow(),
                result.raw().machineBusy() * 100, result.rowflow().machineBusy() * 100);
        out.printf("%n| (d) query | p50 ms | p99 ms | rows/query |%n|---|---|---|---|%n");
        for (QueryLatency.Result q : result.queries()) {
            out.printf("| %s: %s | %.2f | %.2f | %.1f |%n", q.kind(), q.query(), q.p50Ms(), q.p99Ms(), q.rowsPerQuery());
        }
        if (!result.hotspot().isEmpty()) {
            out.printf("%n| hotspot: layout | pre-split | write share per region %% | largest / fair |%n|---|---|---|---|%n");
        }
        for (HotspotExperiment.Result h : result.hotspot()) {
            out.printf("| %s `%s` | %s | %s | %.2f |%n", h.name(), h.layout().replace("|", "\\|"), h.split(),
                    HotspotExperiment.describe(h.shares()), h.largestOverFair());
        }
        if (result.memory() != null) {
            PipelineMemory.Result m = result.memory();
            out.printf("%npipeline in its own JVM (%s): %,.0f events/s, peak RSS %d MB, median RSS %d MB%n",
                    String.join(" ", m.jvmOptions()), m.eventsPerSecond(), m.peakRssMb(), m.medianRssMb());
            result.formatMemory().forEach((format, f) -> out.printf("  the same events as %s: %,.0f events/s, peak RSS "
                            + "%d MB (%.2f x single-object Avro's), median RSS %d MB%n", format, f.eventsPerSecond(),
                    f.peakRssMb(), (double) f.peakRssMb() / m.peakRssMb(), f.medianRssMb()));
        }
        out.printf("%n%,d events, %,d rows (data + index), layout %s, store %s, %s, %.1f s in all%n", result.events(),
                result.rows(), result.dataLayout(), result.store(), result.machine(), result.seconds());
    }
}
