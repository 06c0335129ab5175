package dev.rowflow.keying.format;

import java.util.Map;

/**
 * A change event of a database row, as Debezium writes one ({@link DebeziumEnvelope}): what
 * happened to the row, and its images before and after.
 *
 * @param before the row before the change (null for a create or a snapshot read, and for an update
 *               where the database does not log old values)
 * @param after  the row after the change (null for a delete)
 * @param source where the change comes from: connector, database, table, transaction position
 */
public record Change(Op op, Map<String, Object> before, Map<String, Object> after, Map<String, Object> source) {

    /** What happened to the row. */
    public enum Op {
        /** {@code c}: a row inserted. */
        CREATE("c"),
        /** {@code r}: a row read by the connector's snapshot. */
        READ("r"),
        /** {@code u}: a row updated (its key unchanged: a key change is a delete and a create). */
        UPDATE("u"),
        /** {@code d}: a row deleted. */
        DELETE("d");

        private final String code;

        Op(String code) {
            this.code = code;
        }

        /** The code in the event's {@code op} field. */
        public String code() {
            return code;
        }

        /** The operation of a code, or null. */
        public static Op of(String code) {
            for (Op op : values()) {
                if (op.code.equals(code)) {
                    return op;
                }
            }
            return null;
        }
    }
}
