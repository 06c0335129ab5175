package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.Counter;
import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.sinks.RowSink;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link RowSink} that keeps rows in memory and separates buffered from flushed rows, so a test
 * can tell what would be durable. For topology unit tests only; integration tests use HBase.
 */
final class InMemoryRowSink implements RowSink {
    private final List<Row> buffered = new ArrayList<>();
    private final List<Row> flushed = new ArrayList<>();
    private int flushes;
    private IOException nextFlushFailure;
    private boolean closed;

    @Override
    public void check(Row row) {
        // memory takes anything
    }

    @Override
    public void write(Row row) {
        buffered.add(row);
    }

    /** Counters as counted: source and position with each, for tests to check. */
    private final List<String> counted = new ArrayList<>();

    @Override
    public void count(Counter counter, String source, long position) {
        counted.add(counter + " " + source + "@" + position);
    }

    List<String> counted() {
        return counted;
    }

    /**
     * Flushes, then removes the flushed data row of {@code key} and the rows that point to it
     * ({@code i:r}), as HBase would after {@code RowSink#delete}; applied at once.
     */
    @Override
    public void replace(TableRole table, List<Row> rows, EventMapping mapping, Prior prior) throws IOException {
        delete(table, rows.get(0).key(), mapping, prior, found -> { });
        rows.forEach(this::write);
    }

    @Override
    public void delete(TableRole table, byte[] key, EventMapping mapping, Prior prior, DeleteOutcome outcome)
            throws IOException {
        flush();
        boolean found = flushed.removeIf(row -> row.table().equals(table) && Arrays.equals(row.key(), key));
        if (found) {
            flushed.removeIf(row -> mapping.indexTables().contains(row.table())
                    && Arrays.equals(row.cells().get(0).value(), key));
        }
        deleted.add(table + " " + KeyBytes.toStringBinary(key) + (found ? "" : " (absent)"));
        outcome.applied(found);
    }

    /** The deletes asked for, in order: table and key, and whether the row was absent. */
    private final List<String> deleted = new ArrayList<>();

    List<String> deleted() {
        return deleted;
    }

    @Override
    public void flush() throws IOException {
        flushes++;
        if (nextFlushFailure != null) {
            IOException e = nextFlushFailure;
            nextFlushFailure = null;
            throw e;
        }
        flushed.addAll(buffered);
        buffered.clear();
    }

    @Override
    public void close() throws IOException {
        flush();
        closed = true;
    }

    void failNextFlush(IOException e) {
        nextFlushFailure = e;
    }

    int flushes() {
        return flushes;
    }

    List<Row> buffered() {
        return buffered;
    }

    List<Row> flushed() {
        return flushed;
    }

    boolean closed() {
        return closed;
    }
}
