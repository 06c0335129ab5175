package dev.rowflow.keying.expression;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.mapping.RecordTree;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * What nodes and functions ask of a {@link RecordTree} value: whether it is there, equality and
 * order across kinds, and how a refused value is shown in the reason its record is set aside with.
 */
final class Values {
    private Values() {
    }

    /** Absent or JSON null: both flow through every function as absent. */
    static boolean absent(Object value) {
        return value == null || value == RecordTree.NULL;
    }

    /** Equality of values: absent equals nothing, numbers by value, other kinds never equal. */
    static boolean same(Object l, Object r) {
        if (absent(l) || absent(r)) {
            return false;
        }
        if (l instanceof Number a && r instanceof Number b) {
            return decimal(a).compareTo(decimal(b)) == 0;
        }
        return l.equals(r);
    }

    /**
     * The order of two present values.
     *
     * @throws InvalidEventException naming {@code text} unless both are numbers or both text
     */
    static int order(String text, Object l, Object r) {
        if (l instanceof Number a && r instanceof Number b) {
            return decimal(a).compareTo(decimal(b));
        }
        if (l instanceof String a && r instanceof String b) {
            return a.compareTo(b);
        }
        throw new InvalidEventException(Refusal.WRONG_KIND,
                text, describe(l) + " vs " + describe(r), "compares " + RecordTree.kind(l)
                + " with " + RecordTree.kind(r) + ": only numbers with numbers and text with text have an order");
    }

    private static BigDecimal decimal(Number n) {
        if (n instanceof Long || n instanceof Integer) {
            return BigDecimal.valueOf(n.longValue());
        }
        if (n instanceof BigDecimal d) {
            return d;
        }
        if (n instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        return new BigDecimal(n.toString());
    }

    /** A value as a refusal shows it: a scalar's text, an object or array as compact JSON. */
    static Object describe(Object value) {
        return RecordTree.isScalar(value) ? RecordTree.scalarText(value)
                : new String(RecordTree.compactJson(value), StandardCharsets.UTF_8);
    }
}
