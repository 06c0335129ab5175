package dev.rowflow.keying;

/**
 * An event that cannot be turned into rows because of its own content (an empty hostname, a NUL
 * byte inside a key part, a negative timestamp). Retrying cannot help: the pipeline sets such a
 * record aside on the dead-letter topic with this message as its reason.
 */
public class InvalidEventException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String field;
    private final String reason;

    public InvalidEventException(String field, Object value, String reason) {
        super("invalid " + field + " " + quote(value) + ": " + reason);
        this.field = field;
        this.reason = reason;
    }

    /** The event field at fault, e.g. {@code hostname}. */
    public String field() {
        return field;
    }

    /** Why the value is refused, without the value: the same for every record refused alike. */
    public String reason() {
        return reason;
    }

    private static String quote(Object value) {
        if (value == null) {
            return "null";
        }
        String s = String.valueOf(value);
        // Keep the reason short enough for a Kafka header and a log line.
        if (s.length() > 120) {
            s = s.substring(0, 120) + "...(" + s.length() + " chars)";
        }
        return "'" + s.replace("\0", "\\0") + "'";
    }
}
