package dev.rowflow.keying.layout;

/**
 * How one field value becomes one part of a composite row key: a small value type in the manner
 * of HBase's {@code DataType}. Implementations write straight into the key array, so encoding a
 * key allocates nothing but the key.
 *
 * <p>A variable-width encoding needs to know whether its part is the last of the key: only then
 * may it run to the end without a terminator.
 */
public interface KeyEncoding {

    /** The token that names this encoding in a layout spec, e.g. {@code text}. */
    String token();

    /** Bytes {@code value} takes as a part; {@code last} if nothing follows it. */
    int encodedLength(Object value, boolean last);

    /** Writes {@code value} at {@code offset}; returns the offset after it. */
    int encode(Object value, boolean last, byte[] dst, int offset);

    /** The offset after the part that starts at {@code offset} of {@code key}. */
    int end(byte[] key, int offset, boolean last);

    /**
     * The value of the part {@code key[offset, end)}: a {@link String} or {@link Long} for
     * recoverable encodings; for a hash, what is left of it (see {@link HashedValue}).
     */
    Object decode(byte[] key, int offset, int end, boolean last);

    /** +1 if byte order follows value order, -1 if it is the reverse, 0 if unrelated (hashes). */
    int order();

    /** Whether values are Strings ({@code true}) or longs ({@code false}). */
    boolean textual();

    // Capabilities: what callers would otherwise read off the token (HBase's DataType answers
    // isOrderPreserving() the same way). Each default is the answer of most encodings.

    /**
     * Whether {@link #decode} gives back the value {@link #encode} took: false for a hash (only
     * the digest is left) and for a UID (the id; the name is the resolver's to give back).
     */
    default boolean recoverable() {
        return true;
    }

    /** Whether encoding a value needs a {@link UidResolver} (the value is replaced by its id). */
    default boolean needsUids() {
        return false;
    }

    /**
     * Whether values are event times in milliseconds since the epoch, which a reader may also give
     * and show as instants.
     */
    default boolean isTime() {
        return false;
    }

    /** Whether a part that is not the last ends with a {@code 0x00} terminator (variable width). */
    default boolean terminated() {
        return false;
    }

    /**
     * Whether the bytes are spread evenly over their range whatever the values (a digest), so a key
     * that leads with this part can be pre-split at even byte boundaries.
     */
    default boolean evenlySpread() {
        return false;
    }
}
