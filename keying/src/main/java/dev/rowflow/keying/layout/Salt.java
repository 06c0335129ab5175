package dev.rowflow.keying.layout;

import java.util.List;

/**
 * The prefix a layout puts in front of its key parts to spread writes over regions (seed 000
 * "salting", seed 002 1.11.1.1 "bucketing", seed 003). Always a function of the key or its fields,
 * never random or round-robin: a replayed event must land on the same row.
 */
public sealed interface Salt {

    /** Bytes of prefix. */
    int width();

    /** The spec form, e.g. {@code bucket(16)}; empty for {@link None}. */
    String spec();

    /** No prefix. */
    record None() implements Salt {
        @Override
        public int width() {
            return 0;
        }

        @Override
        public String spec() {
            return "";
        }
    }

    /**
     * One byte, the bucket {@code 0..buckets-1}:
     * <ul>
     *   <li>{@code bucket(N)}: {@code floorMod(murmur3_32(unsalted key), N)} (MurmurHash3 x86 32-bit,
     *       seed 0, as commons-codec's {@code MurmurHash3.hash32x86});</li>
     *   <li>{@code bucket(N,hash=a+b)}: the same hash over the encoded bytes of the leading parts
     *       {@code a} and {@code b} only (partial-key salt: all rows of one host in one bucket, so
     *       a host scan is one range);</li>
     *   <li>{@code bucket(N,mod=f)}: {@code floorMod(f, N)} for a numeric part {@code f}, the seeds'
     *       {@code timestamp % numBuckets}.</li>
     * </ul>
     */
    record Bucket(int buckets, List<String> hashFields, String modField) implements Salt {
        public static final int MAX_BUCKETS = 256;

        public Bucket {
            if (buckets < 1 || buckets > MAX_BUCKETS) {
                throw new IllegalArgumentException("bucket count must be in [1, 256], got " + buckets);
            }
            hashFields = List.copyOf(hashFields);
            if (modField != null && !hashFields.isEmpty()) {
                throw new IllegalArgumentException("a bucket is either hash= or mod=, not both");
            }
        }

        @Override
        public int width() {
            return 1;
        }

        @Override
        public String spec() {
            if (modField != null) {
                return "bucket(" + buckets + ",mod=" + modField + ")";
            }
            return hashFields.isEmpty() ? "bucket(" + buckets + ")"
                    : "bucket(" + buckets + ",hash=" + String.join("+", hashFields) + ")";
        }
    }

    /**
     * {@code hex(W)}: the last {@code W} lowercase hex digits of the MD5 of the unsalted key, as
     * ASCII -- the seeds' example: MD5 of {@code "1364248490"} ends in {@code ffe5}, so the key is
     * {@code ffe51364248490}. Split points are hex strings too (seed 002, 1.3.6).
     */
    record Hex(int width) implements Salt {
        public Hex {
            if (width < 1 || width > 8) {
                throw new IllegalArgumentException("hex salt width must be in [1, 8], got " + width);
            }
        }

        @Override
        public String spec() {
            return "hex(" + width + ")";
        }
    }

    /** {@code bin(W)}: the last {@code W} bytes of the MD5 of the unsalted key. */
    record Binary(int width) implements Salt {
        public Binary {
            if (width < 1 || width > 4) {
                throw new IllegalArgumentException("binary salt width must be in [1, 4], got " + width);
            }
        }

        @Override
        public String spec() {
            return "bin(" + width + ")";
        }
    }
}
