package dev.rowflow.keying.mapping;

import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.mapping.MappingException.Piece;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A layout with each part's value compiled: {@code paths[i]} (a path or another
 * {@link Expression}) null for a part over the time, whose value is the event time (or the start
 * of its bucket or period).
 */
final class KeyPlan {
    final RowKeyLayout layout;
    final Expression[] paths;
    final boolean[] textual;

    private KeyPlan(RowKeyLayout layout, Expression[] paths, boolean[] textual) {
        this.layout = layout;
        this.paths = paths;
        this.textual = textual;
    }

    /** Compiles one key layout; any refusal is a {@link MappingException} of {@code piece}. */
    static KeyPlan of(Piece piece, String index, String what, String spec, Function<String, RowKeyLayout> layouts,
                      Expression timePath, Function<FieldPath, Optional<String>> yield) {
        try {
            return of(what, spec, layouts, timePath, yield);
        } catch (IllegalArgumentException e) {
            throw new MappingException(piece, index, e.getMessage(), e);
        }
    }

    private static KeyPlan of(String what, String spec, Function<String, RowKeyLayout> layouts, Expression timePath,
                              Function<FieldPath, Optional<String>> yield) {
        RowKeyLayout layout;
        try {
            layout = layouts.apply(spec);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
        }
        List<KeyPart> parts = layout.parts();
        Expression[] paths = new Expression[parts.size()];
        boolean[] textual = new boolean[parts.size()];
        Map<Expression, String> seen = new HashMap<>();
        for (int i = 0; i < paths.length; i++) {
            KeyPart part = parts.get(i);
            Expression path = parse(what + " '" + spec + "', part " + part.spec(), part.field());
            if (!path.isConstant() && seen.put(path, part.spec()) != null) {
                throw new IllegalArgumentException(what + " '" + spec + "': " + path + " is in the key twice");
            }
            textual[i] = part.encoding().textual();
            if (path.equals(timePath)) {
                if (textual[i]) {
                    throw new IllegalArgumentException(what + " '" + spec + "', part " + part.spec()
                            + ": the event time is a number; use ts, rts, long or dec");
                }
                continue;
            }
            checkYield(yield, path, what + " '" + spec + "', part " + part.spec());
            paths[i] = path;
        }
        return new KeyPlan(layout, paths, textual);
    }

    int timeParts() {
        int n = 0;
        for (Expression path : paths) {
            if (path == null) {
                n++;
            }
        }
        return n;
    }

    /**
     * The part values of a record, checked and converted.
     *
     * @param time      the value of parts over the time path
     * @param eventTime the event time, for messages
     */
    Object[] values(Map<String, Object> record, RecordSource source, long time, long eventTime) {
        return values(record, source, time, false);
    }

    /**
     * The same, or null if {@code nullWhenLacking} and a part over a field has no value in the
     * record (absent or null): the record has no row in a sparse index.
     */
    Object[] values(Map<String, Object> record, RecordSource source, long time, boolean nullWhenLacking) {
        Object[] values = new Object[paths.length];
        for (int i = 0; i < paths.length; i++) {
            Expression path = paths[i];
            if (path == null) {
                values[i] = time;
                continue;
            }
            // A part takes the first of its fallbacks that has a value its encoding takes.
            Object value = path.evaluate(record, source, textual[i] ? KeyPlan::isText : KeyPlan::isWholeNumber);
            if (nullWhenLacking && (value == null || value == RecordTree.NULL)) {
                return null;
            }
            values[i] = keyValue(path, value, textual[i]);
        }
        return values;
    }

    /** Whether a text part takes a present value as it is: non-empty text, a number or a boolean. */
    static boolean isText(Object value) {
        return value instanceof String text ? !text.isEmpty() : value instanceof Number || value instanceof Boolean;
    }

    /** Whether a numeric part takes a present value: a whole number of at most 64 bits. */
    static boolean isWholeNumber(Object value) {
        return ValueType.LONG.accepts(value);
    }

    /** A value of a key part: a non-empty String for text encodings, a Long for numeric ones. */
    static Object keyValue(Expression path, Object value, boolean textual) {
        return keyValue(path.text(), value, textual);
    }

    /** The check behind {@link EventMapping#keyValue}. */
    static Object keyValue(String field, Object value, boolean textual) {
        EventRules.keyPartPresent(field, value);
        if (value == RecordTree.NULL) {
            throw EventRules.keyPartNull(field);
        }
        if (textual) {
            if (value instanceof String text) {
                return EventRules.nonEmpty(field, text);
            }
            if (value instanceof Number || value instanceof Boolean) {
                return RecordTree.scalarText(value);
            }
            throw new InvalidEventException(Refusal.WRONG_KIND, field, describe(value), "is " + RecordTree.kind(value)
                    + ", where text is expected");
        }
        if (value instanceof Long l) {
            return l;
        }
        if (value instanceof BigInteger) {
            throw new InvalidEventException(Refusal.OUT_OF_RANGE,
                    field, value, "is beyond 64 bits, where a whole number is expected");
        }
        if (value instanceof BigDecimal decimal) {
            try {
                return decimal.longValueExact();
            } catch (ArithmeticException e) {
                throw new InvalidEventException(Refusal.WRONG_KIND, field, value, "is not a whole number of 64 bits");
            }
        }
        throw new InvalidEventException(Refusal.WRONG_KIND, field, describe(value), "is " + RecordTree.kind(value)
                + ", where a whole number is expected");
    }

    private static Object describe(Object value) {
        return RecordTree.isScalar(value) ? RecordTree.scalarText(value)
                : new String(RecordTree.compactJson(value), StandardCharsets.UTF_8);
    }

    /** Refuses a value no record of the format can have: a path, with fallbacks when none of them can. */
    static void checkYield(Function<FieldPath, Optional<String>> yield, Expression value, String what) {
        Optional<String> why = value.cannotYield(yield);
        if (why.isPresent()) {
            throw new IllegalArgumentException(what + ": " + why.get());
        }
    }

    static Expression parse(String what, String text) {
        try {
            return Expression.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
        }
    }
}
