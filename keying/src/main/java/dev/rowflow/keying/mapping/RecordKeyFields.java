package dev.rowflow.keying.mapping;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A row key made of the record key's fields: {@value #ALL} in a key layout stands for one part
 * per field of the record key, in the key's order. A Debezium change event's record key is its
 * row's primary key, so one declaration keys every table of a database by its own primary key
 * (seed 002, 1.11.3: a table's natural key leads its rows).
 *
 * <p>Each field becomes a part over the row's column of that name: {@code name:long} for a whole
 * number, {@code name:text} for text; {@code bucket(16) | $key.*} keeps a salt in front of them.
 * The layout is fixed when its table is made, from the first record's key, and recorded in the
 * table like every layout.
 */
public final class RecordKeyFields {
    /** The token a key layout names the record key's fields with. */
    public static final String ALL = "$key.*";
    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private RecordKeyFields() {
    }

    /** Whether {@code layout} names the record key's fields ({@value #ALL}). */
    public static boolean in(String layout) {
        return layout.contains(ALL);
    }

    /**
     * {@code layout} with {@value #ALL} replaced by the parts of {@code key}'s fields.
     *
     * @param key the record key's fields in key order (a change event's primary key)
     * @throws InvalidEventException EMPTY for a key without fields; WRONG_KIND for a field that is
     *                               neither a whole number nor text (a key part of it is declared
     *                               in an input of the table's own); NOT_ENCODABLE for a name a
     *                               path cannot hold
     */
    public static String expand(String layout, Map<String, Object> key) {
        if (key.isEmpty()) {
            throw new InvalidEventException(Refusal.EMPTY, "$key", "{}", "has no fields to key the rows by");
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, Object> field : key.entrySet()) {
            String name = field.getKey();
            if (!PLAIN_NAME.matcher(name).matches()) {
                throw new InvalidEventException(Refusal.NOT_ENCODABLE, "$key." + name, name, "is no plain name (letters, "
                        + "digits, _): declare this table's input with its key");
            }
            Object value = field.getValue();
            String encoding;
            if (value instanceof Long || value instanceof Integer || value instanceof Short) {
                encoding = "long";
            } else if (value instanceof String) {
                encoding = "text";
            } else {
                throw new InvalidEventException(Refusal.WRONG_KIND, "$key." + name, value, "is "
                        + (value == null ? "null" : "neither a whole number nor text") + ": a key of the record key's "
                        + "fields takes those; declare this table's input with its key");
            }
            parts.add(name + ":" + encoding);
        }
        return layout.replace(ALL, String.join(", ", parts));
    }
}
