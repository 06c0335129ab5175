package dev.rowflow.keying;

/**
 * Why a record is set aside, as a kind: each kind is a different fix for whoever reads the
 * dead letter, and code tells them apart by this, never by a message's text. The dead letter
 * carries it in its {@code rowflow.refusal} header; {@code mapping check} and
 * {@code mapping suggest} report by it.
 *
 * <p>The names reach the dead-letter topics' headers: DO NOT rename them.
 */
public enum Refusal {
    /** Not a record in the input's format: invalid JSON, not an object, bytes no schema reads. */
    UNREADABLE("not a record in the input's format"),
    /** Not a change event rowflow applies to rows: an operation it does not apply, a missing image. */
    NOT_A_CHANGE("not a change event rowflow applies to rows"),
    /** A field the row needs (a key part, the time) is absent. */
    MISSING("a field the row needs is missing"),
    /** A field the row needs is JSON null. */
    NULL("a field the row needs is null"),
    /** A value of another kind than its part, column or function takes (text where a number is). */
    WRONG_KIND("a value of another kind than expected"),
    /** A number out of its range: beyond 64 bits, before 1970, a TTL not positive, a time too far off. */
    OUT_OF_RANGE("a value out of its range"),
    /** An empty value or row: an empty text key part, a record with none of the mapped columns. */
    EMPTY("an empty value, or a row without cells"),
    /** Text a key cannot hold: NUL, an unpaired surrogate, U+FFFD. */
    NOT_ENCODABLE("text a row key cannot hold"),
    /** A time none of the declared time formats reads. */
    UNREAD_TIME("a time no declared format reads"),
    /** A row key or cell over the store's limits. */
    TOO_LARGE("over the store's size limits"),
    /** A tombstone (null value) on a topic whose input takes no tombstones. */
    TOMBSTONE("a tombstone the input does not take"),
    /** No input of the topic takes the record ({@code unrouted=dead-letter}). */
    UNROUTED("no input of the topic takes it"),
    /** A rule of the input's preset (the orders pipeline's). */
    PRESET_RULE("refused by the preset's rules"),
    /**
     * No table can take the rows of the record's topic ({@code topic.pattern}): the table its
     * name makes records another key layout, or is named as another input's.
     */
    NO_TABLE("no table can take the rows of its topic");

    private final String description;

    Refusal(String description) {
        this.description = description;
    }

    /** What the kind means, for a report. */
    public String description() {
        return description;
    }
}
