package dev.rowflow.keying.layout;

import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.KeyBytes;

import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The key part encodings of the seeds, by spec token. Each javadoc is the format of its part.
 *
 * <p>DO NOT modify the byte layouts specified here: they are on disk in every table rowflow wrote.
 */
public final class KeyEncodings {

    /**
     * {@code text}: variable-length raw UTF-8 (seed 002, 1.11.1.4 "variable length"). A part that
     * is not the last ends with one {@code 0x00}; values containing NUL (U+0000) are refused, so
     * the terminator is unambiguous. Order-preserving: {@code 0x00} sorts below every UTF-8 byte,
     * so {@code "web-1"} sorts before {@code "web-10"}, as the texts do (UTF-8 byte order is code
     * point order). Example: {@code "web-01"} not last -> {@code 77 65 62 2D 30 31 00}.
     */
    public static final KeyEncoding TEXT = new Text();

    /**
     * {@code md5}: the 16-byte MD5 digest of the value's UTF-8 bytes (seed 002, 1.11.1.4
     * "Composite Rowkey With Hashes"). Fixed width, so no terminator; spreads writes; not
     * recoverable and in no useful order. Any text is hashed, NUL included (the digest has no
     * terminator to confuse). Example: {@code "web-01"} -> 16 bytes {@code 4F 8D ...}; decoding
     * gives a {@link HashedValue}.
     */
    public static final KeyEncoding MD5 = new Md5();

    /**
     * {@code long}: an order-preserving 8-byte signed long: big-endian with the sign bit flipped,
     * so {@code Long.MIN_VALUE -> 00 00 00 00 00 00 00 00}, {@code -1 -> 7F FF FF FF FF FF FF FF},
     * {@code 0 -> 80 00 00 00 00 00 00 00}, {@code 42 -> 80 00 00 00 00 00 00 2A}.
     */
    public static final KeyEncoding LONG = new OrderedLong();

    /**
     * {@code ts}: event time in ms since the epoch as 8 bytes big-endian, like HBase's
     * {@code Bytes.toBytes(long)}; negative times are refused, so byte order is time order.
     * Example: {@code 1364248490000 -> 00 00 01 3D A3 8B F0 10}.
     */
    public static final KeyEncoding TIMESTAMP = new Timestamp();

    /**
     * {@code rts}: reverse timestamp, {@code Long.MAX_VALUE - ts} as 8 bytes big-endian (seed
     * 002, 1.3.3): newest first. Example: {@code 1364248490000 -> 7F FF FE C2 5C 74 0F EF}.
     */
    public static final KeyEncoding REVERSE_TIMESTAMP = new ReverseTimestamp();

    /**
     * {@code dec}: a long as its decimal ASCII digits, the form of the seeds' salting example
     * ({@code 1364248490} -> {@code "1364248490"}). Terminated by {@code 0x00} unless last. Byte
     * order equals numeric order only among values with the same number of digits.
     */
    public static final KeyEncoding DECIMAL = new Decimal();

    /**
     * {@code uid}: numeric substitution (seed 002, 1.11.1.4): the 8-byte id a {@link UidResolver}
     * assigned to the value, big-endian. Fixed width; decodes to the id, which the resolver maps
     * back to the name. Ids are assigned in first-seen order, so byte order is not name order.
     */
    public static KeyEncoding uid(String kind, UidResolver resolver) {
        return new Uid(kind, resolver);
    }

    /**
     * {@code byte}: one unsigned byte, e.g. a record type of the single-table designs
     * (CUSTOMER++: {@code 'C'} customer, {@code 'O'} order). Values 0..255 or a one-character
     * string. Example: {@code "O" -> 4F}.
     */
    public static final KeyEncoding BYTE = new OneByte();

    /**
     * {@code int}: an order-preserving 4-byte signed int, big-endian with the sign bit flipped,
     * for small sequence numbers such as the shipping location and line item numbers of an order
     * (half the width of {@code long}: keys stay short). Example: {@code 1 -> 80 00 00 01}.
     */
    public static final KeyEncoding INT = new OrderedInt();

    private static final Map<String, KeyEncoding> BY_TOKEN = Stream.of(TEXT, MD5, LONG, TIMESTAMP,
                    REVERSE_TIMESTAMP, DECIMAL, BYTE, INT)
            .collect(Collectors.toUnmodifiableMap(KeyEncoding::token, Function.identity()));

    private KeyEncodings() {
    }

    /** The stateless encoding named {@code token}, or null ({@code uid} needs a resolver). */
    static KeyEncoding byToken(String token) {
        return BY_TOKEN.get(token);
    }

    static String tokens() {
        return BY_TOKEN.keySet().stream().sorted().collect(Collectors.joining(", ")) + ", uid";
    }

    // ---------------------------------------------------------------- implementations

    private static final class Text implements KeyEncoding {
        @Override
        public String token() {
            return "text";
        }

        @Override
        public int encodedLength(Object value, boolean last) {
            return Utf8.length(text(value)) + (last ? 0 : 1);
        }

        @Override
        public int encode(Object value, boolean last, byte[] dst, int offset) {
            int end = Utf8.write(text(value), dst, offset);
            if (!last) {
                dst[end++] = KeyBytes.TERMINATOR;
            }
            return end;
        }

        @Override
        public int end(byte[] key, int offset, boolean last) {
            if (last) {
                return key.length;
            }
            int terminator = KeyBytes.indexOfTerminator(key, offset);
            if (terminator < 0) {
                throw new IllegalArgumentException("text part at offset " + offset + " has no 0x00 terminator");
            }
            return terminator + 1;
        }

        @Override
        public Object decode(byte[] key, int offset, int end, boolean last) {
            return new String(key, offset, (last ? end : end - 1) - offset, StandardCharsets.UTF_8);
        }

        @Override
        public int order() {
            return 1;
        }

        @Override
        public boolean textual() {
            return true;
        }

        @Override
        public boolean terminated() {
            return true;
        }
    }

    private static final class Md5 implements KeyEncoding {
        private static final int WIDTH = 16;
        private static final ThreadLocal<MessageDigest> DIGEST = ThreadLocal.withInitial(KeyEncodings::md5);
        private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[256]);

        @Override
        public String token() {
            return "md5";
        }

        @Override
        public int encodedLength(Object value, boolean last) {
            return WIDTH;
        }

        @Override
        public int encode(Object value, boolean last, byte[] dst, int offset) {
            String text = text(value);
            byte[] scratch = SCRATCH.get();
            // Hashed bytes never end a part: a NUL in the value is as good as any character.
            int length = Utf8.length(text, false);
            if (length > scratch.length) {
                scratch = new byte[Math.max(length, scratch.length * 2)];
                SCRATCH.set(scratch);
            }
            Utf8.write(text, scratch, 0);
            MessageDigest digest = DIGEST.get();
            digest.update(scratch, 0, length);
            try {
                digest.digest(dst, offset, WIDTH);
            } catch (DigestException e) {
                throw new IllegalStateException("MD5 into a 16-byte slot failed", e);
            }
            return offset + WIDTH;
        }

        @Override
        public int end(byte[] key, int offset, boolean last) {
            return offset + WIDTH;
        }

        @Override
        public Object decode(byte[] key, int offset, int end, boolean last) {
            return new HashedValue(java.util.Arrays.copyOfRange(key, offset, end));
        }

        @Override
        public int order() {
            return 0;
        }

        @Override
        public boolean textual() {
            return true;
        }

        @Override
        public boolean recoverable() {
            return false;
        }

        @Override
        public boolean evenlySpread() {
            return true;
        }
    }

    /** Common shape of the 8-byte long encodings: a bijection between the value and a raw long. */
    private abstract static class EightBytes implements KeyEncoding {
        @Override
        public int encodedLength(Object value, boolean last) {
            return Long.BYTES;
        }

        @Override
        public int encode(Object value, boolean last, byte[] dst, int offset) {
            KeyBytes.putLong(dst, offset, toRaw(number(value, token())));
            return offset + Long.BYTES;
        }

        @Override
        public int end(byte[] key, int offset, boolean last) {
            return offset + Long.BYTES;
        }

        @Override
        public Object decode(byte[] key, int offset, int end, boolean last) {
            return fromRaw(KeyBytes.getLong(key, offset));
        }

        @Override
        public boolean textual() {
            return false;
        }

        abstract long toRaw(long value);

        abstract long fromRaw(long raw);
    }

    private static final class OrderedLong extends EightBytes {
        @Override
        public String token() {
            return "long";
        }

        @Override
        long toRaw(long value) {
            return value ^ Long.MIN_VALUE;
        }

        @Override
        long fromRaw(long raw) {
            return raw ^ Long.MIN_VALUE;
        }

        @Override
        public int order() {
            return 1;
        }
    }

    private static final class OrderedInt implements KeyEncoding {
        @Override
        public String token() {
            return "int";
        }

        @Override
        public int encodedLength(Object value, boolean last) {
            return Integer.BYTES;
        }

        @Override
        public int encode(Object value, boolean last, byte[] dst, int offset) {
            long v = number(value, token());
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                throw new InvalidEventException(Refusal.OUT_OF_RANGE, "int key part", value, "must fit in 32 bits");
            }
            int raw = (int) v ^ Integer.MIN_VALUE;
            dst[offset] = (byte) (raw >>> 24);
            dst[offset + 1] = (byte) (raw >>> 16);
            dst[offset + 2] = (byte) (raw >>> 8);
            dst[offset + 3] = (byte) raw;
            return offset + Integer.BYTES;
        }

        @Override
        public int end(byte[] key, int offset, boolean last) {
            return offset + Integer.BYTES;
        }

        @Override
        public Object decode(byte[] key, int offset, int end, boolean last) {
            int raw = (key[offset] & 0xFF) << 24 | (key[offset + 1] & 0xFF) << 16 | (key[offset + 2] & 0xFF) << 8
                    | (key[offset + 3] & 0xFF);
            return (long) (raw ^ Integer.MIN_VALUE);
        }

        @Override
        public int order() {
            return 1;
        }

        @Override
        public boolean textual() {
            return false;
        }
    }

    private static final class Timestamp extends EightBytes {
        @Override
        public String token() {
            return "ts";
        }

        @Override
        long toRaw(long value) {
            return EventRules.eventTime("ts key part", value);
        }

        @Override
        long fromRaw(long raw) {
            return raw;
        }

        @Override
        public int order() {
            return 1;
        }

        @Override
        public boolean isTime() {
            return true;
        }
    }

    private static final class ReverseTimestamp extends EightBytes {
        @Override
        public String token() {
            return "rts";
        }

        @Override
        long toRaw(long value) {
            return Long.MAX_VALUE - EventRules.eventTime("rts key part", value);
        }

        @Override
        long fromRaw(long raw) {
            return Long.MAX_VALUE - raw;
        }

        @Override
        public int order() {
            return -1;
        }

        @Override
        public boolean isTime() {
            return true;
        }
    }

    private static final class Decimal implements KeyEncoding {
        @Override
        public String token() {
            return "dec";
        }

        @Override
        public int encodedLength(Object value, boolean last) {
            return digits(number(value, token())) + (last ? 0 : 1);
        }

        @Override
        public int encode(Object value, boolean last, byte[] dst, int offset) {
            long v = number(value, token());
            int end = offset + digits(v);
            // Digits from the right; a negative value gets its '-' in front.
            long rest = v;
            int i = end;
            do {
                dst[--i] = (byte) ('0' + Math.abs(rest % 10));
                rest /= 10;
            } while (rest != 0);
            if (v < 0) {
                dst[--i] = '-';
            }
            if (!last) {
                dst[end++] = KeyBytes.TERMINATOR;
            }
            return end;
        }

        @Override
        public int end(byte[] key, int offset, boolean last) {
            return TEXT.end(key, offset, last);
        }

        @Override
        public Object decode(byte[] key, int offset, int end, boolean last) {
            return Long.parseLong(new String(key, offset, (last ? end : end - 1) - offset, StandardCharsets.US_ASCII));
        }

        @Override
        public int order() {
            return 0;
        }

        @Override
        public boolean textual() {
            return false;
        }

        @Override
        public boolean terminated() {
            return true;
        }

        private static int digits(long v) {
            int n = v < 0 ? 2 : 1;
            for (long rest = v / 10; rest != 0; rest /= 10) {
                n++;
            }
            return n;
        }
    }

    private static final class Uid extends EightBytes {
        private final String kind;
        private final UidResolver resolver;

        Uid(String kind, UidResolver resolver) {
            this.kind = kind;
            this.resolver = resolver;
        }

        @Override
        public String token() {
            return "uid";
        }

        @Override
        public int encode(Object value, boolean last, byte[] dst, int offset) {
            KeyBytes.putLong(dst, offset, resolver.idOf(kind, text(value)));
            return offset + Long.BYTES;
        }

        @Override
        long toRaw(long value) {
            return value;
        }

        @Override
        long fromRaw(long raw) {
            return raw;
        }

        @Override
        public int order() {
            return 0;
        }

        @Override
        public boolean textual() {
            return true;
        }

        @Override
        public boolean recoverable() {
            return false;
        }

        @Override
        public boolean needsUids() {
            return true;
        }
    }

    private static final class OneByte implements KeyEncoding {
        @Override
        public String token() {
            return "byte";
        }

        @Override
        public int encodedLength(Object value, boolean last) {
            return 1;
        }

        @Override
        public int encode(Object value, boolean last, byte[] dst, int offset) {
            int b;
            if (value instanceof String s && s.length() == 1 && s.charAt(0) < 256) {
                b = s.charAt(0);
            } else if (value instanceof Number n && n.longValue() >= 0 && n.longValue() < 256) {
                b = n.intValue();
            } else {
                throw new InvalidEventException(Refusal.OUT_OF_RANGE, "byte part", value, "must be 0..255 or one Latin-1 character");
            }
            dst[offset] = (byte) b;
            return offset + 1;
        }

        @Override
        public int end(byte[] key, int offset, boolean last) {
            return offset + 1;
        }

        @Override
        public Object decode(byte[] key, int offset, int end, boolean last) {
            return (long) (key[offset] & 0xFF);
        }

        @Override
        public int order() {
            return 1;
        }

        @Override
        public boolean textual() {
            return false;
        }
    }

    // ---------------------------------------------------------------- value conversion

    static String text(Object value) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof CharSequence cs) {
            return cs.toString();
        }
        throw new InvalidEventException(Refusal.WRONG_KIND, "text key part", value, "must be a string");
    }

    static long number(Object value, String token) {
        if (value instanceof Long l) {
            return l;
        }
        if (value instanceof Instant instant) {
            return instant.toEpochMilli();
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        throw new InvalidEventException(Refusal.WRONG_KIND, token + " key part", value, "must be a whole number or a time");
    }

    static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides MD5", e);
        }
    }
}
