package dev.rowflow.sinks;

import dev.rowflow.keying.Counter;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.mapping.EventMapping;

import java.io.IOException;
import java.util.List;

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
     * Replaces data row {@code rows.get(0)} of {@code table} and its index rows with {@code rows}
     * (the data row, then index rows of {@code mapping}): afterwards the row has exactly the cells
     * of the new data row, and of the index rows the row had before (keys rebuilt from it as
     * {@link EventMapping#indexRowOf} does) only those {@code rows} has. Ordered with the sink's
     * other writes and deletes as they were called; a row written after it survives it, even in the
     * same millisecond. A sink may hold replaces and deletes back to apply several together; they
     * are applied by the next {@link #write} or {@link #flush()} at the latest.
     *
     * @param prior the row before the change: read from the store, or as the source says it was
     */
    void replace(TableRole table, List<Row> rows, EventMapping mapping, Prior prior) throws IOException;

    /**
     * Deletes data row {@code key} of {@code table} and the row each index of {@code mapping} has
     * for it, the index keys rebuilt from the data row as it was ({@link EventMapping#indexRowOf}).
     * Ordered and applied as {@link #replace} is: index rows first, then the data row, so a delete
     * cut short is completed by doing it again (a replay), and a delete of a row that is gone
     * changes nothing.
     *
     * @param outcome told, when the delete is applied, whether there was a data row to delete
     */
    void delete(TableRole table, byte[] key, EventMapping mapping, Prior prior, DeleteOutcome outcome)
            throws IOException;

    /** What a {@link #delete} found. */
    @FunctionalInterface
    interface DeleteOutcome {
        /** @param found whether there was a row to delete (false: already deleted, or never written) */
        void applied(boolean found);
    }

    /**
     * A data row as it was before a change. {@link #STORED}: as the store has it, which the sink
     * reads. Otherwise as the source of the change says: {@link #NONE} (a row created), or
     * {@link #of} the data row the mapping makes of the source's image of the row before the
     * change -- which the sink takes for the stored row without reading it, so the image must be
     * whole (a database logging every column's old value).
     *
     * @param row the data row before the change, null for none or for {@link #STORED}
     */
    record Prior(Row row, boolean stored) {
        /** The row as the store has it: the sink reads it. */
        public static final Prior STORED = new Prior(null, true);
        /** No row before the change. */
        public static final Prior NONE = new Prior(null, false);

        /** The row before the change was {@code row}. */
        public static Prior of(Row row) {
            return new Prior(java.util.Objects.requireNonNull(row, "row"), false);
        }
    }

    /** Sends every buffered row and waits until the store has acknowledged each one. */
    void flush() throws IOException;

    /** Flushes, then releases the sink's resources. */
    @Override
    void close() throws IOException;
}
