package dev.rowflow.sinks.hbase;

/**
 * Buffering of one {@link HBaseRowSink}.
 *
 * @param writeBufferBytes     bytes buffered per table before the mutator sends them; 0 inherits
 *                             {@code hbase.client.write.buffer}
 * @param periodicFlushMillis  longest time a row waits in the buffer before the sink's sender
 *                             thread sends it; 0 for no periodic sending. Sending is not
 *                             committing: only {@link HBaseRowSink#flush()} marks rows durable
 */
public record SinkSettings(long writeBufferBytes, long periodicFlushMillis) {
    public SinkSettings {
        if (writeBufferBytes < 0) {
            throw new IllegalArgumentException("writeBufferBytes must be >= 0, got " + writeBufferBytes);
        }
        if (periodicFlushMillis < 0) {
            throw new IllegalArgumentException("periodicFlushMillis must be >= 0, got " + periodicFlushMillis);
        }
    }
}
