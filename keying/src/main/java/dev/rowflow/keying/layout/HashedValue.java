package dev.rowflow.keying.layout;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * What decoding a hashed key part gives back: the hash, not the value (seed 002, 1.11.1.4 --
 * keep the raw value as a column when it must be read back).
 */
public record HashedValue(byte[] hash) {
    @Override
    public boolean equals(Object o) {
        return o instanceof HashedValue h && Arrays.equals(hash, h.hash);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(hash);
    }

    @Override
    public String toString() {
        return "md5:" + HexFormat.of().formatHex(hash);
    }
}
