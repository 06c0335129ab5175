package dev.rowflow.keying.layout;

import dev.rowflow.keying.KeyBytes;

import java.nio.charset.StandardCharsets;

/**
 * The {@code dec} key part encoding ({@link KeyEncodings#DECIMAL}): a long as its decimal ASCII
 * digits, the form of the seeds' salting example ({@code 1364248490} -> {@code "1364248490"}), a
 * negative value with a leading {@code '-'}. Terminated by {@code 0x00} unless last, found as a
 * {@code text} part's terminator is. Byte order equals numeric order only among values with the
 * same number of digits.
 *
 * <p>DO NOT modify this byte layout: it is on disk in every table rowflow wrote.
 */
final class DecimalEncoding implements KeyEncoding {
    @Override
    public String token() {
        return "dec";
    }

    @Override
    public int encodedLength(Object value, boolean last) {
        return digits(KeyPartValues.number(value, token())) + (last ? 0 : 1);
    }

    @Override
    public int encode(Object value, boolean last, byte[] dst, int offset) {
        long v = KeyPartValues.number(value, token());
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
        return KeyEncodings.TEXT.end(key, offset, last);
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
