package dev.rowflow.keying.log;

import dev.rowflow.keying.KeyBytes;

import java.nio.charset.StandardCharsets;

/**
 * Row key of the log index table: host-led with a reverse timestamp,
 * {@code [hostname][log-event][Long.MAX_VALUE - timestamp]} (seed 002, sections 1.11.1.2 and
 * 1.11.1.3).
 *
 * <p>A scan over the prefix {@code [hostname]} or {@code [hostname][log-event]} returns that
 * host's events newest first. The hostname leads, so with many hosts the writes spread over the
 * key space without a salt, and one host's rows stay in one contiguous range.
 *
 * <h2>Byte layout</h2>
 * <pre>
 * offset  length  part
 * 0       n       hostname, UTF-8, no NUL
 * n       1       0x00, ends the hostname
 * n+1     m       log-event type, UTF-8, no NUL
 * n+1+m   1       0x00, ends the event type (so the prefix of type "auth" does not match "auth.fail")
 * n+2+m   8       Long.MAX_VALUE - event time (ms), big-endian
 * </pre>
 *
 * <h2>Sort order</h2>
 * By hostname, then event type, then newest event first. The terminator 0x00 sorts below every
 * other byte, so {@code "web-1"} sorts before {@code "web-10"} as text does.
 *
 * <h2>Example</h2>
 * host {@code web-01}, type {@code login}, time {@code 1364248490000}:
 * {@code 'web-01' 00 'login' 00 7F FF FE C2 5C 74 0F EF}.
 */
public final class HostLedLogKey {
    private HostLedLogKey() {
    }

    /** The index key of an event; see the class javadoc for the layout. */
    public static byte[] encode(String hostname, long timestamp, String eventType) {
        byte[] host = KeyBytes.textPart("hostname", hostname);
        byte[] type = KeyBytes.textPart("eventType", eventType);
        byte[] key = new byte[host.length + 1 + type.length + 1 + Long.BYTES];
        System.arraycopy(host, 0, key, 0, host.length);
        key[host.length] = KeyBytes.TERMINATOR;
        System.arraycopy(type, 0, key, host.length + 1, type.length);
        key[host.length + 1 + type.length] = KeyBytes.TERMINATOR;
        KeyBytes.putLong(key, host.length + type.length + 2, reverse(KeyBytes.eventTime(timestamp)));
        return key;
    }

    /** The fields of a key written by {@link #encode}; the bucket is -1 (there is none). */
    public static LogKey decode(byte[] key) {
        int hostEnd = KeyBytes.indexOfTerminator(key, 0);
        int typeEnd = hostEnd < 0 ? -1 : KeyBytes.indexOfTerminator(key, hostEnd + 1);
        if (typeEnd < 0 || key.length != typeEnd + 1 + Long.BYTES) {
            throw new IllegalArgumentException("not a host-led log key: " + KeyBytes.toStringBinary(key));
        }
        return new LogKey(
                -1,
                reverse(KeyBytes.getLong(key, typeEnd + 1)),
                new String(key, 0, hostEnd, StandardCharsets.UTF_8),
                new String(key, hostEnd + 1, typeEnd - hostEnd - 1, StandardCharsets.UTF_8));
    }

    /** {@code Long.MAX_VALUE - timestamp}; its own inverse. */
    public static long reverse(long timestamp) {
        return Long.MAX_VALUE - timestamp;
    }
}
