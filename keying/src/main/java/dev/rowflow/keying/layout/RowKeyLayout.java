package dev.rowflow.keying.layout;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.KeyBytes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.commons.codec.digest.MurmurHash3;

import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A row key design: an optional {@link Salt} followed by {@link KeyPart}s, written as a spec
 * string such as {@code bucket(16) | timestamp:ts, hostname:text, eventType:text}.
 *
 * <h2>Spec</h2>
 * <pre>
 * layout := [salt "|"] part ("," part)*
 * salt   := "bucket(" N ["," "hash=" field ("+" field)*] ["," "mod=" field] ")" | "hex(" W ")" | "bin(" W ")"
 * part   := field ":" encoding          encoding: text md5 uid long ts rts dec byte int (see KeyEncodings)
 * </pre>
 *
 * <h2>Byte layout</h2>
 * {@code [salt: Salt.width() bytes][part 1]...[part n]}, each part as its {@link KeyEncoding}
 * specifies; the unsalted key is everything after the salt, so dropping the prefix recovers it.
 *
 * <h2>Examples (each checked byte for byte by {@code RowKeyLayoutTest})</h2>
 * <ul>
 *   <li>{@code hex(4) | timestamp:dec}, timestamp 1364248490: {@code "ffe51364248490"} (the seeds' example);</li>
 *   <li>{@code hostname:text, eventType:text, timestamp:rts}, web-01/login/1364248490000:
 *       {@code 'web-01' 00 'login' 00 7F FF FE C2 5C 74 0F EF} (host-led, newest first);</li>
 *   <li>{@code bucket(16) | timestamp:ts, hostname:text, eventType:text}: one bucket byte, then
 *       {@code 00 00 01 3D A3 8B F0 10 'web-01' 00 'login'} (the seed's bucketed time-led key).</li>
 * </ul>
 *
 * <h2>Reads</h2>
 * {@link #scanRanges} turns a {@link KeyQuery} into key ranges: one per salt prefix the query
 * cannot pin down, to be merged back by {@link #mergeOrder()}. {@link #splitPoints} gives region
 * boundaries that put keys into every region.
 *
 * <p>Immutable and thread-safe (given a thread-safe {@link UidResolver}).
 */
public final class RowKeyLayout {
    /** More salt prefixes than this make a range scan a table scan in disguise: refused. */
    public static final int MAX_FAN_OUT = 4096;

    private final Salt salt;
    private final List<KeyPart> parts;
    /** Leading parts a partial-key salt hashes; 0 = the whole unsalted key. */
    private final int hashedParts;
    /** Index of the part a {@code mod=} bucket takes, or -1. */
    private final int modPart;

    public RowKeyLayout(Salt salt, List<KeyPart> parts) {
        this.salt = salt;
        this.parts = List.copyOf(parts);
        if (this.parts.isEmpty()) {
            throw new IllegalArgumentException("a layout needs at least one key part");
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (KeyPart part : this.parts) {
            if (!seen.add(part.field())) {
                throw new IllegalArgumentException(part.field() + " is in the key twice: a key holds each field once");
            }
        }
        int hashed = 0;
        int mod = -1;
        if (salt instanceof Salt.Bucket bucket) {
            List<String> names = this.parts.stream().map(KeyPart::field).toList();
            for (String field : bucket.hashFields()) {
                if (hashed >= names.size() || !names.get(hashed).equals(field)) {
                    throw new IllegalArgumentException("hash=" + String.join("+", bucket.hashFields())
                            + " must name the leading key parts in order (" + String.join(", ", names)
                            + "): only then do the rows of one value share a bucket and form one range");
                }
                hashed++;
            }
            if (bucket.modField() != null) {
                mod = names.indexOf(bucket.modField());
                if (mod < 0 || this.parts.get(mod).encoding().textual()) {
                    throw new IllegalArgumentException("mod=" + bucket.modField() + " must name a numeric key part");
                }
            }
        }
        this.hashedParts = hashed;
        this.modPart = mod;
    }

    /**
     * Parses a spec (see the class javadoc).
     *
     * @param uids resolves {@code uid} parts; null where none is at hand (encoding a uid part then
     *             fails, decoding gives the ids)
     * @throws IllegalArgumentException naming the part of the spec that is wrong
     */
    public static RowKeyLayout parse(String spec, UidResolver uids) {
        return LayoutSpec.parse(spec, uids);
    }

    public Salt salt() {
        return salt;
    }

    public List<KeyPart> parts() {
        return parts;
    }

    /** The canonical spec of this layout. */
    public String spec() {
        String body = parts.stream().map(KeyPart::spec).collect(Collectors.joining(", "));
        return salt.width() == 0 ? body : salt.spec() + " | " + body;
    }

    @Override
    public String toString() {
        return spec();
    }

    // ---------------------------------------------------------------- encode

    /**
     * The row key of the values {@code fields} gives by part name. Allocates the key array only.
     *
     * @throws InvalidEventException if a value is missing or cannot be a key part
     */
    public byte[] encode(Function<String, ?> fields) {
        return encode(fields, (source, part) -> source.apply(parts.get(part).field()));
    }

    /**
     * The row key of an Avro record, its fields named by the parts. Allocates the key array only:
     * the hot path of the pipeline.
     */
    public byte[] encode(GenericRecord record) {
        return encode(record, positionsIn(record.getSchema()));
    }

    /** Reads the value of part {@code part} from a source. */
    private interface FieldReader<S> {
        Object read(S source, int part);
    }

    /**
     * Where each part's field sits in records of one schema: looking a field up by name costs a
     * hash lookup per part and key, by position an array read. Cached for the last schema seen
     * (one per topic in practice); a field the schema lacks reads as null.
     */
    private record FieldPositions(Schema schema, int[] positions) implements FieldReader<GenericRecord> {
        @Override
        public Object read(GenericRecord record, int part) {
            int position = positions[part];
            return position < 0 ? null : record.get(position);
        }
    }

    private volatile FieldPositions lastPositions;

    private FieldPositions positionsIn(Schema schema) {
        FieldPositions cached = lastPositions;
        if (cached != null && cached.schema() == schema) {
            return cached;
        }
        int[] positions = new int[parts.size()];
        for (int i = 0; i < positions.length; i++) {
            Schema.Field field = schema.getField(parts.get(i).field());
            positions[i] = field == null ? -1 : field.pos();
        }
        FieldPositions computed = new FieldPositions(schema, positions);
        lastPositions = computed;
        return computed;
    }

    private <S> byte[] encode(S source, FieldReader<S> reader) {
        int width = salt.width();
        int length = width;
        int last = parts.size() - 1;
        for (int i = 0; i <= last; i++) {
            KeyPart part = parts.get(i);
            length += part.encoding().encodedLength(required(source, reader, i), i == last);
        }
        byte[] key = new byte[length];
        int offset = width;
        int hashedEnd = key.length;
        for (int i = 0; i <= last; i++) {
            KeyPart part = parts.get(i);
            offset = part.encoding().encode(required(source, reader, i), i == last, key, offset);
            if (i == hashedParts - 1) {
                hashedEnd = offset;
            }
        }
        writeSalt(key, hashedEnd, modPart >= 0 ? KeyEncodings.number(reader.read(source, modPart), "mod") : 0);
        return key;
    }

    /**
     * Writes the salt of {@code key}, whose parts are in place after the salt's bytes.
     *
     * @param hashedEnd where the parts a {@code hash=} bucket hashes end (the key's length if all)
     * @param modValue  the value of the {@code mod=} part, if the bucket has one
     */
    private void writeSalt(byte[] key, int hashedEnd, long modValue) {
        if (salt instanceof Salt.Bucket bucket) {
            key[0] = (byte) (modPart >= 0
                    ? Math.floorMod(modValue, bucket.buckets())
                    : Math.floorMod(MurmurHash3.hash32x86(key, 1, hashedEnd - 1, 0), bucket.buckets()));
        } else if (salt instanceof Salt.Hex hex) {
            String digest = HexFormat.of().formatHex(md5(key, hex.width()));
            for (int i = 0; i < hex.width(); i++) {
                key[i] = (byte) digest.charAt(digest.length() - hex.width() + i);
            }
        } else if (salt instanceof Salt.Binary bin) {
            byte[] digest = md5(key, bin.width());
            System.arraycopy(digest, digest.length - bin.width(), key, 0, bin.width());
        }
    }

    /**
     * The row key of {@code values}, one per part in order, already of the types the parts'
     * encodings take. Allocates the key array only: the hot path of declared mappings.
     */
    public byte[] encodeParts(Object[] values) {
        if (values.length != parts.size()) {
            throw new IllegalArgumentException("layout " + spec() + " has " + parts.size() + " parts, got "
                    + values.length + " values");
        }
        return encode(values, (source, part) -> source[part]);
    }

    /** The row key of {@code values}, one per part in order. */
    public byte[] encode(Object... values) {
        if (values.length != parts.size()) {
            throw new IllegalArgumentException("layout " + spec() + " has " + parts.size() + " parts, got "
                    + values.length + " values");
        }
        Map<String, Object> byName = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            byName.put(parts.get(i).field(), values[i]);
        }
        return encode(byName::get);
    }

    private <S> Object required(S source, FieldReader<S> reader, int part) {
        Object value = reader.read(source, part);
        if (value == null) {
            throw new InvalidEventException(parts.get(part).field(), null, "is part of the row key and must be present");
        }
        return value;
    }

    private static byte[] md5(byte[] key, int from) {
        MessageDigest md5 = KeyEncodings.md5();
        md5.update(key, from, key.length - from);
        return md5.digest();
    }

    // ---------------------------------------------------------------- decode

    /**
     * The salt and the part values of {@code key}.
     *
     * @throws IllegalArgumentException if {@code key} was not written by this layout
     */
    public DecodedKey decode(byte[] key) {
        int width = salt.width();
        if (key.length < width) {
            throw new IllegalArgumentException("key " + KeyBytes.toStringBinary(key) + " is shorter than the salt of " + spec());
        }
        Object saltValue = null;
        if (salt instanceof Salt.Bucket bucket) {
            int b = key[0] & 0xFF;
            if (b >= bucket.buckets()) {
                throw new IllegalArgumentException("bucket " + b + " of key " + KeyBytes.toStringBinary(key)
                        + " is outside the " + bucket.buckets() + " buckets of " + spec());
            }
            saltValue = b;
        } else if (salt instanceof Salt.Hex hex) {
            saltValue = new String(key, 0, hex.width(), java.nio.charset.StandardCharsets.US_ASCII);
        } else if (salt instanceof Salt.Binary bin) {
            saltValue = HexFormat.of().formatHex(key, 0, bin.width());
        }
        Map<String, Object> values = new LinkedHashMap<>();
        int offset = width;
        int last = parts.size() - 1;
        try {
            for (int i = 0; i <= last; i++) {
                KeyEncoding encoding = parts.get(i).encoding();
                int end = encoding.end(key, offset, i == last);
                if (end > key.length) {
                    throw new IllegalArgumentException("part " + parts.get(i).spec() + " runs past the end");
                }
                values.put(parts.get(i).field(), encoding.decode(key, offset, end, i == last));
                offset = end;
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("key " + KeyBytes.toStringBinary(key) + " does not fit layout " + spec()
                    + ": " + e.getMessage(), e);
        }
        if (offset != key.length) {
            throw new IllegalArgumentException("key " + KeyBytes.toStringBinary(key) + " has " + (key.length - offset)
                    + " bytes after the last part of layout " + spec());
        }
        return new DecodedKey(saltValue, values);
    }

    /**
     * Checks that {@code key} is bytes {@link #encode} can write, part by part: a text part is
     * non-empty UTF-8 without NUL (so the last part holds no {@code 0x00}); every other part reads
     * back as a value that encodes to the same bytes (a {@code ts} part is no negative time, a
     * {@code dec} part has no leading zeros); nothing follows the last part. {@code md5} and
     * {@code uid} parts may be any bytes of their width. The salt is not checked: compare it with
     * {@link #saltOf}.
     *
     * @return the decoded key
     * @throws IllegalArgumentException starting {@code offset N:}, N the first byte encode could
     *                                  not have written
     */
    public DecodedKey decodeExact(byte[] key) {
        int width = salt.width();
        if (key.length < width) {
            throw new IllegalArgumentException("offset " + key.length + ": the key ends inside the " + width
                    + "-byte salt " + salt.spec());
        }
        if (salt instanceof Salt.Bucket bucket && (key[0] & 0xFF) >= bucket.buckets()) {
            throw new IllegalArgumentException("offset 0: bucket " + (key[0] & 0xFF) + " is not one of the "
                    + bucket.buckets() + " buckets of " + salt.spec());
        }
        if (salt instanceof Salt.Hex hex) {
            for (int i = 0; i < hex.width(); i++) {
                if (Character.digit(key[i], 16) < 0 || Character.isUpperCase(key[i])) {
                    throw new IllegalArgumentException("offset " + i + ": byte " + hexByte(key[i])
                            + " is not a lower-case hex digit of the salt " + salt.spec());
                }
            }
        }
        int offset = width;
        int last = parts.size() - 1;
        for (int i = 0; i <= last; i++) {
            KeyPart part = parts.get(i);
            KeyEncoding encoding = part.encoding();
            if (offset >= key.length && !(i == last && encoding == KeyEncodings.TEXT)) {
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
            int valueEnd = i == last || (encoding != KeyEncodings.TEXT && encoding != KeyEncodings.DECIMAL) ? end : end - 1;
            if (encoding == KeyEncodings.TEXT) {
                checkText(part, key, offset, valueEnd);
            } else if (encoding != KeyEncodings.MD5 && !encoding.token().equals("uid")) {
                checkRoundTrip(part, i == last, key, offset, end);
            }
            offset = end;
        }
        if (offset != key.length) {
            throw new IllegalArgumentException("offset " + offset + ": " + (key.length - offset)
                    + " bytes after the last part '" + parts.get(last).spec() + "'");
        }
        return decode(key);
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
        java.nio.charset.CharsetDecoder utf8 = java.nio.charset.StandardCharsets.UTF_8.newDecoder();
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(key, from, to - from);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(to - from);
        java.nio.charset.CoderResult result = utf8.decode(in, out, true);
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

    /**
     * The salt bytes {@link #encode} writes in front of the parts of {@code key} (empty for an
     * unsalted layout): a key whose own salt differs was written by another layout.
     *
     * @param key a key that {@link #decodeExact} accepts
     */
    public byte[] saltOf(byte[] key) {
        int width = salt.width();
        if (width == 0) {
            return new byte[0];
        }
        int offset = width;
        int hashedEnd = key.length;
        long modValue = 0;
        int last = parts.size() - 1;
        for (int i = 0; i <= last; i++) {
            int end = parts.get(i).encoding().end(key, offset, i == last);
            if (i == modPart) {
                modValue = (Long) parts.get(i).encoding().decode(key, offset, end, i == last);
            }
            offset = end;
            if (i == hashedParts - 1) {
                hashedEnd = offset;
            }
        }
        byte[] again = key.clone();
        writeSalt(again, hashedEnd, modValue);
        return Arrays.copyOf(again, width);
    }

    /** The key without its salt prefix. */
    public byte[] unsalted(byte[] key) {
        return Arrays.copyOfRange(key, salt.width(), key.length);
    }

    // ---------------------------------------------------------------- reads

    /**
     * The key ranges that hold exactly the rows {@code query} asks for, ordered by start key. With
     * a salt the query cannot pin down, one range per salt prefix: merge their rows with
     * {@link #mergeOrder()} to read them in unsalted key order.
     *
     * @throws IllegalArgumentException if the query does not fit the layout: more values than
     *                                  parts, a range on a part without byte order, or a fan-out
     *                                  over more than {@link #MAX_FAN_OUT} salt prefixes
     */
    public List<KeyRange> scanRanges(KeyQuery query) {
        int fixed = query.equal().size();
        int last = parts.size() - 1;
        if (fixed > parts.size() || (fixed == parts.size() && query.hasRange())) {
            throw new IllegalArgumentException("query " + query + " has more parts than layout " + spec());
        }
        ByteArrayOutputStream prefix = new ByteArrayOutputStream();
        int hashedEnd = -1;
        for (int i = 0; i < fixed; i++) {
            KeyPart part = parts.get(i);
            Object value = query.equal().get(i);
            byte[] bytes = new byte[part.encoding().encodedLength(value, i == last)];
            part.encoding().encode(value, i == last, bytes, 0);
            prefix.writeBytes(bytes);
            if (i == hashedParts - 1) {
                hashedEnd = prefix.size();
            }
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
                    long to = query.to() == null ? 0 : KeyEncodings.number(query.to(), part.field());
                    start = query.to() == null ? p : concat(p, bound(part, to - 1, isLast));
                    stop = query.from() == null ? prefixEnd(p) : prefixEnd(concat(p, bound(part, query.from(), isLast)));
                }
                default -> throw new IllegalArgumentException("part " + part.spec() + " of layout " + spec()
                        + " has no byte order, so a range on it is no key range");
            }
        } else {
            start = p;
            stop = prefixEnd(p);
        }
        return salted(start, stop, query, fixed, hashedEnd, p);
    }

    private List<KeyRange> salted(byte[] start, byte[] stop, KeyQuery query, int fixed, int hashedEnd, byte[] prefix) {
        List<byte[]> prefixes;
        if (salt instanceof Salt.Bucket bucket) {
            Integer pinned = null;
            if (modPart >= 0 && modPart < fixed) {
                pinned = Math.floorMod(KeyEncodings.number(query.equal().get(modPart), "mod"), bucket.buckets());
            } else if (modPart < 0 && hashedParts > 0 && hashedParts <= fixed) {
                pinned = Math.floorMod(MurmurHash3.hash32x86(prefix, 0, hashedEnd, 0), bucket.buckets());
            } else if (modPart < 0 && hashedParts == 0 && fixed == parts.size()) {
                pinned = Math.floorMod(MurmurHash3.hash32x86(prefix, 0, prefix.length, 0), bucket.buckets());
            }
            prefixes = new ArrayList<>();
            for (int b = 0; b < bucket.buckets(); b++) {
                if (pinned == null || pinned == b) {
                    prefixes.add(new byte[] {(byte) b});
                }
            }
        } else if (salt instanceof Salt.Hex hex) {
            prefixes = fixed == parts.size() ? List.of(Arrays.copyOf(encodeFull(query), hex.width()))
                    : hexPrefixes(hex.width());
        } else if (salt instanceof Salt.Binary bin) {
            prefixes = fixed == parts.size() ? List.of(Arrays.copyOf(encodeFull(query), bin.width()))
                    : binaryPrefixes(bin.width());
        } else {
            prefixes = List.of(new byte[0]);
        }
        List<KeyRange> ranges = new ArrayList<>(prefixes.size());
        for (byte[] saltPrefix : prefixes) {
            ranges.add(new KeyRange(concat(saltPrefix, start),
                    stop.length == 0 ? prefixEnd(saltPrefix) : concat(saltPrefix, stop)));
        }
        return ranges;
    }

    private byte[] encodeFull(KeyQuery query) {
        return encode(query.equal().toArray());
    }

    private static List<byte[]> hexPrefixes(int width) {
        long count = 1L << (4 * width);
        checkFanOut(count, "hex(" + width + ")");
        List<byte[]> all = new ArrayList<>((int) count);
        for (long i = 0; i < count; i++) {
            all.add(hex(i, width));
        }
        return all;
    }

    private static List<byte[]> binaryPrefixes(int width) {
        long count = 1L << (8 * width);
        checkFanOut(count, "bin(" + width + ")");
        List<byte[]> all = new ArrayList<>((int) count);
        for (long i = 0; i < count; i++) {
            all.add(bigEndian(i, width));
        }
        return all;
    }

    private static void checkFanOut(long count, String salt) {
        if (count > MAX_FAN_OUT) {
            throw new IllegalArgumentException("a range over a " + salt + " salt needs " + count
                    + " scans (more than " + MAX_FAN_OUT + "): hashing the whole key makes ranges unscannable "
                    + "(seed 000); use bucket(N) or a partial-key salt for range reads");
        }
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

    /**
     * The smallest key greater than every key that starts with {@code prefix}: trailing
     * {@code 0xFF} bytes dropped, the last other byte incremented ({@code [01 FF] -> [02]}); empty
     * (the end of the table) when there is no such key.
     */
    public static byte[] prefixEnd(byte[] prefix) {
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

    /** Orders keys by their unsalted part: how rows of several salt ranges merge back. */
    public Comparator<byte[]> mergeOrder() {
        int width = salt.width();
        return (a, b) -> Arrays.compareUnsigned(a, width, a.length, b, width, b.length);
    }

    // ---------------------------------------------------------------- splits

    /**
     * The pre-split of a new table: one region per bucket for {@code bucket(N)}, 16 regions for a
     * hex/binary salt or a leading md5 part, none where the leading bytes are not spread by design
     * (such a table splits by size as it grows).
     */
    public List<byte[]> defaultSplitPoints() {
        if (salt instanceof Salt.Bucket bucket) {
            return splitPoints(bucket.buckets());
        }
        if (salt.width() > 0 || parts.get(0).encoding() == KeyEncodings.MD5) {
            return splitPoints(16);
        }
        return List.of();
    }

    /**
     * Region boundaries ({@code regions - 1} of them) that give every region keys, from the salt:
     * at bucket boundaries for {@code bucket(N)} (regions at most N), evenly over the hex digits
     * for {@code hex(W)} -- not {@code Bytes.split} over raw bytes, which leaves the regions
     * between {@code '9'} and {@code 'a'} empty (seed 002, 1.3.6) -- and over the bytes for
     * {@code bin(W)} or a leading {@code md5} part.
     *
     * @throws IllegalArgumentException for a layout whose leading bytes are not spread by design
     *                                  (use {@link #splitPoints(int, Collection)} with sample keys)
     */
    public List<byte[]> splitPoints(int regions) {
        if (regions < 1) {
            throw new IllegalArgumentException("regions must be >= 1, got " + regions);
        }
        List<byte[]> splits = new ArrayList<>();
        if (salt instanceof Salt.Bucket bucket) {
            if (regions > bucket.buckets()) {
                throw new IllegalArgumentException(regions + " regions over " + bucket.buckets()
                        + " buckets would leave regions empty: at most one region per bucket");
            }
            for (int i = 1; i < regions; i++) {
                splits.add(new byte[] {(byte) ((long) i * bucket.buckets() / regions)});
            }
        } else if (salt instanceof Salt.Hex hex) {
            long space = 1L << (4 * hex.width());
            checkRegions(regions, space, salt.spec());
            for (int i = 1; i < regions; i++) {
                splits.add(hex(i * space / regions, hex.width()));
            }
        } else if (salt instanceof Salt.Binary bin) {
            evenBytes(regions, bin.width(), splits, salt.spec());
        } else {
            if (parts.get(0).encoding() != KeyEncodings.MD5) {
                throw new IllegalArgumentException("layout " + spec() + " leads with " + parts.get(0).spec()
                        + ", whose bytes are not spread by design: split from sample keys instead");
            }
            evenBytes(regions, 2, splits, "md5");
        }
        return splits;
    }

    /**
     * Region boundaries at the quantiles of {@code sampleKeys} (distinct keys, e.g. one per known
     * host): each region gets a share of the samples.
     */
    public static List<byte[]> splitPoints(int regions, Collection<byte[]> sampleKeys) {
        List<byte[]> sorted = new ArrayList<>(sampleKeys);
        sorted.sort(Arrays::compareUnsigned);
        List<byte[]> distinct = new ArrayList<>();
        for (byte[] key : sorted) {
            if (distinct.isEmpty() || !Arrays.equals(distinct.get(distinct.size() - 1), key)) {
                distinct.add(key);
            }
        }
        if (regions < 1 || regions > distinct.size()) {
            throw new IllegalArgumentException(regions + " regions need at least as many distinct sample keys, got "
                    + distinct.size());
        }
        List<byte[]> splits = new ArrayList<>();
        for (int i = 1; i < regions; i++) {
            splits.add(distinct.get((int) ((long) i * distinct.size() / regions)));
        }
        return splits;
    }

    private static void evenBytes(int regions, int width, List<byte[]> splits, String what) {
        long space = 1L << (8 * width);
        checkRegions(regions, space, what);
        for (int i = 1; i < regions; i++) {
            splits.add(bigEndian(i * space / regions, width));
        }
    }

    private static void checkRegions(int regions, long space, String what) {
        if (regions > space) {
            throw new IllegalArgumentException(regions + " regions exceed the " + space + " prefixes of " + what);
        }
    }

    private static byte[] hex(long value, int width) {
        String digits = HexFormat.of().toHexDigits(value);
        return digits.substring(digits.length() - width).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static byte[] bigEndian(long value, int width) {
        byte[] bytes = new byte[width];
        for (int i = width - 1; i >= 0; i--) {
            bytes[i] = (byte) value;
            value >>>= 8;
        }
        return bytes;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
