package dev.rowflow.keying.layout;

import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.KeyBytes;

/**
 * The 8-byte key part encodings ({@code long}, {@code ts}, {@code rts}, {@code uid}): each a
 * bijection between its value and a raw long, written as 8 bytes big-endian ({@link
 * KeyBytes#putLong}). Fixed width, so no terminator. Each subclass's javadoc is the layout of its
 * part.
 *
 * <p>DO NOT modify this byte layout: it is on disk in every table rowflow wrote.
 */
abstract class EightByteEncoding implements KeyEncoding {
    @Override
    public int encodedLength(Object value, boolean last) {
        return Long.BYTES;
    }

    @Override
    public int encode(Object value, boolean last, byte[] dst, int offset) {
        KeyBytes.putLong(dst, offset, toRaw(KeyPartValues.number(value, token())));
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

    /**
     * {@code long} ({@link KeyEncodings#LONG}): an order-preserving 8-byte signed long: big-endian
     * with the sign bit flipped, so {@code Long.MIN_VALUE -> 00 00 00 00 00 00 00 00},
     * {@code -1 -> 7F FF FF FF FF FF FF FF}, {@code 0 -> 80 00 00 00 00 00 00 00},
     * {@code 42 -> 80 00 00 00 00 00 00 2A}.
     */
    static final class OrderedLong extends EightByteEncoding {
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

    /**
     * {@code ts} ({@link KeyEncodings#TIMESTAMP}): event time in ms since the epoch as 8 bytes
     * big-endian, like HBase's {@code Bytes.toBytes(long)}; negative times are refused, so byte
     * order is time order. Example: {@code 1364248490000 -> 00 00 01 3D A3 8B F0 10}.
     */
    static final class Timestamp extends EightByteEncoding {
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

    /**
     * {@code rts} ({@link KeyEncodings#REVERSE_TIMESTAMP}): reverse timestamp,
     * {@code Long.MAX_VALUE - ts} as 8 bytes big-endian (seed 002, 1.3.3): newest first. Example:
     * {@code 1364248490000 -> 7F FF FE C2 5C 74 0F EF}.
     */
    static final class ReverseTimestamp extends EightByteEncoding {
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

    /**
     * {@code uid} ({@link KeyEncodings#uid}): numeric substitution (seed 002, 1.11.1.4): the 8-byte
     * id a {@link UidResolver} assigned to the value, big-endian. Fixed width; decodes to the id,
     * which the resolver maps back to the name. Ids are assigned in first-seen order, so byte order
     * is not name order.
     */
    static final class Uid extends EightByteEncoding {
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
            KeyBytes.putLong(dst, offset, resolver.idOf(kind, KeyPartValues.text(value)));
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
}
