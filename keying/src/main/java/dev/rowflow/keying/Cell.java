package dev.rowflow.keying;

import java.util.Arrays;
import java.util.Objects;

/**
 * One column value of a {@link Row}: family, qualifier and value bytes. The cell timestamp is the
 * row's, so all cells an event writes carry its event time.
 */
public final class Cell {
    /**
     * The text a change event carries for a column whose value it does not have:
     * Debezium's {@code unavailable.value.placeholder} default, sent for a PostgreSQL column stored
     * out of line (TOAST) that the change left as it was. A replacing row's cell of this value
     * keeps the stored cell's value (and is written with none where nothing is stored): it is never
     * written as a value.
     */
    public static final String UNAVAILABLE = "__debezium_unavailable_value";

    private static final byte[] UNAVAILABLE_BYTES = UNAVAILABLE.getBytes(java.nio.charset.StandardCharsets.UTF_8);

    private final byte[] family;
    private final byte[] qualifier;
    private final byte[] value;

    public Cell(byte[] family, byte[] qualifier, byte[] value) {
        this.family = Objects.requireNonNull(family, "family");
        this.qualifier = Objects.requireNonNull(qualifier, "qualifier");
        this.value = Objects.requireNonNull(value, "value");
    }

    /** Whether the value is {@link #UNAVAILABLE}: the change did not carry it. */
    public boolean unavailable() {
        return Arrays.equals(value, UNAVAILABLE_BYTES);
    }

    public byte[] family() {
        return family;
    }

    public byte[] qualifier() {
        return qualifier;
    }

    public byte[] value() {
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cell c
                && Arrays.equals(family, c.family)
                && Arrays.equals(qualifier, c.qualifier)
                && Arrays.equals(value, c.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(family), Arrays.hashCode(qualifier), Arrays.hashCode(value));
    }

    @Override
    public String toString() {
        return KeyBytes.toStringBinary(family) + ":" + KeyBytes.toStringBinary(qualifier) + "="
                + KeyBytes.toStringBinary(value);
    }
}
