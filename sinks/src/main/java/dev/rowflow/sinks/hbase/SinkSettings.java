package dev.rowflow.sinks.hbase;

/**
 * Buffering of one {@link HBaseRowSink}. A value of 0 means "inherit from hbase-site.xml"
 * ({@code hbase.client.write.buffer}, {@code hbase.client.write.buffer.periodicflush.timeout.ms}).
 *
 * @param writeBufferBytes     bytes buffered per table before the mutator sends them
 * @param periodicFlushMillis  longest time a row waits in the buffer before it is sent; sending is
 *                             not committing: only {@link HBaseRowSink#flush()} marks rows durable
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
