package dev.rowflow.sinks;

import dev.rowflow.keying.Counter;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.mapping.EventMapping;

import java.io.IOException;

/**
 * Buffered destination of rows. Not thread-safe: one sink per stream thread.
 *
 * <p>Contract: a row passed to {@link #write} is durable once a later {@link #flush()} returns
 * normally. If {@code flush()} throws, some rows written since the last successful flush may be
 * missing and the caller must write them again (the pipeline does so by not committing).
 */
public interface RowSink extends AutoCloseable {

    /**
     * Checks that the store would accept {@code row} at all, before any row of its event is
     * written: an event whose rows can never be stored goes to the dead-letter topic whole instead
     * of failing (and being retried) forever.
     *
     * @throws dev.rowflow.keying.InvalidEventException naming the limit the row breaks
     */
    void check(Row row);

    /** Buffers a row; may send earlier rows when the buffer is full. */
    void write(Row row) throws IOException;

    /**
     * Adds to a counter, once per source record: {@code position} is the record's place in
     * {@code source} (an offset in a topic partition), increasing within a source. A record
     * counted before -- by a flush that succeeded before a crash -- is not counted again, so a
     * replay leaves the counter as it was. Applied at the next {@link #flush()}.
     */
    void count(Counter counter, String source, long position);

    /**
     * Deletes data row {@code key} of {@code table} and the row each index of {@code mapping} has
     * for it, the index keys rebuilt from the data row as it is stored now
     * ({@link EventMapping#indexRowOf}). What was written to the row before is stored first, so
     * the delete sees it and comes after it; a row written after survives it, even in the same
     * millisecond. Done when it returns: index rows first, then the data row, so a delete cut
     * short is completed by doing it again (a replay), and a delete of a row that is gone changes
     * nothing.
     *
     * @return whether there was a data row to delete
     */
    boolean delete(TableRole table, byte[] key, EventMapping mapping) throws IOException;

    /** Sends every buffered row and waits until the store has acknowledged each one. */
    void flush() throws IOException;

    /** Flushes, then releases the sink's resources. */
    @Override
    void close() throws IOException;
}
