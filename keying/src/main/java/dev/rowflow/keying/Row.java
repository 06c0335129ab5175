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

    public Row(TableRole table, byte[] key, long timestamp, List<Cell> cells) {
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

    @Override
    public boolean equals(Object o) {
        return o instanceof Row r
                && table == r.table
                && timestamp == r.timestamp
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
