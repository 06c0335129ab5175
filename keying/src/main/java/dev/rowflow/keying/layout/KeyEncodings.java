package dev.rowflow.keying.layout;

import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The key part encodings of the seeds, by spec token: the registry a layout spec's tokens are
 * looked up in. Each javadoc is the format of its part; the encoding itself is a package-private
 * class of one encoding family ({@code TextEncoding}, {@code Md5Encoding},
 * {@code EightByteEncoding}, {@code DecimalEncoding}, {@code OneByteEncoding},
 * {@code OrderedIntEncoding}), whose javadoc repeats the layout.
 *
 * <p>DO NOT modify the byte layouts specified here: they are on disk in every table rowflow wrote.
 */
public final class KeyEncodings {

    /**
     * {@code text}: variable-length raw UTF-8 (seed 002, 1.11.1.4 "variable length"). A part that
     * is not the last ends with one {@code 0x00}; values containing NUL (U+0000) are refused, so
     * the terminator is unambiguous. Order-preserving: {@code 0x00} sorts below every UTF-8 byte,
     * so {@code "web-1"} sorts before {@code "web-10"}, as the texts do (UTF-8 byte order is code
     * point order). Example: {@code "web-01"} not last -> {@code 77 65 62 2D 30 31 00}.
     */
    public static final KeyEncoding TEXT = new TextEncoding();

    /**
     * {@code md5}: the 16-byte MD5 digest of the value's UTF-8 bytes (seed 002, 1.11.1.4
     * "Composite Rowkey With Hashes"). Fixed width, so no terminator; spreads writes; not
     * recoverable and in no useful order. Any text is hashed, NUL included (the digest has no
     * terminator to confuse). Example: {@code "web-01"} -> 16 bytes {@code 4F 8D ...}; decoding
     * gives a {@link HashedValue}.
     */
    public static final KeyEncoding MD5 = new Md5Encoding();

    /**
     * {@code long}: an order-preserving 8-byte signed long: big-endian with the sign bit flipped,
     * so {@code Long.MIN_VALUE -> 00 00 00 00 00 00 00 00}, {@code -1 -> 7F FF FF FF FF FF FF FF},
     * {@code 0 -> 80 00 00 00 00 00 00 00}, {@code 42 -> 80 00 00 00 00 00 00 2A}.
     */
    public static final KeyEncoding LONG = new EightByteEncoding.OrderedLong();

    /**
     * {@code ts}: event time in ms since the epoch as 8 bytes big-endian, like HBase's
     * {@code Bytes.toBytes(long)}; negative times are refused, so byte order is time order.
     * Example: {@code 1364248490000 -> 00 00 01 3D A3 8B F0 10}.
     */
    public static final KeyEncoding TIMESTAMP = new EightByteEncoding.Timestamp();

    /**
     * {@code rts}: reverse timestamp, {@code Long.MAX_VALUE - ts} as 8 bytes big-endian (seed
     * 002, 1.3.3): newest first. Example: {@code 1364248490000 -> 7F FF FE C2 5C 74 0F EF}.
     */
    public static final KeyEncoding REVERSE_TIMESTAMP = new EightByteEncoding.ReverseTimestamp();

    /**
     * {@code dec}: a long as its decimal ASCII digits, the form of the seeds' salting example
     * ({@code 1364248490} -> {@code "1364248490"}). Terminated by {@code 0x00} unless last. Byte
     * order equals numeric order only among values with the same number of digits.
     */
    public static final KeyEncoding DECIMAL = new DecimalEncoding();

    /**
     * {@code uid}: numeric substitution (seed 002, 1.11.1.4): the 8-byte id a {@link UidResolver}
     * assigned to the value, big-endian. Fixed width; decodes to the id, which the resolver maps
     * back to the name. Ids are assigned in first-seen order, so byte order is not name order.
     */
    public static KeyEncoding uid(String kind, UidResolver resolver) {
        return new EightByteEncoding.Uid(kind, resolver);
    }

    /**
     * {@code byte}: one unsigned byte, e.g. a record type of the single-table designs
     * (CUSTOMER++: {@code 'C'} customer, {@code 'O'} order). Values 0..255 or a one-character
     * string. Example: {@code "O" -> 4F}.
     */
    public static final KeyEncoding BYTE = new OneByteEncoding();

    /**
     * {@code int}: an order-preserving 4-byte signed int, big-endian with the sign bit flipped,
     * for small sequence numbers such as the shipping location and line item numbers of an order
     * (half the width of {@code long}: keys stay short). Example: {@code 1 -> 80 00 00 01}.
     */
    public static final KeyEncoding INT = new OrderedIntEncoding();

    private static final Map<String, KeyEncoding> BY_TOKEN = Stream.of(TEXT, MD5, LONG, TIMESTAMP,
                    REVERSE_TIMESTAMP, DECIMAL, BYTE, INT)
            .collect(Collectors.toUnmodifiableMap(KeyEncoding::token, Function.identity()));

    private KeyEncodings() {
    }

    /** The stateless encoding named {@code token}, or null ({@code uid} needs a resolver). */
    static KeyEncoding byToken(String token) {
        return BY_TOKEN.get(token);
    }

    static String tokens() {
        return BY_TOKEN.keySet().stream().sorted().collect(Collectors.joining(", ")) + ", uid";
    }
}
