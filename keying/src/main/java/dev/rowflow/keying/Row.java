package dev.rowflow.keying;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What one event writes to one table: the row key, the cells, and the cell timestamp (the event
 * time). Because key and timestamp are functions of the event, writing the same event twice
 * rewrites the same cells instead of adding a row or a version.
 */
public final class Row {
    private final TableRole table;
    private final byte[] key;
    private final long timestamp;
    private final List<Cell> cells;
    private final long ttlMillis;

    public Row(TableRole table, byte[] key, long timestamp, List<Cell> cells) {
        this(table, key, timestamp, cells, 0);
    }

    /**
     * @param ttlMillis the cells' own TTL ({@code Mutation#setTTL}, counted from the timestamp;
     *                  the family's TTL still applies), 0 for the table's
     */
    public Row(TableRole table, byte[] key, long timestamp, List<Cell> cells, long ttlMillis) {
        this.ttlMillis = ttlMillis;
        this.table = Objects.requireNonNull(table, "table");
        this.key = Objects.requireNonNull(key, "key");
        this.timestamp = timestamp;
        this.cells = List.copyOf(cells);
        if (this.cells.isEmpty()) {
            throw new IllegalArgumentException("a row needs at least one cell: " + this);
        }
    }

    public TableRole table() {
        return table;
    }

    public byte[] key() {
        return key;
    }

    public long timestamp() {
        return timestamp;
    }

    public List<Cell> cells() {
        return cells;
    }

    /** The cells' own TTL in ms, or 0 for the table's. */
    public long ttlMillis() {
        return ttlMillis;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Row r
                && table == r.table
                && timestamp == r.timestamp
                && ttlMillis == r.ttlMillis
                && Arrays.equals(key, r.key)
                && cells.equals(r.cells);
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, Arrays.hashCode(key), timestamp, cells);
    }

    @Override
    public String toString() {
        return table + "[" + KeyBytes.toStringBinary(key) + "@" + timestamp + "]" + cells;
    }
}
