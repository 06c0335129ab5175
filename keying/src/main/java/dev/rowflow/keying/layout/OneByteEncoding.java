package dev.rowflow.keying.layout;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;

/**
 * The {@code byte} key part encoding ({@link KeyEncodings#BYTE}): one unsigned byte, e.g. a record
 * type of the single-table designs (CUSTOMER++: {@code 'C'} customer, {@code 'O'} order). Values
 * 0..255 or a one-character (Latin-1) string; decodes to a long. Example: {@code "O" -> 4F}.
 *
 * <p>DO NOT modify this byte layout: it is on disk in every table rowflow wrote.
 */
final class OneByteEncoding implements KeyEncoding {
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
            throw new InvalidEventException(Refusal.OUT_OF_RANGE,
                    "byte part", value, "must be 0..255 or one Latin-1 character");
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
