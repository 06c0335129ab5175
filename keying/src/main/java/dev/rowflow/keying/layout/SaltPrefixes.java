package dev.rowflow.keying.layout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The prefix space of a salt kind: every prefix it writes, enumerated in byte order for a read
 * its query does not pin (the scan fan-out), and cut into region split points for a new table.
 * How one key's prefix is computed from its parts is the salt's own ({@link Salt}); this is the
 * arithmetic over all the prefixes it can write, apart from it so that reads and pre-splits
 * change in one place.
 *
 * <p>The spaces here are the prefixes of {@link Salt}'s kinds, on disk in every table rowflow
 * wrote: one byte {@code 0..N-1} for {@code bucket(N)}, {@code W} lowercase ASCII hex digits for
 * {@code hex(W)}, {@code W} raw bytes for {@code bin(W)}, none without a salt. Change them only
 * with the salts.
 */
sealed interface SaltPrefixes {

    /**
     * Every prefix, in byte order.
     *
     * @param spec the salt's spec, naming it in the refusal
     * @throws IllegalArgumentException for more than {@link Salt#MAX_FAN_OUT} prefixes
     */
    List<byte[]> all(String spec);

    /** See {@link Salt#splitPoints}; {@code spec} names the salt in a refusal. */
    Optional<List<byte[]>> splitPoints(int regions, String spec);

    /** The regions a new table starts with; 0 where the salt spreads nothing. */
    int defaultRegions();

    /** No salt: the one empty prefix; the leading part decides the splits. */
    record Empty() implements SaltPrefixes {
        @Override
        public List<byte[]> all(String spec) {
            return List.of(new byte[0]);
        }

        @Override
        public Optional<List<byte[]>> splitPoints(int regions, String spec) {
            return Optional.empty();
        }

        @Override
        public int defaultRegions() {
            return 0;
        }
    }

    /** {@code bucket(N)}: the N one-byte buckets; split on bucket boundaries, one region per bucket at most. */
    record Buckets(int buckets) implements SaltPrefixes {
        @Override
        public List<byte[]> all(String spec) {
            List<byte[]> all = new ArrayList<>(buckets);
            for (int b = 0; b < buckets; b++) {
                all.add(new byte[] {(byte) b});
            }
            return all;
        }

        @Override
        public Optional<List<byte[]>> splitPoints(int regions, String spec) {
            if (regions > buckets) {
                throw new IllegalArgumentException(regions + " regions over " + buckets
                        + " buckets would leave regions empty: at most one region per bucket");
            }
            List<byte[]> splits = new ArrayList<>();
            for (int i = 1; i < regions; i++) {
                splits.add(new byte[] {(byte) ((long) i * buckets / regions)});
            }
            return Optional.of(splits);
        }

        @Override
        public int defaultRegions() {
            return buckets;
        }
    }

    /** {@code hex(W)}: the {@code 16^W} strings of W lowercase hex digits, as ASCII. */
    record HexDigits(int width) implements SaltPrefixes {
        @Override
        public List<byte[]> all(String spec) {
            long count = 1L << (4 * width);
            checkFanOut(count, spec);
            List<byte[]> all = new ArrayList<>((int) count);
            for (long i = 0; i < count; i++) {
                all.add(hexDigits(i));
            }
            return all;
        }

        @Override
        public Optional<List<byte[]>> splitPoints(int regions, String spec) {
            // Over the hex digits, not Bytes.split over raw bytes: that leaves the regions between
            // '9' and 'a' empty (seed 002, 1.3.6).
            long space = 1L << (4 * width);
            checkRegions(regions, space, spec);
            List<byte[]> splits = new ArrayList<>();
            for (int i = 1; i < regions; i++) {
                splits.add(hexDigits(i * space / regions));
            }
            return Optional.of(splits);
        }

        @Override
        public int defaultRegions() {
            return 16;
        }

        /** The last {@code W} lowercase hex digits of {@code value}, as ASCII. */
        private byte[] hexDigits(long value) {
            String digits = HexFormat.of().toHexDigits(value);
            return digits.substring(digits.length() - width).getBytes(StandardCharsets.US_ASCII);
        }
    }

    /** {@code bin(W)}: the {@code 256^W} strings of W bytes; split evenly over them. */
    record RawBytes(int width) implements SaltPrefixes {
        @Override
        public List<byte[]> all(String spec) {
            long count = 1L << (8 * width);
            checkFanOut(count, spec);
            List<byte[]> all = new ArrayList<>((int) count);
            for (long i = 0; i < count; i++) {
                all.add(bigEndian(i, width));
            }
            return all;
        }

        @Override
        public Optional<List<byte[]>> splitPoints(int regions, String spec) {
            return Optional.of(evenSplits(regions, width, spec));
        }

        @Override
        public int defaultRegions() {
            return 16;
        }
    }

    private static void checkFanOut(long count, String spec) {
        if (count > Salt.MAX_FAN_OUT) {
            throw new IllegalArgumentException("a range over a " + spec + " salt needs " + count
                    + " scans (more than " + Salt.MAX_FAN_OUT + "): hashing the whole key makes ranges unscannable "
                    + "(seed 000); use bucket(N) or a partial-key salt for range reads");
        }
    }

    /**
     * {@code regions - 1} boundaries evenly over the {@code 256^width} prefixes of {@code width}
     * bytes: for a binary salt, and for a key that leads with a digest part.
     *
     * @param what names the prefixes in the message if there are fewer than regions
     */
    static List<byte[]> evenSplits(int regions, int width, String what) {
        long space = 1L << (8 * width);
        checkRegions(regions, space, what);
        List<byte[]> splits = new ArrayList<>();
        for (int i = 1; i < regions; i++) {
            splits.add(bigEndian(i * space / regions, width));
        }
        return splits;
    }

    private static void checkRegions(int regions, long space, String what) {
        if (regions > space) {
            throw new IllegalArgumentException(regions + " regions exceed the " + space + " prefixes of " + what);
        }
    }

    private static byte[] bigEndian(long value, int width) {
        byte[] bytes = new byte[width];
        for (int i = width - 1; i >= 0; i--) {
            bytes[i] = (byte) value;
            value >>>= 8;
        }
        return bytes;
    }
}
