package dev.rowflow.keying.log;

import java.nio.charset.StandardCharsets;

/**
 * Column families and qualifiers of the log tables. Names are one or two bytes because HBase
 * stores family and qualifier with every cell (seed 002, section 1.3.2).
 *
 * <p>DO NOT modify the values specified here: they are on disk in every table rowflow wrote.
 */
public final class LogColumns {
    /** The one family of the data table. */
    public static final byte[] DATA_FAMILY = bytes("d");
    /** Raw hostname, kept as a column although it is also in the key. */
    public static final byte[] HOSTNAME = bytes("h");
    /** Raw log-event type. */
    public static final byte[] EVENT_TYPE = bytes("e");
    /** The message/value of the event. */
    public static final byte[] MESSAGE = bytes("m");
    /** Severity name, present only when the event has one. */
    public static final byte[] SEVERITY = bytes("s");
    /** Prefix of attribute columns: attribute {@code pid} is qualifier {@code a.pid}. */
    public static final String ATTRIBUTE_PREFIX = "a.";

    /** The one family of the index table. */
    public static final byte[] INDEX_FAMILY = bytes("i");
    /** Index cell holding the data row key the index row points to. */
    public static final byte[] DATA_ROW_KEY = bytes("r");

    private LogColumns() {
    }

    /** The qualifier of attribute {@code name}. */
    public static byte[] attribute(String name) {
        return bytes(ATTRIBUTE_PREFIX + name);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
