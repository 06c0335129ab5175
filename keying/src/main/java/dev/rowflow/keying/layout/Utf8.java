package dev.rowflow.keying.layout;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;

/**
 * UTF-8 straight into a key array: {@link String#getBytes} would allocate a second array per
 * part. Refuses unpaired surrogates (they have no UTF-8 form) and U+FFFD (the mark of bytes that
 * were not UTF-8 when the value was decoded); and NUL where the bytes are the key part's own
 * (NUL ends a text part), never where they are only hashed.
 */
final class Utf8 {
    private Utf8() {
    }

    /** The UTF-8 length of a text part's value, NUL refused: it would end the part. */
    static int length(String s) {
        return length(s, true);
    }

    /**
     * The UTF-8 length of {@code s}.
     *
     * @param refuseNul whether NUL is refused: true where the bytes are the key's, false where
     *                  they are hashed (an {@code md5} part takes any text)
     */
    static int length(String s, boolean refuseNul) {
        int n = s.length();
        int bytes = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                if (c == 0 && refuseNul) {
                    throw new InvalidEventException(Refusal.NOT_ENCODABLE,
                            "text key part", s, "must not contain the NUL character (it ends key parts)");
                }
            } else if (c < 0x800) {
                bytes += 1;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 2; // 4 bytes for the pair of 2 chars
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new InvalidEventException(Refusal.NOT_ENCODABLE,
                        "text key part", s, "has an unpaired surrogate at index " + i
                        + ", which has no UTF-8 form");
            } else if (c == '\uFFFD') {
                // What a decoder leaves for bytes that are not UTF-8 (Avro's strings included):
                // keying it would merge every malformed value into one row.
                throw new InvalidEventException(Refusal.NOT_ENCODABLE,
                        "text key part", s, "contains U+FFFD at index " + i
                        + ": the producer sent bytes that are not UTF-8");
            } else {
                bytes += 2;
            }
        }
        return bytes;
    }

    /** Writes {@code s}, already checked by {@link #length}; returns the offset after it. */
    static int write(String s, byte[] dst, int offset) {
        int n = s.length();
        int p = offset;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                dst[p++] = (byte) c;
            } else if (c < 0x800) {
                dst[p++] = (byte) (0xC0 | (c >> 6));
                dst[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c)) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                dst[p++] = (byte) (0xF0 | (cp >> 18));
                dst[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                dst[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                dst[p++] = (byte) (0x80 | (cp & 0x3F));
            } else {
                dst[p++] = (byte) (0xE0 | (c >> 12));
                dst[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                dst[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return p;
    }
}
