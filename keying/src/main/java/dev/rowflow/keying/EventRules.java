package dev.rowflow.keying;

/**
 * The rules every record meets before it becomes rows, each decided here once and refused with
 * one wording, whichever path the record takes (a declared mapping, the orders join, a key typed
 * into {@code rowflow keys}, the sink's last check). A refusal is an
 * {@link InvalidEventException}: the pipeline sets the record aside on its dead-letter topic with
 * the message as the reason.
 */
public final class EventRules {

    private EventRules() {
    }

    /**
     * An event time, checked: milliseconds since the epoch, UTC, not before 1970. HBase refuses
     * negative cell timestamps, and big-endian longs (the {@code ts} and {@code rts} key parts) sort
     * numerically only when non-negative.
     *
     * @param field the field the time came from, named in the refusal
     * @return {@code millis}
     * @throws InvalidEventException {@code invalid <field> '<millis>': is before 1970}
     */
    public static long eventTime(String field, long millis) {
        if (millis < 0) {
            throw new InvalidEventException(Refusal.OUT_OF_RANGE, field, millis, "is before 1970");
        }
        return millis;
    }

    /**
     * A value of a row-key part, present.
     *
     * @param value the value, or null if the record has none
     * @throws InvalidEventException {@code invalid <field> null: is missing: it is part of the row key}
     */
    public static <T> T keyPartPresent(String field, T value) {
        if (value == null) {
            throw new InvalidEventException(Refusal.MISSING, field, null, "is missing: it is part of the row key");
        }
        return value;
    }

    /**
     * A row-key part that the record holds as an explicit null (JSON {@code null}, an Avro null branch).
     *
     * @throws InvalidEventException {@code invalid <field> null: is null: it is part of the row key}
     */
    public static InvalidEventException keyPartNull(String field) {
        return new InvalidEventException(Refusal.NULL, field, null, "is null: it is part of the row key");
    }

    /**
     * A text key part, not empty: an empty part would make {@code [a][]} and {@code [][a]} collide.
     *
     * @throws InvalidEventException {@code invalid <field> '': must not be empty}
     */
    public static String nonEmpty(String field, String text) {
        if (text == null || text.isEmpty()) {
            throw new InvalidEventException(Refusal.EMPTY, field, text, "must not be empty");
        }
        return text;
    }

    /**
     * A cell within a size limit.
     *
     * @param field   the field or qualifier the cell is of
     * @param size    the cell's size in bytes, as the limit counts it
     * @param limit   the limit in bytes; 0 or less: none
     * @param setting the setting that sets the limit, named so the user knows what to raise
     * @throws InvalidEventException {@code invalid <field> '(<size> bytes)': is <size> bytes as a
     *                               cell, over the cell size limit of <limit> bytes (<setting>)}
     */
    public static void cellWithin(String field, long size, long limit, String setting) {
        if (limit > 0 && size > limit) {
            throw new InvalidEventException(Refusal.TOO_LARGE, field, "(" + size + " bytes)", "is " + size
                    + " bytes as a cell, over the cell size limit of " + limit + " bytes (" + setting + ")");
        }
    }

    /**
     * A tombstone (a record with a null value) on a topic whose records are events or facts, not
     * the state of a key: rowflow does not delete on it.
     *
     * @param topic the topic, named in the refusal
     * @param why   what rowflow keeps instead, for the reader of the dead letter
     * @return {@code invalid value null: the <topic> topic carries no tombstones (null values): <why>}
     */
    public static InvalidEventException tombstone(String topic, String why) {
        return new InvalidEventException(Refusal.TOMBSTONE,
                "value", null, "the " + topic + " topic carries no tombstones (null values): "
                + why);
    }
}
