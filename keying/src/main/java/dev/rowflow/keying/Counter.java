package dev.rowflow.keying;

import java.util.Objects;

/**
 * An amount to add to one counter cell (seed 002, 1.5.1 "counters"): the atomic increment HBase
 * does on the region server. Unlike a {@link Row}, adding is not idempotent by itself: the sink
 * makes it so (see {@code dev.rowflow.sinks.hbase.IdempotentCounters}).
 */
public record Counter(TableRole table, byte[] row, byte[] family, byte[] qualifier, long amount) {
    public Counter {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(row, "row");
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(qualifier, "qualifier");
    }

    @Override
    public String toString() {
        return table + "[" + KeyBytes.toStringBinary(row) + "]" + KeyBytes.toStringBinary(family) + ":"
                + KeyBytes.toStringBinary(qualifier) + "+" + amount;
    }
}
