package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.TableRole;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A table's {@link RowSender} that owns its batches: Puts are gathered into batches of
 * {@code batchBytes} and each full batch goes out at once through {@link AsyncTable#batch}, with
 * several batches in flight -- up to {@code maxInFlightBytes} of rows sent and not yet
 * acknowledged. HBase's async client groups a batch by region server and region and sends one
 * request per server; unlike a {@code BufferedMutator} (one batch at a time from its buffer, at
 * most {@code hbase.client.max.perserver.tasks} per server) nothing but the byte bound limits how
 * many are on their way, and no Put is sized again: its size is the row's, computed once.
 *
 * <p><b>Invariants.</b>
 * <ul>
 *   <li><i>Bounded.</i> Bytes taken and not yet acknowledged never exceed
 *       {@code maxInFlightBytes + batchBytes} plus one row: a batch goes out only when it fits
 *       under the bound, else the sending thread waits for acknowledgements.</li>
 *   <li><i>A flush waits for every row taken before it.</i> {@link #flush} sends the open batch and
 *       waits for every batch sent before it returns -- the flush-before-commit contract.</li>
 *   <li><i>Never swallowed.</i> Actions the store refused after the client's retries reach the
 *       failure consumer as one {@link RetriesExhaustedWithDetailsException} per batch, counted in
 *       {@code rowflow.sink.failed.mutations}; acknowledged rows are counted in
 *       {@code rowflow.sink.sent.rows} as their batch completes.</li>
 *   <li><i>No row waits longer than the period.</i> The sink's timer sends an open batch whose
 *       first row was taken {@code periodMillis} ago.</li>
 * </ul>
 * The stream thread and the sink's timer take {@code this} to touch the open batch; completions
 * (on the client's threads) take only {@link #inFlight}'s monitor.
 */
final class BatchSender implements RowSender {
    private final TableRole role;
    private final AsyncTable<?> table;
    private final long batchBytes;
    private final long maxInFlightBytes;
    private final long periodNanos;
    private final SinkMetrics metrics;
    private final Consumer<RetriesExhaustedWithDetailsException> failures;
    private final ScheduledFuture<?> timer;

    /** The open batch, under {@code this}. */
    private List<Put> batch = new ArrayList<>();
    private long openBytes;
    private long openedAt;

    /** Batches sent and not yet complete, oldest first; their bytes. Under its own monitor. */
    private final Deque<CompletableFuture<Void>> inFlight = new ArrayDeque<>();
    private long inFlightBytes;

    /**
     * @param periodMillis longest time a row waits in the open batch; 0 for no timer (sent when
     *                     full or at a flush)
     * @param timers       the sink's timer thread, which checks the open batch four times a period
     */
    BatchSender(TableRole role, AsyncConnection connection, TableDefinition definition, long maxInFlightBytes,
                long periodMillis, ScheduledExecutorService timers, SinkMetrics metrics,
                Consumer<RetriesExhaustedWithDetailsException> failures) {
        this.role = role;
        this.table = connection.getTable(definition.name());
        this.maxInFlightBytes = Math.max(1, maxInFlightBytes);
        this.batchBytes = Math.max(1, maxInFlightBytes / BATCHES_IN_FLIGHT);
        this.periodNanos = TimeUnit.MILLISECONDS.toNanos(periodMillis);
        this.metrics = metrics;
        this.failures = failures;
        long check = Math.max(1, periodMillis / 4);
        this.timer = periodMillis > 0
                ? timers.scheduleWithFixedDelay(this::sendIfDue, check, check, TimeUnit.MILLISECONDS) : null;
    }

    /** Batches of a table that fit in its bound at once: enough to keep the region server's handlers busy. */
    static final int BATCHES_IN_FLIGHT = 4;

    @Override
    public synchronized void send(Put put, long bytes) throws IOException {
        if (batch.isEmpty()) {
            openedAt = System.nanoTime();
        }
        batch.add(put);
        openBytes += bytes;
        if (openBytes >= batchBytes) {
            sendOpen();
        }
    }

    /** The timer's: sends the open batch once its first row has waited a period. */
    private synchronized void sendIfDue() {
        if (!batch.isEmpty() && System.nanoTime() - openedAt >= periodNanos) {
            try {
                sendOpen();
            } catch (IOException e) {
                // Interrupted while waiting for room: the stream thread sends it at its next write or flush.
            }
        }
    }

    /** Under {@code this}: waits for room, then sends the open batch. */
    private void sendOpen() throws IOException {
        if (batch.isEmpty()) {
            return;
        }
        List<Put> sending = batch;
        long bytes = openBytes;
        CompletableFuture<Void> done = new CompletableFuture<>();
        synchronized (inFlight) {
            // At least one batch may always go: a single batch above the bound must not wait forever.
            while (inFlightBytes > 0 && inFlightBytes + bytes > maxInFlightBytes) {
                try {
                    inFlight.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting for room to send rows of " + role);
                }
            }
            inFlightBytes += bytes;
            inFlight.addLast(done);
        }
        batch = new ArrayList<>(sending.size());
        openBytes = 0;
        List<CompletableFuture<Void>> acks;
        try {
            acks = table.batch(sending);
        } catch (RuntimeException e) {
            acks = new ArrayList<>(sending.size());
            for (int i = 0; i < sending.size(); i++) {
                acks.add(CompletableFuture.failedFuture(e));
            }
        }
        List<CompletableFuture<Void>> sent = acks;
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new))
                .whenComplete((ignored, error) -> completed(sending, sent, bytes, done));
    }

    /**
     * On the client's thread once every action of a batch is complete: counts it, reports what
     * was refused, frees its room, and only then completes {@code done} (what a flush waits for).
     */
    private void completed(List<Put> sent, List<CompletableFuture<Void>> acks, long bytes,
                           CompletableFuture<Void> done) {
        try {
            List<Throwable> errors = null;
            List<Row> refused = null;
            List<String> servers = null;
            for (int i = 0; i < acks.size(); i++) {
                if (acks.get(i).isCompletedExceptionally()) {
                    if (errors == null) {
                        errors = new ArrayList<>();
                        refused = new ArrayList<>();
                        servers = new ArrayList<>();
                    }
                    errors.add(cause(acks.get(i)));
                    refused.add(sent.get(i));
                    servers.add("");
                }
            }
            int failed = errors == null ? 0 : errors.size();
            if (failed < sent.size()) {
                metrics.rowsSent(role, sent.size() - failed);
            }
            if (errors != null) {
                metrics.mutationsFailed(role, failed);
                failures.accept(new RetriesExhaustedWithDetailsException(errors, refused, servers));
            }
        } finally {
            synchronized (inFlight) {
                inFlightBytes -= bytes;
                inFlight.remove(done);
                inFlight.notifyAll();
            }
            done.complete(null);
        }
    }

    private static Throwable cause(CompletableFuture<Void> ack) {
        try {
            ack.join();
            throw new IllegalStateException("not failed");
        } catch (CompletionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            // The async client wraps the region server's answer (say NoSuchColumnFamilyException);
            // the summary names only the outer class, so keep the answer itself.
            return cause instanceof org.apache.hadoop.hbase.client.RetriesExhaustedException && cause.getCause() != null
                    ? cause.getCause() : cause;
        } catch (java.util.concurrent.CancellationException e) {
            return e;
        }
    }

    @Override
    public void flush() throws IOException {
        List<CompletableFuture<Void>> waiting;
        synchronized (this) {
            sendOpen();
            synchronized (inFlight) {
                waiting = new ArrayList<>(inFlight);
            }
        }
        for (CompletableFuture<Void> batch : waiting) {
            try {
                batch.get(); // completed normally always: failures went to the failure consumer
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for rows of " + role + " to be acknowledged");
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Override
    public void stopSending() {
        if (timer != null) {
            timer.cancel(false);
        }
    }

    @Override
    public void close() throws IOException {
        flush();
    }
}
