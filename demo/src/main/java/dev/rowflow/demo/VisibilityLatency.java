package dev.rowflow.demo;

import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.log.LogEventRows;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Event-to-visible latency: events produced at a steady rate, and for a sample of them ("probes")
 * the time from just before the producer is handed the event to the first moment its data row is
 * readable in HBase, found by a prober that asks for every outstanding probe's row (existence
 * only, one multi-get) every {@link #POLL_MILLIS} ms, or less often while many are outstanding
 * ({@link #POLL_MICROS_PER_PROBE}). What it measures is what a user waiting for a row sees: the
 * producer's batching, the broker, the consumer's fetch, the pipeline and its sink's sending, and
 * HBase.
 */
final class VisibilityLatency {
    /** How often outstanding probes are looked for: the resolution of the figures. */
    static final long POLL_MILLIS = 10;
    /**
     * The prober waits at least this long per outstanding probe between its reads, so it asks
     * HBase for at most 1,000 rows a second. Otherwise a pipeline falling behind gets more probes
     * asked for every 10 ms — 125 at 5 s behind, 12,500 reads a second on the region server it is
     * behind on — and falls further. The figures lose little: at 25 probes a second, n outstanding
     * probes are about n / 25 s old, so a read every n ms is within 2.5 % of their latency.
     */
    static final long POLL_MICROS_PER_PROBE = 1_000;
    /** About this many probes a second, whatever the rate: the prober's reads stay light. */
    static final int PROBES_PER_SECOND = 25;
    /** Probes are also summed up per window of this length, by when they were produced. */
    private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(5);

    /**
     * p50, p99 and the largest latency in ms over {@code probes} probes at {@code eventsPerSecond};
     * p50 and p99 per 5 s window too (a latency that grows window by window: the rate is above
     * what the pipeline sustains); {@code sustainedEventsPerSecond}, where a caller measured it, the
     * rate the pipeline took with the producer running, which the rate offered is 80 % of at most.
     */
    record Result(double eventsPerSecond, double seconds, int probes, double p50Millis, double p99Millis,
                  double maxMillis, List<String> byWindow, double sustainedEventsPerSecond) {
        /** The same figures, with the rate the pipeline was found to take before ({@code bench --external}). */
        Result withSustained(double eventsPerSecond) {
            return new Result(this.eventsPerSecond, seconds, probes, p50Millis, p99Millis, maxMillis, byWindow,
                    eventsPerSecond);
        }
    }

    private record Probe(byte[] dataRow, long producedNanos) {
    }

    private VisibilityLatency() {
    }

    /**
     * Produces {@code count} events of {@code generator} at {@code eventsPerSecond} and returns the
     * latency of the probes; throws if a probe is not readable within {@code timeout}.
     */
    static Result measure(FormatProducer producer, LogEventGenerator generator, LogEventRows rows, Table dataTable,
                          long count, double eventsPerSecond, java.time.Duration timeout)
            throws IOException, InterruptedException {
        if (count < 1 || !(eventsPerSecond > 0)) {
            throw new IllegalArgumentException("no latency to measure: " + count + " events at " + eventsPerSecond
                    + " events/s");
        }
        ConcurrentLinkedQueue<Probe> produced = new ConcurrentLinkedQueue<>();
        List<Double> latencies = java.util.Collections.synchronizedList(new ArrayList<>());
        long every = Math.max(1, Math.round(eventsPerSecond / PROBES_PER_SECOND));
        IOException[] failure = new IOException[1];
        boolean[] done = new boolean[1];
        long[] startNanos = {System.nanoTime()};
        java.util.concurrent.ConcurrentSkipListMap<Long, List<Double>> windows = new java.util.concurrent.ConcurrentSkipListMap<>();
        Thread prober = new Thread(() -> {
            List<Probe> outstanding = new ArrayList<>();
            try {
                while (true) {
                    for (Probe probe = produced.poll(); probe != null; probe = produced.poll()) {
                        outstanding.add(probe);
                    }
                    synchronized (done) {
                        if (done[0] && outstanding.isEmpty() && produced.isEmpty()) {
                            return;
                        }
                    }
                    if (!outstanding.isEmpty()) {
                        List<Get> gets = new ArrayList<>(outstanding.size());
                        for (Probe probe : outstanding) {
                            gets.add(new Get(probe.dataRow()).setCheckExistenceOnly(true));
                        }
                        boolean[] exists = dataTable.exists(gets);
                        long now = System.nanoTime();
                        Iterator<Probe> it = outstanding.iterator();
                        for (int i = 0; it.hasNext(); i++) {
                            Probe probe = it.next();
                            if (exists[i]) {
                                latencies.add((now - probe.producedNanos()) / 1e6);
                                windows.computeIfAbsent((probe.producedNanos() - startNanos[0]) / WINDOW_NANOS,
                                        w -> java.util.Collections.synchronizedList(new ArrayList<>()))
                                        .add((now - probe.producedNanos()) / 1e6);
                                it.remove();
                            }
                        }
                    }
                    LockSupport.parkNanos(Math.max(TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS),
                            TimeUnit.MICROSECONDS.toNanos(POLL_MICROS_PER_PROBE * outstanding.size())));
                }
            } catch (IOException e) {
                failure[0] = e;
            }
        }, "visibility-prober");
        prober.setDaemon(true);
        prober.start();

        long start = startNanos[0];
        double nanosPerEvent = 1e9 / eventsPerSecond;
        for (long i = 0; i < count; i++) {
            long due = start + (long) (i * nanosPerEvent);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            LogEvent event = generator.next();
            if (i % every == 0) {
                produced.add(new Probe(dataRowOf(rows, event), System.nanoTime()));
            }
            producer.send(event);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        producer.flush();
        synchronized (done) {
            done[0] = true;
        }
        prober.join(timeout.toMillis());
        if (failure[0] != null) {
            throw failure[0];
        }
        if (prober.isAlive()) {
            prober.interrupt();
            throw new IllegalStateException("probes not readable within " + timeout + ": only " + latencies.size()
                    + " of " + (count + every - 1) / every + " seen");
        }
        List<String> byWindow = new ArrayList<>();
        windows.forEach((window, values) -> {
            List<Double> inWindow = new ArrayList<>(values);
            inWindow.sort(null);
            byWindow.add(String.format("%d-%d s: p50 %.0f p99 %.0f", window * 5, window * 5 + 5,
                    percentile(inWindow, 50), percentile(inWindow, 99)));
        });
        List<Double> sorted = new ArrayList<>(latencies);
        sorted.sort(null);
        return new Result(round1(count / seconds), round1(seconds), sorted.size(), round1(percentile(sorted, 50)),
                round1(percentile(sorted, 99)), round1(sorted.get(sorted.size() - 1)), byWindow, 0);
    }

    private static byte[] dataRowOf(LogEventRows rows, LogEvent event) {
        for (Row row : rows.rowsOf(event)) {
            if (row.table().equals(TableRole.LOG_DATA)) {
                return row.key();
            }
        }
        throw new IllegalStateException("no data row for " + event);
    }

    /** Nearest-rank percentile of sorted values. */
    static double percentile(List<Double> sorted, double percent) {
        int rank = (int) Math.ceil(percent / 100 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    private static double round1(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
