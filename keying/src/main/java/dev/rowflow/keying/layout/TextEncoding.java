package dev.rowflow.keying.layout;

import dev.rowflow.keying.KeyBytes;

import java.nio.charset.StandardCharsets;

/**
 * The {@code text} key part encoding ({@link KeyEncodings#TEXT}): variable-length raw UTF-8 (seed
 * 002, 1.11.1.4 "variable length"). A part that is not the last ends with one {@code 0x00}; values
 * containing NUL (U+0000) are refused, so the terminator is unambiguous. Order-preserving:
 * {@code 0x00} sorts below every UTF-8 byte, so {@code "web-1"} sorts before {@code "web-10"}, as
 * the texts do (UTF-8 byte order is code point order). Example: {@code "web-01"} not last ->
 * {@code 77 65 62 2D 30 31 00}.
 *
 * <p>DO NOT modify this byte layout: it is on disk in every table rowflow wrote.
 */
final class TextEncoding implements KeyEncoding {
    @Override
    public String token() {
        return "text";
    }

    @Override
    public int encodedLength(Object value, boolean last) {
        return Utf8.length(KeyPartValues.text(value)) + (last ? 0 : 1);
    }

    @Override
    public int encode(Object value, boolean last, byte[] dst, int offset) {
        int end = Utf8.write(KeyPartValues.text(value), dst, offset);
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
