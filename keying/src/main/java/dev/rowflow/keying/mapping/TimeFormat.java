package dev.rowflow.keying.mapping;

import dev.rowflow.keying.InvalidEventException;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * How an event-time value becomes epoch milliseconds (UTC). Sub-millisecond parts are floored,
 * before 1970 too, so an event never moves into the next millisecond (or row) of its time.
 *
 * <table>
 *   <caption>Time formats</caption>
 *   <tr><th>spec</th><th>takes</th><th>example value</th><th>epoch ms</th></tr>
 *   <tr><td>{@code epoch-ms}</td><td>whole or decimal number, or a string of one</td>
 *       <td>{@code 1795334400123}</td><td>{@code 1795334400123}</td></tr>
 *   <tr><td>{@code epoch-s}</td><td>the same, a fraction being common (Fluent Bit)</td>
 *       <td>{@code 1795334400.123456}</td><td>{@code 1795334400123}</td></tr>
 *   <tr><td>{@code epoch-us}</td><td>the same</td>
 *       <td>{@code 1795334400123456}</td><td>{@code 1795334400123}</td></tr>
 *   <tr><td>{@code epoch-ns}</td><td>the same</td>
 *       <td>{@code 1795334400123456789}</td><td>{@code 1795334400123}</td></tr>
 *   <tr><td>{@code iso8601}</td><td>an ISO-8601 / RFC 3339 string with an offset
 *       ({@code Z}, {@code +01:00}, {@code +0100} or {@code +01}), 0 to 9 fraction digits,
 *       {@code T}, {@code t} or a space between date and time (Filebeat, Logstash, Vector)</td>
 *       <td>{@code 2026-11-22T09:00:00.123456789+01:00}</td><td>{@code 1795334400123}</td></tr>
 *   <tr><td>{@code pattern:<p>}</td><td>a string in {@link DateTimeFormatter} pattern {@code p}
 *       (English month and day names); the configured zone applies where {@code p} has no
 *       offset or zone</td>
 *       <td>{@code 22/Nov/2026:08:00:00 +0000} with {@code pattern:dd/MMM/yyyy:HH:mm:ss Z}</td>
 *       <td>{@code 1795334400000}</td></tr>
 *   <tr><td>{@code f1, f2, ...}</td><td>what any of the formats takes, tried in order: the
 *       first that reads the value wins (a topic whose producers, or whose producer's versions,
 *       write the time differently)</td>
 *       <td>{@code 1795334400.5} or {@code 2026-11-22T08:00:00Z} with {@code epoch-s, iso8601}</td>
 *       <td>{@code 1795334400500}, {@code 1795334400000}</td></tr>
 * </table>
 *
 * Epoch formats also take Avro {@code double}/{@code float} values, floored after scaling: a
 * double holds about a microsecond at today's epoch nanoseconds, so milliseconds are exact.
 * Whatever does not fit (an object, a boolean, a number beyond 64 bits, a millisecond count
 * beyond 64 bits, a string that is not a time) is an {@link InvalidEventException} naming the
 * path, the value and what was expected, for the dead-letter topic.
 *
 * <p>Parsed once per input; immutable and thread-safe. Converting allocates nothing for epoch
 * numbers and only java.time's own parse state for strings.
 *
 * <p>This interface is the contract; the spec is parsed by {@code TimeFormatSpec} and each kind
 * reads values in its own class ({@code EpochTimeFormat}, {@code Iso8601TimeFormat},
 * {@code PatternTimeFormat}, {@code FirstOfTimeFormat}), all of this package, so the set of
 * formats stays closed.
 */
public sealed interface TimeFormat
        permits EpochTimeFormat, Iso8601TimeFormat, PatternTimeFormat, FirstOfTimeFormat {

    /** The spec as configured, e.g. {@code "epoch-ms"} or {@code "pattern:yyyy-MM-dd HH:mm:ss"}. */
    String spec();

    /**
     * Epoch ms of {@code value} (the value found at the time path), flooring sub-millisecond parts.
     *
     * @param path  the time path as written, for the error
     * @param value a record-tree value, never {@link RecordTree#NULL} or null
     * @throws InvalidEventException (path, value, reason) when the value does not fit
     */
    long millis(String path, Object value);

    /**
     * Parses a spec.
     *
     * @param zone used by patterns without an offset or zone
     * @throws IllegalArgumentException naming the spec and listing the valid forms
     */
    static TimeFormat parse(String spec, ZoneId zone) {
        return TimeFormatSpec.parse(spec, zone);
    }
}
