package dev.rowflow.keying.log;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.KeyBytes;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Row key of the log data table: the seed's time-led key with a salt bucket in front,
 * {@code [bucket][timestamp][hostname][log-event]} (seed 002, section 1.11.1.1).
 *
 * <p>A time-led key alone sends every write of the moment to one region (the monotonically
 * increasing key problem, section 1.3.1). The bucket spreads consecutive events over
 * {@code buckets} key ranges, and the table is pre-split at bucket boundaries
 * ({@link #splitPoints()}) so each range is its own region from the first write on. The bucket
 * is a hash of the rest of the key, never random or round-robin: a replayed event lands on the
 * same row.
 *
 * <h2>Byte layout</h2>
 * <pre>
 * offset  length  part
 * 0       1       bucket: floorMod(first 4 bytes of MD5(unsalted key) as a big-endian int, buckets)
 * 1       8       event time, ms since the epoch, big-endian (non-negative)
 * 9       n       hostname, UTF-8, no NUL
 * 9+n     1       0x00, ends the hostname
 * 10+n    m       log-event type, UTF-8, no NUL, to the end of the key
 * </pre>
 * The unsalted key is bytes 1 to the end; dropping the first byte recovers it.
 *
 * <h2>Sort order</h2>
 * By bucket, then event time, then hostname, then event type. Within one bucket keys are in time
 * order, so a time range is one scan per bucket, merged back in time order.
 *
 * <h2>Example</h2>
 * host {@code web-01}, type {@code login}, time {@code 1364248490000}, 16 buckets: the unsalted
 * key is {@code 00 00 01 3D A3 8B F0 10 'web-01' 00 'login'}; its MD5 starts {@code CD 14 7E 7F},
 * {@code floorMod(0xCD147E7F, 16) = 15}, so the row key is {@code 0F} followed by the unsalted key.
 */
public final class BucketedLogKey {
    /** The bucket is one unsigned byte. */
    public static final int MAX_BUCKETS = 256;

    private static final int TIME_OFFSET = 1;
    private static final int HOST_OFFSET = TIME_OFFSET + Long.BYTES;

    private final int buckets;

    public BucketedLogKey(int buckets) {
        if (buckets < 1 || buckets > MAX_BUCKETS) {
            throw new IllegalArgumentException("salt buckets must be in [1, " + MAX_BUCKETS + "], got " + buckets);
        }
        this.buckets = buckets;
    }

    /** The row key of an event; see the class javadoc for the layout. */
    public byte[] encode(String hostname, long timestamp, String eventType) {
        byte[] host = KeyBytes.textPart("hostname", hostname);
        byte[] type = KeyBytes.textPart("eventType", eventType);
        byte[] key = new byte[HOST_OFFSET + host.length + 1 + type.length];
        KeyBytes.putLong(key, TIME_OFFSET, KeyBytes.eventTime(timestamp));
        System.arraycopy(host, 0, key, HOST_OFFSET, host.length);
        key[HOST_OFFSET + host.length] = KeyBytes.TERMINATOR;
        System.arraycopy(type, 0, key, HOST_OFFSET + host.length + 1, type.length);
        key[0] = (byte) bucketOf(key, 1, key.length - 1);
        return key;
    }

    /** The bucket an unsalted key {@code bytes[offset, offset+length)} belongs to. */
    public int bucketOf(byte[] bytes, int offset, int length) {
        byte[] md5 = KeyBytes.md5(bytes, offset, length);
        int hash = ((md5[0] & 0xFF) << 24) | ((md5[1] & 0xFF) << 16) | ((md5[2] & 0xFF) << 8) | (md5[3] & 0xFF);
        return Math.floorMod(hash, buckets);
    }

    /** The fields of a key written by {@link #encode}. */
    public LogKey decode(byte[] key) {
        int end = KeyBytes.indexOfTerminator(key, HOST_OFFSET);
        if (key.length < HOST_OFFSET + 3 || end < 0) {
            throw new IllegalArgumentException("not a bucketed log key: " + KeyBytes.toStringBinary(key));
        }
        int bucket = key[0] & 0xFF;
        if (bucket >= buckets) {
            throw new IllegalArgumentException("bucket " + bucket + " of key " + KeyBytes.toStringBinary(key)
                    + " is outside this layout's " + buckets + " buckets");
        }
        return new LogKey(
                bucket,
                KeyBytes.getLong(key, TIME_OFFSET),
                new String(key, HOST_OFFSET, end - HOST_OFFSET, StandardCharsets.UTF_8),
                new String(key, end + 1, key.length - end - 1, StandardCharsets.UTF_8));
    }

    /** The key without its bucket byte. */
    public static byte[] unsalted(byte[] key) {
        if (key.length < 2) {
            throw new InvalidEventException("row key", KeyBytes.toStringBinary(key), "too short to carry a bucket");
        }
        return Arrays.copyOfRange(key, 1, key.length);
    }

    /**
     * Region boundaries that give every bucket its own region: {@code {1}, {2}, ..., {buckets-1}}
     * (one byte each), so {@code buckets} regions, none of them empty.
     */
    public List<byte[]> splitPoints() {
        List<byte[]> splits = new ArrayList<>(buckets - 1);
        for (int b = 1; b < buckets; b++) {
            splits.add(new byte[] {(byte) b});
        }
        return splits;
    }
}
