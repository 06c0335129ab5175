package dev.rowflow.keying.layout;

import java.util.Arrays;
import java.util.List;

/**
 * What a read asks of a layout's keys: the leading parts equal to given values, and optionally
 * the next part within {@code [from, to)} (in value terms: a time range on a reverse-timestamp
 * part is still {@code from <= ts < to}). A null bound is open.
 */
public record KeyQuery(List<Object> equal, Object from, Object to) {

    public KeyQuery {
        equal = List.copyOf(equal);
    }

    /** The leading parts equal to {@code values}, in part order. */
    public static KeyQuery prefix(Object... values) {
        return new KeyQuery(Arrays.asList(values), null, null);
    }

    /** Everything. */
    public static KeyQuery all() {
        return prefix();
    }

    /** This prefix, and the next part in {@code [from, to)}. */
    public KeyQuery between(Object from, Object to) {
        return new KeyQuery(equal, from, to);
    }

    boolean hasRange() {
        return from != null || to != null;
    }
}
