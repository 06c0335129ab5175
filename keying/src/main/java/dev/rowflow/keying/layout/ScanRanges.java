package dev.rowflow.keying.layout;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The reads of a {@link RowKeyLayout}: the key ranges that hold exactly the rows a
 * {@link KeyQuery} asks for.
 *
 * <p>A range is built on the unsalted key: the query's equal values encoded as the leading parts
 * (the prefix), then the bounds of the next part, or the prefix alone. The salt then decides how
 * many times it is scanned: once behind the one prefix the query pins (the salt comes from parts
 * the query fixes), or once behind every prefix the salt writes, the rows merged back with
 * {@link RowKeyLayout#mergeOrder()}.
 */
final class ScanRanges {
    private ScanRanges() {
    }

    /**
     * The ranges of {@code query}, ordered by start key.
     *
     * @throws IllegalArgumentException if the query does not fit the layout: more values than
     *                                  parts, a range on a part without byte order, or a fan-out
     *                                  over more than {@value Salt#MAX_FAN_OUT} salt prefixes
     */
    static List<KeyRange> of(RowKeyLayout layout, KeyQuery query) {
        List<KeyPart> parts = layout.parts();
        int fixed = query.equal().size();
        int last = parts.size() - 1;
        if (fixed > parts.size() || (fixed == parts.size() && query.hasRange())) {
            throw new IllegalArgumentException("query " + query + " has more parts than layout " + layout.spec());
        }
        ByteArrayOutputStream prefix = new ByteArrayOutputStream();
        for (int i = 0; i < fixed; i++) {
            KeyPart part = parts.get(i);
            Object value = query.equal().get(i);
            byte[] bytes = new byte[part.encoding().encodedLength(value, i == last)];
            part.encoding().encode(value, i == last, bytes, 0);
            prefix.writeBytes(bytes);
        }
        byte[] start;
        byte[] stop;
        byte[] p = prefix.toByteArray();
        if (fixed == parts.size()) {
            start = p;
            stop = Arrays.copyOf(p, p.length + 1); // the smallest key after p itself
        } else if (query.hasRange()) {
            KeyPart part = parts.get(fixed);
            boolean isLast = fixed == last;
            switch (part.encoding().order()) {
                case 1 -> {
                    start = query.from() == null ? p : concat(p, bound(part, query.from(), isLast));
                    stop = query.to() == null ? prefixEnd(p) : concat(p, bound(part, query.to(), isLast));
                }
                case -1 -> {
                    // Descending bytes: ts in [from, to) is raw in (raw(to), raw(from)].
                    long to = query.to() == null ? 0 : KeyPartValues.number(query.to(), part.field());
                    start = query.to() == null ? p : concat(p, bound(part, to - 1, isLast));
                    stop = query.from() == null ? prefixEnd(p) : prefixEnd(concat(p, bound(part, query.from(), isLast)));
                }
                default -> throw new IllegalArgumentException("part " + part.spec() + " of layout " + layout.spec()
                        + " has no byte order, so a range on it is no key range");
            }
        } else {
            start = p;
            stop = prefixEnd(p);
        }
        return behindSalt(layout, start, stop, fixed, p);
    }

    /** The range {@code [start, stop)} of unsalted keys behind each salt prefix it must be read from. */
    private static List<KeyRange> behindSalt(RowKeyLayout layout, byte[] start, byte[] stop, int fixed, byte[] prefix) {
        Salt salt = layout.salt();
        byte[] pinned = salt.pinnedBy(prefix, fixed, layout.parts());
        List<byte[]> prefixes = pinned != null ? List.of(pinned) : salt.allPrefixes();
        List<KeyRange> ranges = new ArrayList<>(prefixes.size());
        for (byte[] saltPrefix : prefixes) {
            ranges.add(new KeyRange(concat(saltPrefix, start),
                    stop.length == 0 ? prefixEnd(saltPrefix) : concat(saltPrefix, stop)));
        }
        return ranges;
    }

    private static byte[] bound(KeyPart part, Object value, boolean last) {
        if (part.encoding().textual()) {
            // Raw UTF-8 without the terminator: "lo" sorts before "lo\0..." and every longer text.
            byte[] bytes = new byte[part.encoding().encodedLength(value, true)];
            part.encoding().encode(value, true, bytes, 0);
            return bytes;
        }
        byte[] bytes = new byte[part.encoding().encodedLength(value, last)];
        part.encoding().encode(value, last, bytes, 0);
        return bytes;
    }

    /** See {@link RowKeyLayout#prefixEnd}. */
    static byte[] prefixEnd(byte[] prefix) {
        int i = prefix.length - 1;
        while (i >= 0 && prefix[i] == (byte) 0xFF) {
            i--;
        }
        if (i < 0) {
            return new byte[0];
        }
        byte[] end = Arrays.copyOf(prefix, i + 1);
        end[i]++;
        return end;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
