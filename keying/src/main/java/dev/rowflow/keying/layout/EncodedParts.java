package dev.rowflow.keying.layout;

import java.util.List;

/**
 * Walking the encoded parts of a key, or of the prefix of one a query fixes, without decoding
 * them all: where the leading parts end, and the value of one numeric part. A partial-key salt
 * reads no more of a key than this, on the hot path of every write; the parts it skips are only
 * measured ({@link KeyEncoding#end}), never decoded.
 */
final class EncodedParts {
    private EncodedParts() {
    }

    /** Where the first {@code count} parts written from {@code from} end. */
    static int end(byte[] bytes, int from, int count, List<KeyPart> parts) {
        int offset = from;
        int last = parts.size() - 1;
        for (int i = 0; i < count; i++) {
            offset = parts.get(i).encoding().end(bytes, offset, i == last);
        }
        return offset;
    }

    /** The value of part {@code index}, a numeric one, of the parts written from {@code from}. */
    static long longAt(byte[] bytes, int from, int index, List<KeyPart> parts) {
        int offset = end(bytes, from, index, parts);
        boolean last = index == parts.size() - 1;
        KeyEncoding encoding = parts.get(index).encoding();
        return (Long) encoding.decode(bytes, offset, encoding.end(bytes, offset, last), last);
    }
}
