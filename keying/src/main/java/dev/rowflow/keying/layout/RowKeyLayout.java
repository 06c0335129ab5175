package dev.rowflow.keying.layout;

import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.KeyBytes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
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
 * <h2>Reads and regions</h2>
 * {@link #scanRanges} turns a {@link KeyQuery} into key ranges: one per salt prefix the query
 * cannot pin down, to be merged back by {@link #mergeOrder()} ({@link ScanRanges}).
 * {@link #splitPoints} gives region boundaries that put keys into every region
 * ({@link SplitPoints}). {@link #decodeExact} decodes only keys {@link #encode} can write
 * ({@link ExactDecoder}). What the salt contributes to each, each {@link Salt} variant says itself.
 *
 * <p>Immutable and thread-safe (given a thread-safe {@link UidResolver}).
 */
public final class RowKeyLayout {
    private final Salt salt;
    private final List<KeyPart> parts;

    public RowKeyLayout(Salt salt, List<KeyPart> parts) {
        this.salt = salt;
        this.parts = List.copyOf(parts);
        if (this.parts.isEmpty()) {
            throw new IllegalArgumentException("a layout needs at least one key part");
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (KeyPart part : this.parts) {
            // A number is a constant (a record-type byte), the same in every key: it may stand twice.
            if (!seen.add(part.field()) && !part.field().matches("-?[0-9]+")) {
                throw new IllegalArgumentException(part.field() + " is in the key twice: a key holds each field once");
            }
        }
        salt.checkFits(this.parts);
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
        for (int i = 0; i <= last; i++) {
            KeyPart part = parts.get(i);
            offset = part.encoding().encode(required(source, reader, i), i == last, key, offset);
        }
        salt.write(key, parts);
        return key;
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
        return EventRules.keyPartPresent(parts.get(part).field(), reader.read(source, part));
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
        Object saltValue = salt.read(key);
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
     * {@code uid} parts may be any bytes of their width. The salt must be a prefix the salt writes;
     * whether it is the one the parts give is not checked: compare it with {@link #saltOf}.
     *
     * @return the decoded key
     * @throws IllegalArgumentException starting {@code offset N:}, N the first byte encode could
     *                                  not have written
     */
    public DecodedKey decodeExact(byte[] key) {
        return ExactDecoder.decode(this, key);
    }

    /**
     * The salt bytes {@link #encode} writes in front of the parts of {@code key} (empty for an
     * unsalted layout): a key whose own salt differs was written by another layout.
     *
     * @param key a key that {@link #decodeExact} accepts
     */
    public byte[] saltOf(byte[] key) {
        byte[] again = key.clone();
        salt.write(again, parts);
        return Arrays.copyOf(again, salt.width());
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
     *                                  over more than {@value Salt#MAX_FAN_OUT} salt prefixes
     */
    public List<KeyRange> scanRanges(KeyQuery query) {
        return ScanRanges.of(this, query);
    }

    /**
     * The smallest key greater than every key that starts with {@code prefix}: trailing
     * {@code 0xFF} bytes dropped, the last other byte incremented ({@code [01 FF] -> [02]}); empty
     * (the end of the table) when there is no such key.
     */
    public static byte[] prefixEnd(byte[] prefix) {
        return ScanRanges.prefixEnd(prefix);
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
        return SplitPoints.byDefault(this);
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
        return SplitPoints.even(this, regions);
    }

    /**
     * Whether the leading bytes of keys are spread over the key space by design -- by a salt, or by
     * a leading part whose bytes are spread evenly (an {@code md5} digest) -- so that
     * {@link #splitPoints(int)} can give every region keys without sample keys.
     */
    public boolean spreadByDesign() {
        return SplitPoints.spreadByDesign(this);
    }

    /**
     * Region boundaries at the quantiles of {@code sampleKeys} (distinct keys, e.g. one per known
     * host): each region gets a share of the samples.
     */
    public static List<byte[]> splitPoints(int regions, Collection<byte[]> sampleKeys) {
        return SplitPoints.fromSamples(regions, sampleKeys);
    }
}
