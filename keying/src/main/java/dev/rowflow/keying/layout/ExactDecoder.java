package dev.rowflow.keying.layout;

import dev.rowflow.keying.KeyBytes;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Decodes only keys that {@link RowKeyLayout#encode} can write, and names the first byte of any
 * other: the check behind {@code rowflow keys decode}, where a key typed by hand or copied from a
 * shell may be off by a byte that a plain {@link RowKeyLayout#decode} would read past.
 *
 * <p>Each part is checked by what its encoding says of itself: a recoverable textual part (raw
 * UTF-8) must be non-empty UTF-8 without NUL; any other recoverable part must read back as a value
 * that encodes to the same bytes; a hash or an id may be any bytes of its width. The salt's prefix
 * is checked by the salt; whether it matches the parts is {@link RowKeyLayout#saltOf}'s to say.
 */
final class ExactDecoder {
    private ExactDecoder() {
    }

    /** See {@link RowKeyLayout#decodeExact}. */
    static DecodedKey decode(RowKeyLayout layout, byte[] key) {
        Salt salt = layout.salt();
        List<KeyPart> parts = layout.parts();
        int width = salt.width();
        if (key.length < width) {
            throw new IllegalArgumentException("offset " + key.length + ": the key ends inside the " + width
                    + "-byte salt " + salt.spec());
        }
        salt.checkExact(key);
        int offset = width;
        int last = parts.size() - 1;
        for (int i = 0; i <= last; i++) {
            KeyPart part = parts.get(i);
            KeyEncoding encoding = part.encoding();
            boolean text = encoding.textual() && encoding.recoverable();
            // An empty last text part is left to checkText, which says why it cannot be.
            if (offset >= key.length && !(i == last && text)) {
                throw new IllegalArgumentException("offset " + offset + ": the key ends before part '" + part.spec() + "'");
            }
            int end;
            try {
                end = encoding.end(key, offset, i == last);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("offset " + offset + ": part '" + part.spec()
                        + "' is not the last and has no 0x00 after it");
            }
            if (end > key.length) {
                throw new IllegalArgumentException("offset " + key.length + ": the key ends inside part '"
                        + part.spec() + "', which takes " + (end - offset) + " bytes from offset " + offset);
            }
            if (text) {
                checkText(part, key, offset, i == last || !encoding.terminated() ? end : end - 1);
            } else if (encoding.recoverable()) {
                checkRoundTrip(part, i == last, key, offset, end);
            }
            offset = end;
        }
        if (offset != key.length) {
            throw new IllegalArgumentException("offset " + offset + ": " + (key.length - offset)
                    + " bytes after the last part '" + parts.get(last).spec() + "'");
        }
        return layout.decode(key);
    }

    private static void checkText(KeyPart part, byte[] key, int from, int to) {
        if (from == to) {
            throw new IllegalArgumentException("offset " + from + ": part '" + part.spec()
                    + "' is empty, and encode refuses empty text");
        }
        for (int i = from; i < to; i++) {
            if (key[i] == KeyBytes.TERMINATOR) {
                throw new IllegalArgumentException("offset " + i + ": byte 0x00 inside the last part '" + part.spec()
                        + "', and encode refuses NUL in text (it ends parts)");
            }
        }
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder();
        ByteBuffer in = ByteBuffer.wrap(key, from, to - from);
        CoderResult result = utf8.decode(in, CharBuffer.allocate(to - from), true);
        if (result.isError()) {
            throw new IllegalArgumentException("offset " + in.position() + ": byte " + hexByte(key[in.position()])
                    + " of part '" + part.spec() + "' is not UTF-8");
        }
    }

    private static void checkRoundTrip(KeyPart part, boolean last, byte[] key, int from, int end) {
        Object value;
        byte[] again;
        try {
            value = part.encoding().decode(key, from, end, last);
            again = new byte[part.encoding().encodedLength(value, last)];
            part.encoding().encode(value, last, again, 0);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("offset " + from + ": part '" + part.spec() + "' does not read as a "
                    + "value encode takes: " + e.getMessage());
        }
        int mismatch = Arrays.mismatch(again, 0, again.length, key, from, end);
        if (mismatch >= 0) {
            throw new IllegalArgumentException("offset " + (from + mismatch) + ": part '" + part.spec() + "' reads as "
                    + value + ", which encode writes as " + KeyBytes.toStringBinary(again));
        }
    }

    private static String hexByte(byte b) {
        return String.format("0x%02X", b & 0xFF);
    }
}
