package dev.rowflow.keying.layout;

import dev.rowflow.keying.KeyBytes;
import org.apache.commons.codec.digest.MurmurHash3;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The prefix a layout puts in front of its key parts to spread writes over regions (seed 000
 * "salting", seed 002 1.11.1.1 "bucketing", seed 003). Always a function of the key's parts,
 * never random or round-robin: a replayed event must land on the same row.
 *
 * <p>Each variant keeps both sides of its salt in one place, as Phoenix's {@code SaltingUtil}
 * does: how the prefix is written from the parts and read back, which prefixes a read must scan
 * (one where the query fixes the parts the salt comes from, every one otherwise), and the region
 * split points that give every region keys. {@link RowKeyLayout}, {@link ScanRanges},
 * {@link SplitPoints} and {@link ExactDecoder} ask; none of them looks at which variant it has.
 * The arithmetic over all the prefixes a variant writes (enumerating, splitting) is its
 * {@link SaltPrefixes}; walking the encoded parts, {@link EncodedParts}.
 *
 * <p>DO NOT modify the prefixes specified here: they are on disk in every table rowflow wrote.
 */
public abstract sealed class Salt permits Salt.None, Salt.Bucket, Salt.Hex, Salt.Binary {
    /** More salt prefixes than this make a range scan a table scan in disguise: refused. */
    static final int MAX_FAN_OUT = 4096;

    private Salt() {
    }

    /** Bytes of prefix. */
    public abstract int width();

    /** The spec form, e.g. {@code bucket(16)}; empty for {@link None}. */
    public abstract String spec();

    /**
     * How many buckets keys are dealt into, each named by the key's first byte: N for
     * {@code bucket(N)}; empty for the other salts (none, and the digest prefixes of {@code hex}
     * and {@code bin}, which are no buckets anyone counts or pins by hand).
     */
    public OptionalInt buckets() {
        return OptionalInt.empty();
    }

    /**
     * The bucket of a key this salt prefixed: its first byte, {@code 0..N-1}; -1 for a salt
     * without {@link #buckets()}, and for a key whose first byte is none of them (no key this
     * salt wrote).
     */
    public int bucketOf(byte[] key) {
        return -1;
    }

    @Override
    public final boolean equals(Object o) {
        // The spec is canonical and names every field of a variant: equal specs, equal salts.
        return o != null && o.getClass() == getClass() && ((Salt) o).spec().equals(spec());
    }

    @Override
    public final int hashCode() {
        return spec().hashCode();
    }

    @Override
    public final String toString() {
        return width() == 0 ? "no salt" : spec();
    }

    // ------------------------------------------------ what the layout package asks of every salt

    /**
     * Checks that the parts of a layout give this salt what it is computed from.
     *
     * @throws IllegalArgumentException saying what the salt needs of the parts
     */
    void checkFits(List<KeyPart> parts) {
    }

    /**
     * Writes the salt into {@code key[0, width())}, computed from the parts in place after it:
     * the hot path of every write, and how {@link RowKeyLayout#saltOf} recomputes a key's salt.
     */
    abstract void write(byte[] key, List<KeyPart> parts);

    /**
     * The salt of {@code key} as {@link DecodedKey#salt()} holds it.
     *
     * @throws IllegalArgumentException if this salt never writes the key's prefix
     */
    abstract Object read(byte[] key);

    /**
     * Checks that the first {@link #width()} bytes of {@code key} are a prefix this salt writes.
     *
     * @throws IllegalArgumentException starting {@code offset N:}, N the first byte it never writes
     */
    void checkExact(byte[] key) {
    }

    /**
     * The salt of every key that starts with {@code prefix}, the encoded leading {@code fixed}
     * parts of a query (no salt in front), if those parts decide it; null if they do not (the read
     * fans out over {@link #allPrefixes()}).
     */
    abstract byte[] pinnedBy(byte[] prefix, int fixed, List<KeyPart> parts);

    /** The prefixes this salt writes, as a space a read fans out over and a table is split along. */
    abstract SaltPrefixes prefixes();

    /**
     * Every prefix this salt writes, in byte order: the scans of a read it cannot pin down.
     *
     * @throws IllegalArgumentException for more than {@link #MAX_FAN_OUT} prefixes
     */
    final List<byte[]> allPrefixes() {
        return prefixes().all(spec());
    }

    /**
     * {@code regions - 1} region boundaries that give every region keys; empty if the salt spreads
     * nothing (none: the leading part decides).
     *
     * @param regions at least 1
     * @throws IllegalArgumentException for more regions than the salt has prefixes
     */
    final Optional<List<byte[]>> splitPoints(int regions) {
        return prefixes().splitPoints(regions, spec());
    }

    /** The regions a new table starts with; 0 where the salt spreads nothing. */
    final int defaultRegions() {
        return prefixes().defaultRegions();
    }

    // ---------------------------------------------------------------- variants

    /** No prefix. */
    public static final class None extends Salt {
        public None() {
        }

        @Override
        public int width() {
            return 0;
        }

        @Override
        public String spec() {
            return "";
        }

        @Override
        void write(byte[] key, List<KeyPart> parts) {
        }

        @Override
        Object read(byte[] key) {
            return null;
        }

        @Override
        byte[] pinnedBy(byte[] prefix, int fixed, List<KeyPart> parts) {
            return new byte[0];
        }

        @Override
        SaltPrefixes prefixes() {
            return new SaltPrefixes.Empty();
        }
    }

    /**
     * One byte, the bucket {@code 0..buckets-1}:
     * <ul>
     *   <li>{@code bucket(N)}: {@code floorMod(murmur3_32(unsalted key), N)} (MurmurHash3 x86 32-bit,
     *       seed 0, as commons-codec's {@code MurmurHash3.hash32x86});</li>
     *   <li>{@code bucket(N,hash=a+b)}: the same hash over the encoded bytes of the leading parts
     *       {@code a} and {@code b} only, terminators included (partial-key salt: all rows of one
     *       host in one bucket, so a host scan is one range);</li>
     *   <li>{@code bucket(N,mod=f)}: {@code floorMod(f, N)} for a numeric part {@code f}, the seeds'
     *       {@code timestamp % numBuckets}.</li>
     * </ul>
     * A read is pinned to one bucket when its query fixes the hashed parts (all of them for
     * {@code bucket(N)}) or the {@code mod} part; it fans out over the N buckets otherwise. Split
     * points fall on bucket boundaries, at most one region per bucket.
     */
    public static final class Bucket extends Salt {
        public static final int MAX_BUCKETS = 256;

        private final int buckets;
        private final List<String> hashFields;
        private final String modField;

        /**
         * @param hashFields the leading parts the hash covers; empty for all of them
         * @param modField   the numeric part whose value picks the bucket, or null to hash
         */
        public Bucket(int buckets, List<String> hashFields, String modField) {
            if (buckets < 1 || buckets > MAX_BUCKETS) {
                throw new IllegalArgumentException("bucket count must be in [1, 256], got " + buckets);
            }
            this.hashFields = List.copyOf(hashFields);
            if (modField != null && !this.hashFields.isEmpty()) {
                throw new IllegalArgumentException("a bucket is either hash= or mod=, not both");
            }
            this.buckets = buckets;
            this.modField = modField;
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

        @Override
        public OptionalInt buckets() {
            return OptionalInt.of(buckets);
        }

        @Override
        public int bucketOf(byte[] key) {
            return key.length > 0 && (key[0] & 0xFF) < buckets ? key[0] & 0xFF : -1;
        }

        @Override
        void checkFits(List<KeyPart> parts) {
            List<String> names = parts.stream().map(KeyPart::field).toList();
            if (hashFields.size() > names.size() || !names.subList(0, hashFields.size()).equals(hashFields)) {
                throw new IllegalArgumentException("hash=" + String.join("+", hashFields)
                        + " must name the leading key parts in order (" + String.join(", ", names)
                        + "): only then do the rows of one value share a bucket and form one range");
            }
            if (modField != null) {
                int mod = names.indexOf(modField);
                if (mod < 0 || parts.get(mod).encoding().textual()) {
                    throw new IllegalArgumentException("mod=" + modField + " must name a numeric key part");
                }
            }
        }

        @Override
        void write(byte[] key, List<KeyPart> parts) {
            key[0] = (byte) bucketOfParts(key, 1, key.length, parts.size(), parts);
        }

        @Override
        Object read(byte[] key) {
            int bucket = key[0] & 0xFF;
            if (bucket >= buckets) {
                throw new IllegalArgumentException("bucket " + bucket + " of key " + KeyBytes.toStringBinary(key)
                        + " is outside the " + buckets + " buckets of " + spec());
            }
            return bucket;
        }

        @Override
        void checkExact(byte[] key) {
            if ((key[0] & 0xFF) >= buckets) {
                throw new IllegalArgumentException("offset 0: bucket " + (key[0] & 0xFF) + " is not one of the "
                        + buckets + " buckets of " + spec());
            }
        }

        @Override
        byte[] pinnedBy(byte[] prefix, int fixed, List<KeyPart> parts) {
            int bucket = bucketOfParts(prefix, 0, prefix.length, fixed, parts);
            return bucket < 0 ? null : new byte[] {(byte) bucket};
        }

        /**
         * The bucket of the encoded parts in {@code bytes[from, to)}, the leading {@code fixed} of
         * them; -1 if those do not decide it.
         */
        private int bucketOfParts(byte[] bytes, int from, int to, int fixed, List<KeyPart> parts) {
            if (modField != null) {
                int mod = indexOf(parts, modField);
                if (mod >= fixed) {
                    return -1;
                }
                return Math.floorMod(EncodedParts.longAt(bytes, from, mod, parts), buckets);
            }
            int hashed = hashFields.isEmpty() ? parts.size() : hashFields.size();
            if (hashed > fixed) {
                return -1;
            }
            int end = hashed == fixed ? to : EncodedParts.end(bytes, from, hashed, parts);
            return Math.floorMod(MurmurHash3.hash32x86(bytes, from, end - from, 0), buckets);
        }

        private static int indexOf(List<KeyPart> parts, String field) {
            for (int i = 0; i < parts.size(); i++) {
                if (parts.get(i).field().equals(field)) {
                    return i;
                }
            }
            throw new IllegalStateException("no part " + field + ": checkFits let the layout through");
        }

        @Override
        SaltPrefixes prefixes() {
            return new SaltPrefixes.Buckets(buckets);
        }
    }

    /**
     * {@code hex(W)}: the last {@code W} lowercase hex digits of the MD5 of the unsalted key, as
     * ASCII -- the seeds' example: MD5 of {@code "1364248490"} ends in {@code ffe5}, so the key is
     * {@code ffe51364248490}. Only a query that fixes every part pins one prefix; any other read
     * fans out over all {@code 16^W} (refused above {@value Salt#MAX_FAN_OUT}). Split points are hex
     * strings too, evenly over the digits (seed 002, 1.3.6).
     */
    public static final class Hex extends Salt {
        private final int width;

        public Hex(int width) {
            if (width < 1 || width > 8) {
                throw new IllegalArgumentException("hex salt width must be in [1, 8], got " + width);
            }
            this.width = width;
        }

        @Override
        public int width() {
            return width;
        }

        @Override
        public String spec() {
            return "hex(" + width + ")";
        }

        private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

        @Override
        void write(byte[] key, List<KeyPart> parts) {
            writeDigits(key, width, key.length, key);
        }

        /**
         * Writes the last {@code W} hex digits of the MD5 of {@code bytes[from, to)} into
         * {@code dst[0, W)} as ASCII, nibble by nibble: no hex string per key.
         */
        private void writeDigits(byte[] bytes, int from, int to, byte[] dst) {
            byte[] digest = KeyBytes.md5(bytes, from, to - from);
            int first = 2 * digest.length - width;
            for (int i = 0; i < width; i++) {
                int digit = first + i;
                int b = digest[digit / 2];
                dst[i] = DIGITS[(digit % 2 == 0 ? b >> 4 : b) & 0xF];
            }
        }

        @Override
        Object read(byte[] key) {
            return new String(key, 0, width, StandardCharsets.US_ASCII);
        }

        @Override
        void checkExact(byte[] key) {
            for (int i = 0; i < width; i++) {
                if (Character.digit(key[i], 16) < 0 || Character.isUpperCase(key[i])) {
                    throw new IllegalArgumentException("offset " + i + ": byte " + String.format("0x%02X", key[i] & 0xFF)
                            + " is not a lower-case hex digit of the salt " + spec());
                }
            }
        }

        @Override
        byte[] pinnedBy(byte[] prefix, int fixed, List<KeyPart> parts) {
            if (fixed < parts.size()) {
                return null;
            }
            byte[] salt = new byte[width];
            writeDigits(prefix, 0, prefix.length, salt);
            return salt;
        }

        @Override
        SaltPrefixes prefixes() {
            return new SaltPrefixes.HexDigits(width);
        }
    }

    /**
     * {@code bin(W)}: the last {@code W} bytes of the MD5 of the unsalted key. Pinned and fanned
     * out as {@link Hex} is, over {@code 256^W} prefixes; split evenly over the bytes.
     */
    public static final class Binary extends Salt {
        private final int width;

        public Binary(int width) {
            if (width < 1 || width > 4) {
                throw new IllegalArgumentException("binary salt width must be in [1, 4], got " + width);
            }
            this.width = width;
        }

        @Override
        public int width() {
            return width;
        }

        @Override
        public String spec() {
            return "bin(" + width + ")";
        }

        @Override
        void write(byte[] key, List<KeyPart> parts) {
            byte[] digest = KeyBytes.md5(key, width, key.length - width);
            System.arraycopy(digest, digest.length - width, key, 0, width);
        }

        @Override
        Object read(byte[] key) {
            return HexFormat.of().formatHex(key, 0, width);
        }

        @Override
        byte[] pinnedBy(byte[] prefix, int fixed, List<KeyPart> parts) {
            if (fixed < parts.size()) {
                return null;
            }
            byte[] digest = KeyBytes.md5(prefix, 0, prefix.length);
            return java.util.Arrays.copyOfRange(digest, digest.length - width, digest.length);
        }

        @Override
        SaltPrefixes prefixes() {
            return new SaltPrefixes.RawBytes(width);
        }
    }
}
