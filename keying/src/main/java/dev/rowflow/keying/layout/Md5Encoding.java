package dev.rowflow.keying.layout;

import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The {@code md5} key part encoding ({@link KeyEncodings#MD5}): the 16-byte MD5 digest of the
 * value's UTF-8 bytes (seed 002, 1.11.1.4 "Composite Rowkey With Hashes"). Fixed width, so no
 * terminator; spreads writes; not recoverable and in no useful order. Any text is hashed, NUL
 * included (the digest has no terminator to confuse). Example: {@code "web-01"} -> 16 bytes
 * {@code 4F 8D ...}; decoding gives a {@link HashedValue}.
 *
 * <p>DO NOT modify this byte layout: it is on disk in every table rowflow wrote.
 */
final class Md5Encoding implements KeyEncoding {
    private static final int WIDTH = 16;
    private static final ThreadLocal<MessageDigest> DIGEST = ThreadLocal.withInitial(Md5Encoding::md5);
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
        if (value instanceof HashedValue digest) {
            // A digest decoded from another key (re-keying): written as it is.
            if (digest.hash().length != WIDTH) {
                throw new IllegalArgumentException("an md5 digest is " + WIDTH + " bytes, not " + digest.hash().length);
            }
            System.arraycopy(digest.hash(), 0, dst, offset, WIDTH);
            return offset + WIDTH;
        }
        String text = KeyPartValues.text(value);
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

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides MD5", e);
        }
    }
}
