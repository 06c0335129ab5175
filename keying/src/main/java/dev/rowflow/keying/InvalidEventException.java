package dev.rowflow.keying;

/**
 * An event that cannot be turned into rows because of its own content (an empty hostname, a NUL
 * byte inside a key part, a negative timestamp). Retrying cannot help: the pipeline sets such a
 * record aside on the dead-letter topic with this message as its reason.
 */
public class InvalidEventException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final Refusal refusal;
    private final String field;
    private final String reason;

    /**
     * @param refusal what kind of refusal it is (the dead letter's {@code rowflow.refusal} header)
     * @param field   the event field at fault, named in the message
     * @param value   the value refused, shown (shortened) in the message; null if absent
     * @param reason  why, without the value
     */
    public InvalidEventException(Refusal refusal, String field, Object value, String reason) {
        super("invalid " + field + " " + quote(value) + ": " + reason);
        this.refusal = java.util.Objects.requireNonNull(refusal, "refusal");
        this.field = field;
        this.reason = reason;
    }

    private InvalidEventException(String message, Refusal refusal, String field, String reason) {
        super(message);
        this.refusal = refusal;
        this.field = field;
        this.reason = reason;
    }

    /**
     * This refusal of the {@code ordinal}-th record its Kafka record holds (an export request's
     * log record), saying which.
     */
    public InvalidEventException inRecord(int ordinal) {
        return new InvalidEventException("record " + ordinal + " of the Kafka record's: " + getMessage(), refusal,
                field, reason);
    }

    /** What kind of refusal it is. */
    public Refusal refusal() {
        return refusal;
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
        return "'" + printable(s) + "'";
    }

    /**
     * {@code s} as the dead letter's header carries it (UTF-8): NUL as backslash-0, and a surrogate
     * without its pair -- which has no UTF-8 form and would reach the header as {@code ?} -- as
     * backslash-u and its four hex digits.
     */
    private static String printable(String s) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String escaped = null;
            if (c == '\0') {
                escaped = "\\0";
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                if (out != null) {
                    out.append(c).append(s.charAt(i + 1));
                }
                i++;
                continue;
            } else if (Character.isSurrogate(c)) {
                escaped = String.format("\\u%04X", (int) c);
            }
            if (escaped != null && out == null) {
                out = new StringBuilder(s.length() + 8).append(s, 0, i);
            }
            if (out != null) {
                out.append(escaped != null ? escaped : String.valueOf(c));
            }
        }
        return out == null ? s : out.toString();
    }
}
