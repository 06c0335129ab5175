package dev.rowflow.keying.layout;

import dev.rowflow.keying.KeyBytes;

import java.util.Arrays;

/**
 * A scan range of row keys: {@code start} inclusive, {@code stop} exclusive; an empty stop means
 * the end of the table.
 */
public record KeyRange(byte[] start, byte[] stop) {

    /** Whether {@code key} falls in this range. */
    public boolean contains(byte[] key) {
        return Arrays.compareUnsigned(key, start) >= 0 && (stop.length == 0 || Arrays.compareUnsigned(key, stop) < 0);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyRange r && Arrays.equals(start, r.start) && Arrays.equals(stop, r.stop);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(start) + Arrays.hashCode(stop);
    }

    @Override
    public String toString() {
        return "[" + KeyBytes.toStringBinary(start) + ", " + (stop.length == 0 ? "end" : KeyBytes.toStringBinary(stop)) + ")";
    }
}
