package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.TableRole;
import org.apache.hadoop.hbase.client.BufferedMutator;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One table's sender: a thread that sends what the stream thread wrote into the table's
 * {@link BufferedMutator} while the stream thread goes on writing.
 *
 * <p><b>When it sends.</b> When half the write buffer ({@code wakeBytes}) waits; when rows wait
 * and the stream thread has written nothing for {@link #PAUSE_NANOS} (a burst is over: the topic
 * drained, or light traffic); or when rows wait and {@code periodMillis} has passed since its last
 * send began. Under load the stream thread writes without pause and sends stay half a buffer large:
 * smaller ones cost the client and the region server more per row. With nothing to send the thread
 * sleeps until the stream thread's next row wakes it (a quiet pipeline costs no CPU). The stream
 * thread itself sends (and waits) only when the whole buffer is full before the sender took it: the
 * back pressure that bounds memory when HBase is slow.
 *
 * <p><b>Invariants.</b>
 * <ul>
 *   <li><i>One writer per counter.</i> Only the stream thread calls {@link #written}: it alone
 *       adds to {@code writtenBytes} and {@code writtenRows} (with release semantics, so the sender
 *       sees every row the mutator holds when it reads them).</li>
 *   <li><i>A flush waits for every row written before it.</i> {@code BufferedMutator.flush()} waits
 *       only for the rows it takes from the buffer itself; a concurrent {@code flush()} finds the
 *       buffer empty and returns while another thread's rows are still on their way. So the
 *       sender's {@link #send} and the commit's {@link #flushAll} take the same lock
 *       ({@code sending}): {@code flushAll} returns only after the send in progress and its own
 *       have been acknowledged, or their failure reached the sink's listener.</li>
 *   <li><i>Sent means acknowledged.</i> {@code sentRows} grows only after a flush returned with
 *       no failure recorded ({@code failed} false); a failure is thrown by the sink at its next
 *       write or flush, never swallowed here.</li>
 *   <li><i>Stopping drains.</i> {@link #stopSending} lets a send in progress finish (or fail into
 *       the listener) before the mutator is closed.</li>
 * </ul>
 */
final class TableSender extends Thread {
    private final TableRole role;
    private final BufferedMutator mutator;
    private final long wakeBytes;
    private final long periodNanos;
    private final BooleanSupplier failed;
    private final SinkMetrics metrics;
    /** Held while rows are on their way: by this sender and by {@link #flushAll}. */
    private final Object sending = new Object();
    /** Longest sleep with nothing to send, whatever the period: bounds the wait of a row whose wake-up was missed. */
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /** How long the stream thread writes nothing before its rows count as a finished burst. */
    static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** Estimated bytes of the rows written so far (the stream thread's, single writer). */
    private final AtomicLong writtenBytes = new AtomicLong();
    /** Rows written so far (the stream thread's, single writer). */
    private final AtomicLong writtenRows = new AtomicLong();
    /** Of those, sent and acknowledged; under {@link #sending}. */
    private long sentRows;
    /** The bytes written before the last send that succeeded: what the stream thread compares with. */
    private volatile long sentBytes;
    /** Set by the stream thread when it wakes the sender, cleared by the send it woke. */
    private volatile boolean waking;
    /** Set by the sender while it sleeps with nothing to send; the next row written wakes it. */
    private volatile boolean idle;
    private volatile boolean stopped;

    /**
     * @param failed whether the sink holds a send failure not yet thrown (then nothing more counts as sent)
     */
    TableSender(TableRole role, BufferedMutator mutator, long wakeBytes, long periodMillis, BooleanSupplier failed,
                SinkMetrics metrics, String name) {
        super(name);
        setDaemon(true);
        this.role = role;
        this.mutator = mutator;
        this.wakeBytes = Math.max(1, wakeBytes);
        this.periodNanos = TimeUnit.MILLISECONDS.toNanos(periodMillis);
        this.failed = failed;
        this.metrics = metrics;
    }

    /** Counts a row the stream thread gave the mutator; wakes the sender at half a buffer. */
    void written(long bytes) {
        long written = writtenBytes.get() + bytes;
        writtenBytes.lazySet(written);
        writtenRows.lazySet(writtenRows.get() + 1);
        if (written - sentBytes >= wakeBytes && !waking) {
            waking = true;
            LockSupport.unpark(this);
        } else if (idle) {
            idle = false;
            LockSupport.unpark(this);
        }
    }

    @Override
    public void run() {
        long lastSend = System.nanoTime();
        // Rows the last send took (sent or failed): nothing written since means nothing to send.
        long taken = 0;
        // Rows written when the sender last looked, PAUSE_NANOS ago; -1: it has not looked since its send.
        long seen = -1;
        while (!stopped) {
            long rows = writtenRows.get();
            if (rows == taken) {
                // Asleep until a row comes. The stream thread's row count is a lazy store, so it
                // can miss that the sender went to sleep: the timeout bounds that rare wait.
                idle = true;
                if (writtenRows.get() == taken && !stopped) {
                    LockSupport.parkNanos(this, IDLE_NANOS);
                }
                idle = false;
                continue;
            }
            long wait = lastSend + periodNanos - System.nanoTime();
            // The stream thread wrote nothing since the last look: its burst is over (the topic is
            // drained, or a light trickle), so its rows go now rather than at the period. Under load
            // it writes between every look, and sends stay half a buffer large.
            boolean paused = rows == seen;
            if (wait > 0 && !paused && writtenBytes.get() - sentBytes < wakeBytes) {
                seen = rows;
                LockSupport.parkNanos(this, Math.min(wait, PAUSE_NANOS));
                continue;
            }
            // Measured from the start of the send, so no row waits more than a period for the next one.
            lastSend = System.nanoTime();
            taken = rows;
            seen = -1;
            send();
        }
    }

    /**
     * Sends every row written so far and waits for them. A failure reaches the listener and so
     * the sink's next write or flush; until then nothing more is counted as sent.
     */
    void send() {
        synchronized (sending) {
            long bytes = writtenBytes.get();
            long rows = writtenRows.get();
            waking = false;
            if (rows == sentRows) {
                sentBytes = bytes;
                return;
            }
            try {
                mutator.flush();
            } catch (IOException | RuntimeException e) {
                // The listener has the send failures; anything else shows again at the commit's flush.
                return;
            }
            acknowledged(rows, bytes);
        }
    }

    /** The commit's flush: waits for a send in progress, then sends the rest and waits for it. */
    void flushAll() throws IOException {
        synchronized (sending) {
            long bytes = writtenBytes.get();
            long rows = writtenRows.get();
            mutator.flush();
            acknowledged(rows, bytes);
        }
    }

    /** Under {@link #sending}, after a flush returned. */
    private void acknowledged(long rows, long bytes) {
        if (!failed.getAsBoolean() && rows > sentRows) {
            metrics.rowsSent(role, rows - sentRows);
            sentRows = rows;
            sentBytes = bytes;
        }
    }

    /** Stops the thread once a send in progress has finished. */
    void stopSending() {
        stopped = true;
        LockSupport.unpark(this);
        try {
            join(TimeUnit.MINUTES.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
