package dev.rowflow.keying.layout;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;

/**
 * The {@code int} key part encoding ({@link KeyEncodings#INT}): an order-preserving 4-byte signed
 * int, big-endian with the sign bit flipped, for small sequence numbers such as the shipping
 * location and line item numbers of an order (half the width of {@code long}: keys stay short).
 * Values outside 32 bits are refused; decodes to a long. Example: {@code 1 -> 80 00 00 01}.
 *
 * <p>DO NOT modify this byte layout: it is on disk in every table rowflow wrote.
 */
final class OrderedIntEncoding implements KeyEncoding {
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
        long v = KeyPartValues.number(value, token());
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
