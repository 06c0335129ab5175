package dev.rowflow.embedded;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A region observer that makes writes to chosen tables slow or holds them until released: the
 * server side of "HBase is slow" and "a send is in flight" for fault tests. It runs inside the
 * mini cluster's region server, which shares this JVM, so tests steer it through static state.
 * Installed on a table by {@link EmbeddedHBase#injectWriteFaults(TableName)}; without a fault
 * set for its table it only counts batches, and the increments among their mutations that ask for
 * their result (HBase may answer those from a request buffer already released: HeapRequestBuffers).
 */
public final class WriteFaults implements RegionCoprocessor, RegionObserver {
    private static final Map<TableName, Duration> LATENCY = new ConcurrentHashMap<>();
    private static final Map<TableName, CountDownLatch> HOLDS = new ConcurrentHashMap<>();
    private static final Map<TableName, AtomicLong> BATCHES = new ConcurrentHashMap<>();
    private static final Map<TableName, AtomicLong> INCREMENTS = new ConcurrentHashMap<>();
    private static final Map<TableName, AtomicLong> RESULTS_ASKED = new ConcurrentHashMap<>();

    @Override
    public Optional<RegionObserver> getRegionObserver() {
        return Optional.of(this);
    }

    @Override
    public void preBatchMutate(ObserverContext<RegionCoprocessorEnvironment> context,
                               MiniBatchOperationInProgress<Mutation> batch) throws IOException {
        TableName table = context.getEnvironment().getRegionInfo().getTable();
        BATCHES.computeIfAbsent(table, t -> new AtomicLong()).incrementAndGet();
        for (int i = 0; i < batch.size(); i++) {
            if (batch.getOperation(i) instanceof Increment increment) {
                INCREMENTS.computeIfAbsent(table, t -> new AtomicLong()).incrementAndGet();
                if (increment.isReturnResults()) {
                    RESULTS_ASKED.computeIfAbsent(table, t -> new AtomicLong()).incrementAndGet();
                }
            }
        }
        try {
            CountDownLatch hold = HOLDS.get(table);
            if (hold != null) {
                hold.await();
            }
            Duration latency = LATENCY.get(table);
            if (latency != null) {
                Thread.sleep(latency.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("write fault interrupted");
        }
    }

    /** Every write batch to {@code table} waits {@code latency} before it is applied. */
    public static void slow(TableName table, Duration latency) {
        LATENCY.put(table, latency);
    }

    /** Writes to {@code table} are held until {@link #release}. */
    public static void hold(TableName table) {
        HOLDS.put(table, new CountDownLatch(1));
    }

    /** Lets held writes to {@code table} through and clears its latency. */
    public static void release(TableName table) {
        LATENCY.remove(table);
        CountDownLatch hold = HOLDS.remove(table);
        if (hold != null) {
            hold.countDown();
        }
    }

    /** Increments that have reached {@code table}'s regions; {@code askingResults}: of those, the ones asking for their result. */
    public static long increments(TableName table, boolean askingResults) {
        AtomicLong increments = (askingResults ? RESULTS_ASKED : INCREMENTS).get(table);
        return increments == null ? 0 : increments.get();
    }

    /** Write batches that have reached {@code table}'s regions (held ones included). */
    public static long batches(TableName table) {
        AtomicLong batches = BATCHES.get(table);
        return batches == null ? 0 : batches.get();
    }
}
