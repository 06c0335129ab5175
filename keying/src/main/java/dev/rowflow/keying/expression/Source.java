package dev.rowflow.keying.expression;

/**
 * The sources an expression may name besides the record's value, by the name after the {@code $}:
 * what {@link dev.rowflow.keying.mapping.RecordSource#get} gives of one record. Public because that
 * class answers for it; what the parser asks of a source (its token, whether it takes a name or
 * fields) stays in this package.
 */
public enum Source {
    KEY("key"), HEADER("header"), TOPIC("topic"), PARTITION("partition"), OFFSET("offset"),
    TIMESTAMP("timestamp"), OP("op"), BEFORE("before"), AFTER("after"), SOURCE("source"), VALUE("value"),
    POSITION("position"), ORDINAL("ordinal");

    final String token;

    Source(String token) {
        this.token = token;
    }

    /** Whether only a change event has it. */
    boolean ofChanges() {
        return this == OP || this == BEFORE || this == AFTER || this == SOURCE;
    }

    /** Whether only a row made per array element has it. */
    boolean ofElements() {
        return this == POSITION || this == ORDINAL;
    }

    /** Whether the source takes a name ({@code $header.trace-id}, {@code $position.item}). */
    boolean named() {
        return this == HEADER || this == POSITION;
    }

    /** Whether the source's value is a tree whose fields a path may name ({@code $key.id}, {@code $source.lsn}). */
    boolean hasFields() {
        return this == KEY || this == BEFORE || this == AFTER || this == SOURCE;
    }

    static Source of(String token) {
        for (Source source : values()) {
            if (source.token.equals(token)) {
                return source;
            }
        }
        return null;
    }
}
