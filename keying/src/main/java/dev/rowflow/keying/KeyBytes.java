package dev.rowflow.keying;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Byte-level building blocks shared by the key codecs. Each encoding here keeps the byte order
 * of the encoded values equal to the natural order of the values, which is what makes range
 * scans over composite keys work.
 */
public final class KeyBytes {
    /** Ends a variable-length text part that is followed by another part. */
    public static final byte TERMINATOR = 0x00;

    private KeyBytes() {
    }

    /**
     * Writes {@code value} as 8 bytes big-endian, as HBase's {@code Bytes.toBytes(long)} does.
     * For non-negative values (event times, reverse timestamps) byte order equals numeric order;
     * callers that key on a long must refuse negative values.
     */
    public static void putLong(byte[] dst, int offset, long value) {
        for (int i = 7; i >= 0; i--) {
            dst[offset + i] = (byte) value;
            value >>>= 8;
        }
    }

    /** Reads what {@link #putLong} wrote. */
    public static long getLong(byte[] src, int offset) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (src[offset + i] & 0xFF);
        }
        return v;
    }

    /** MD5 digest of {@code bytes[offset, offset+length)}. */
    public static byte[] md5(byte[] bytes, int offset, int length) {
        MessageDigest md5 = newMd5();
        md5.update(bytes, offset, length);
        return md5.digest();
    }

    /** Index of the first {@link #TERMINATOR} at or after {@code from}, or -1. */
    public static int indexOfTerminator(byte[] key, int from) {
        for (int i = from; i < key.length; i++) {
            if (key[i] == TERMINATOR) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The bytes as the HBase shell takes them inside double quotes: every byte outside
     * {@code [A-Za-z0-9._-]} as {@code \xNN} (upper-case hex), so a space, a quote, {@code $} or
     * {@code #} is never mistaken for part of the syntax around it and nothing is invisible.
     * {@code Bytes.toBytesBinary} and the shell read it back to the same bytes. Example:
     * {@code 'web 01' 00 'a"b'} -> {@code web\x2001\x00a\x22b}.
     */
    public static String toStringBinary(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length);
        for (byte b : bytes) {
            int c = b & 0xFF;
            if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
                sb.append((char) c);
            } else {
                sb.append("\\x").append(HEX_DIGITS[c >> 4]).append(HEX_DIGITS[c & 0xF]);
            }
        }
        return sb.toString();
    }

    private static final char[] HEX_DIGITS = "0123456789ABCDEF".toCharArray();

    private static MessageDigest newMd5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform is required to provide MD5.
            throw new IllegalStateException("MD5 not available", e);
        }
    }
}
