package dev.rowflow.keying.expression;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.expression.Nodes.Literal;
import dev.rowflow.keying.expression.Nodes.PathNode;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.RecordSource;
import dev.rowflow.keying.mapping.RecordTree;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

import static dev.rowflow.keying.expression.Values.absent;
import static dev.rowflow.keying.expression.Values.describe;

/**
 * A value or condition over one record, written where a field path is allowed (key parts, columns,
 * the time) and where a condition is ({@code where}): parsed and type-checked once, at start;
 * evaluated per record. A plain path compiles to the {@link FieldPath} alone, so a mapping of
 * paths evaluates as it did without expressions: no allocation, no dispatch beyond one call.
 *
 * <h2>Syntax</h2>
 * <pre>
 * expr     := or
 * or       := and ("or" and)*
 * and      := not ("and" not)*
 * not      := "not" not | compare
 * compare  := choice [op choice | ["not"] "in" "(" literal ("," literal)* ")" | "matches" 'regex']
 * op       := "=" | "!=" | "&lt;" | "&lt;=" | "&gt;" | "&gt;="
 * choice   := primary ("|" primary)*             the first with a value: coalesce
 * primary  := literal | "(" expr ")" | name "(" [expr ("," expr)*] ")" ["[" index "]"] | source | path
 * literal  := 'text' ('' is a quote) | -?digits[.digits] | true | false
 * source   := $key[.path] | $header.name | $topic | $partition | $offset | $timestamp | $value
 *           | $op | $before[.path] | $after[.path] | $source[.path]     (change events)
 *           | $position.alias | $ordinal                             (rows per array element)
 * </pre>
 * A path is {@link FieldPath}'s syntax; quote a name that is a keyword, a number or starts with
 * {@code $} ({@code "not"}, {@code "200"}, {@code "$id"}). Text literals take single quotes
 * (double quotes quote path names). The functions, their arguments and results are listed by
 * {@link FunctionReference#markdown()} (the table of docs/mapping.md).
 *
 * <h2>Values</h2>
 * A value is a {@link RecordTree} value or absent (null). Absent and JSON null flow through every
 * function as absent ({@code lower(x)} of a missing {@code x} is missing), so a key part, a column
 * or an index sees a missing value as it would from a path. A value of the wrong kind for a
 * function -- {@code lower} of a number, {@code long('4.5')} -- throws
 * {@link InvalidEventException} naming the expression: nothing is converted silently, the
 * conversions are the functions {@code text}, {@code long} and {@code number}.
 *
 * <h2>Conditions</h2>
 * Absent equals nothing: {@code x = 'a'} is false and {@code x != 'a'} true when {@code x} is
 * missing; an order comparison with a missing side is false. Numbers compare by value across
 * whole and decimal forms ({@code 200 = 200.0}); text compares by its characters; values of
 * different kinds are never equal, and ordering them is the record's fault.
 * {@code matches} finds the regular expression anywhere in the text (anchor with {@code ^ $}).
 *
 * <p>Immutable and thread-safe.
 */
public final class Expression {

    /** What an expression yields, as far as is known at start. */
    public enum Kind {
        TEXT("text"), LONG("a whole number"), NUMBER("a number"), BOOL("a condition"), LIST("a list"),
        /** A path or source: anything a record holds. */
        ANY("a value");

        /** How refusals at start and the function reference name it. */
        final String description;

        Kind(String description) {
            this.description = description;
        }

        boolean fits(Kind expected) {
            return this == ANY || expected == ANY || this == expected || expected == NUMBER && this == LONG;
        }
    }

    private final String text;
    private final Node root;

    private Expression(String text, Node root) {
        this.text = text;
        this.root = root;
    }

    /**
     * Parses and type-checks an expression.
     *
     * @throws IllegalArgumentException naming the expression and what is wrong: the offset and
     *                                  what was expected there, an unknown function (with the
     *                                  list), a wrong number or kind of arguments, a bad regular
     *                                  expression
     */
    public static Expression parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("a field path or expression must not be empty");
        }
        return new Expression(text.strip(), Parser.parse(text));
    }

    /** A path alone, as an expression. */
    public static Expression of(FieldPath path) {
        return new Expression(path.text(), new PathNode(path));
    }

    /**
     * Parses a condition: an expression that is true or false.
     *
     * @throws IllegalArgumentException as {@link #parse}, or if the expression is a value of
     *                                  another kind ({@code lower(x)}, {@code 'a'})
     */
    public static Expression parseCondition(String text) {
        Expression expression = parse(text);
        if (!expression.kind().fits(Kind.BOOL)) {
            throw new IllegalArgumentException("expression '" + expression.text + "' is " + expression.kind().description
                    + ", where a condition is expected (e.g. x = 'a', exists(x), x matches '^a')");
        }
        return expression;
    }

    /** The expression as written (trimmed). */
    public String text() {
        return text;
    }

    /** What it yields, as far as is known at start. */
    public Kind kind() {
        return root.kind();
    }

    /** The path, if this expression is a path alone (fallbacks included) and no function or source. */
    public Optional<FieldPath> path() {
        return root instanceof PathNode p ? Optional.of(p.path()) : Optional.empty();
    }

    /** Whether it is a literal: the same value for every record ({@code 49} as a key's record-type byte). */
    public boolean isConstant() {
        return root instanceof Literal;
    }

    /** The paths of the record's value it reads, in order, each fallback's alternatives one by one. */
    public List<FieldPath> paths() {
        List<FieldPath> paths = new ArrayList<>();
        root.forEachPath(paths::add);
        return paths;
    }

    /**
     * The first source it reads that only a change event has ({@code $op}, {@code $before},
     * {@code $after}, {@code $source}), as written ({@code $before}), or empty.
     */
    public Optional<String> changeSource() {
        List<Source> sources = new ArrayList<>();
        root.forEachSource(sources::add);
        return sources.stream().filter(Source::ofChanges).findFirst().map(source -> "$" + source.token);
    }

    /** The sources it reads, as written without their fields ({@code $key}, {@code $timestamp}...), in order. */
    public List<String> sources() {
        List<Source> sources = new ArrayList<>();
        root.forEachSource(sources::add);
        return sources.stream().map(source -> "$" + source.token).distinct().toList();
    }

    /**
     * The aliases of the {@code $position.<alias>} it reads, and {@code ""} for {@code $ordinal}:
     * what only a row made per array element has.
     */
    public List<String> elementSources() {
        List<String> names = new ArrayList<>();
        root.forEachElementSource(names::add);
        return names;
    }

    /** Whether it reads the record's value only (no {@code $key}, {@code $header}... source). */
    public boolean readsValueOnly() {
        return root.readsValueOnly();
    }

    /**
     * Why no record of a format could give this expression a value, or empty if one can: a path
     * the format cannot yield, where no fallback can either.
     */
    public Optional<String> cannotYield(Function<FieldPath, Optional<String>> yield) {
        return root.cannotYield(yield);
    }

    /**
     * The value for one record: a {@link RecordTree} value, {@link RecordTree#NULL} where a path
     * alone meets a JSON null, or null if absent.
     *
     * @throws InvalidEventException naming the expression if a value is of the wrong kind
     */
    public Object evaluate(Map<String, Object> record, RecordSource source) {
        return root.eval(record, source);
    }

    /**
     * The value for one record where a value must be of a type (a typed column, a key part): of a
     * fallback ({@code a | b}, {@code coalesce}), the first choice that is present and of that
     * type; if none is, the first present (for the reason its record is set aside with). Any other
     * expression as {@link #evaluate}.
     *
     * @param accepts whether a present value (never null or {@link RecordTree#NULL}) is of the type
     */
    public Object evaluate(Map<String, Object> record, RecordSource source, Predicate<Object> accepts) {
        return root.evalAccepting(record, source, accepts);
    }

    /** Whether a condition holds for one record (a missing value: false). */
    public boolean test(Map<String, Object> record, RecordSource source) {
        Object value = root.eval(record, source);
        if (value instanceof Boolean b) {
            return b;
        }
        if (absent(value)) {
            return false;
        }
        throw new InvalidEventException(Refusal.WRONG_KIND,
                text, describe(value), "is " + RecordTree.kind(value)
                + ", where a condition (true or false) is expected");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Expression e && e.root.equals(root);
    }

    @Override
    public int hashCode() {
        return root.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
