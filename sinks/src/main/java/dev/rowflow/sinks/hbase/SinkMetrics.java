package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.TableRole;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.util.Map;
import java.util.OptionalInt;

/**
 * The meters of the HBase sinks, shared by every sink of a process (one per stream thread).
 * Prometheus names: {@code rowflow_sink_rows_total{table}} rows made durable,
 * {@code rowflow_sink_sent_rows_total{table}} rows acknowledged by HBase before the commit (visible,
 * not yet durable in the sense that a crash would write them again),
 * {@code rowflow_sink_bucket_rows_total{table,bucket}} the same per salt bucket of a
 * {@code bucket(N)} layout (a hot bucket shows as a share above 1/N),
 * {@code rowflow_sink_failed_mutations_total{table}} mutations HBase refused after the client's
 * retries, {@code rowflow_sink_flush_seconds} how long a flush (at every commit) took, with
 * histogram buckets for p50/p99, {@code rowflow_sink_counter_updates_total{table}} summary
 * counter cells applied, and {@code rowflow_sink_unflushed_bytes{thread}} the bytes a stream
 * thread's sink took since its last flush returned.
 *
 * <p>Rows are counted when the flush that makes them durable returns, not when they are written
 * to the buffer: a row counted is a row in HBase.
 */
public final class SinkMetrics {
    private final MeterRegistry registry;
    private final Map<TableRole, Counter> rows = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<TableRole, Counter> sent = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<TableRole, Counter> failed = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<TableRole, Counter> counterUpdates = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<TableRole, Counter[]> bucketRows = new java.util.concurrent.ConcurrentHashMap<>();
    private final Timer flush;

    public SinkMetrics(MeterRegistry registry, Map<TableRole, TableDefinition> tables) {
        this.registry = registry;
        tables.forEach(this::add);
        this.flush = Timer.builder("rowflow.sink.flush").publishPercentileHistogram()
                .description("Time to flush the sink's buffers and counters (at every commit)").register(registry);
    }

    /**
     * Adds the meters of a table made while the pipeline runs (a topic of a {@code topic.pattern}
     * seen first); a table added before keeps its meters.
     */
    public synchronized void add(TableRole role, TableDefinition table) {
        if (rows.containsKey(role)) {
            return;
        }
        String name = table.name().getNameAsString();
        sent.put(role, Counter.builder("rowflow.sink.sent.rows").tag("table", name)
                .description("Rows sent to HBase and acknowledged, readable from then on; rows counts them "
                        + "again at the commit that makes them durable").register(registry));
        failed.put(role, Counter.builder("rowflow.sink.failed.mutations").tag("table", name)
                .description("Mutations HBase refused after the client's retries").register(registry));
        counterUpdates.put(role, Counter.builder("rowflow.sink.counter.updates").tag("table", name)
                .description("Counter cells incremented (each source record counted once)").register(registry));
        OptionalInt buckets = table.layout().salt().buckets();
        if (buckets.isPresent()) {
            Counter[] perBucket = new Counter[buckets.getAsInt()];
            for (int b = 0; b < perBucket.length; b++) {
                perBucket[b] = Counter.builder("rowflow.sink.bucket.rows").tag("table", name)
                        .tag("bucket", Integer.toString(b))
                        .description("Rows flushed per salt bucket: a hot bucket shows as a share above 1/N")
                        .register(registry);
            }
            bucketRows.put(role, perBucket);
        }
        // Last: what add checks for.
        rows.put(role, Counter.builder("rowflow.sink.rows").tag("table", name)
                .description("Rows written to HBase and flushed").register(registry));
    }

    /** Meters nobody reads, for tools and tests that do not serve metrics. */
    public static SinkMetrics none(Map<TableRole, TableDefinition> tables) {
        return new SinkMetrics(new SimpleMeterRegistry(), tables);
    }

    MeterRegistry registry() {
        return registry;
    }

    Timer flushTimer() {
        return flush;
    }

    void rowsFlushed(TableRole table, long count) {
        rows.get(table).increment(count);
    }

    void rowsSent(TableRole table, long count) {
        sent.get(table).increment(count);
    }

    /** Counts the rows of each bucket; {@code perBucket} is indexed by the bucket byte. */
    void bucketRowsFlushed(TableRole table, long[] perBucket) {
        Counter[] counters = bucketRows.get(table);
        for (int b = 0; b < perBucket.length; b++) {
            if (perBucket[b] > 0) {
                counters[b].increment(perBucket[b]);
            }
        }
    }

    boolean tracksBuckets(TableRole table) {
        return bucketRows.containsKey(table);
    }

    int buckets(TableRole table) {
        return bucketRows.get(table).length;
    }

    void mutationsFailed(TableRole table, int count) {
        failed.get(table).increment(count);
    }

    void counterUpdates(TableRole table, long count) {
        counterUpdates.get(table).increment(count);
    }
}
