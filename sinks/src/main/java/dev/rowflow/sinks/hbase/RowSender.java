package dev.rowflow.sinks.hbase;

import org.apache.hadoop.hbase.client.Put;

import java.io.IOException;

/**
 * How one table's rows reach the store, for the stream thread of one {@link HBaseRowSink}. Sending
 * overlaps writing: {@link #send} returns once the Put is taken, not once it is stored. A failure
 * to store a row is given to the sink's failure consumer (the sink throws it at its next write or
 * flush); it is never swallowed.
 */
interface RowSender {

    /**
     * Takes a row's Put, whose estimated heap size is {@code bytes} (computed once, from the row).
     * Waits while the table's rows not yet acknowledged are at their bound: the back pressure that
     * bounds memory when the store is slow.
     */
    void send(Put put, long bytes) throws IOException;

    /**
     * Returns once every Put taken before is acknowledged or its failure has reached the sink's
     * failure consumer; throws only what keeps it from waiting.
     */
    void flush() throws IOException;

    /** Stops sending in the background once a send in progress has finished. */
    void stopSending();

    /** Sends what is still held, waits for it and lets go of the table. */
    void close() throws IOException;
}
