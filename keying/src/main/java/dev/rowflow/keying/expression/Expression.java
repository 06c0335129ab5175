package dev.rowflow.keying.expression;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.RecordSource;
import dev.rowflow.keying.mapping.RecordTree;
import org.apache.commons.codec.digest.DigestUtils;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

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
 * (double quotes quote path names).
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

        private final String description;

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
        Parser parser = new Parser(text);
        Node root;
        try {
            root = parser.expression();
            parser.skipSpace();
            if (parser.pos < text.length()) {
                throw parser.error("an operator or the end");
            }
        } catch (Refusal e) {
            if (e.getCause() instanceof IllegalArgumentException path && text.strip().equals(parser.lastPath)) {
                throw path; // a path alone: the path's own refusal says it all
            }
            throw new IllegalArgumentException("expression '" + text.strip() + "': " + e.getMessage(), e);
        }
        return new Expression(text.strip(), root);
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
        return root instanceof PathNode p ? Optional.of(p.path) : Optional.empty();
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
        throw new InvalidEventException(text, describe(value), "is " + RecordTree.kind(value)
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

    // ---------------------------------------------------------------- nodes

    private interface Node {
        Object eval(Map<String, Object> record, RecordSource source);

        /** See {@link Expression#evaluate(Map, RecordSource, Predicate)}: fallbacks override it. */
        default Object evalAccepting(Map<String, Object> record, RecordSource source, Predicate<Object> accepts) {
            return eval(record, source);
        }

        Kind kind();

        /** Whether it reads the record's value only: so do all its children, by default. */
        default boolean readsValueOnly() {
            return children().stream().allMatch(Node::readsValueOnly);
        }

        /** Why no record could give it a value: one of its children cannot, by default. */
        default Optional<String> cannotYield(Function<FieldPath, Optional<String>> yield) {
            return anyCannotYield(children(), yield);
        }

        /** The expressions it is made of (a call's arguments...), none for a value. */
        default List<Node> children() {
            return List.of();
        }

        /** Gives {@code action} each path of the record's value it reads, every fallback's too. */
        default void forEachPath(java.util.function.Consumer<FieldPath> action) {
            children().forEach(child -> child.forEachPath(action));
        }

        /** Gives {@code action} each source ({@code $key}, {@code $op}...) it reads. */
        default void forEachSource(java.util.function.Consumer<Source> action) {
            children().forEach(child -> child.forEachSource(action));
        }

        /** Gives {@code action} the alias of each {@code $position} it reads, {@code ""} for {@code $ordinal}. */
        default void forEachElementSource(java.util.function.Consumer<String> action) {
            children().forEach(child -> child.forEachElementSource(action));
        }
    }

    private record Literal(Object value, Kind kind) implements Node {
        @Override
        public Object eval(Map<String, Object> record, RecordSource source) {
            return value;
        }
    }

    private record PathNode(FieldPath path) implements Node {
        @Override
        public void forEachPath(java.util.function.Consumer<FieldPath> action) {
            path.alternatives().forEach(action);
        }

        @Override
        public Object eval(Map<String, Object> record, RecordSource source) {
            return path.resolve(record);
        }

        @Override
        public Object evalAccepting(Map<String, Object> record, RecordSource source, Predicate<Object> accepts) {
            return path.resolve(record, accepts);
        }

        @Override
        public Kind kind() {
            return Kind.ANY;
        }

        @Override
        public Optional<String> cannotYield(Function<FieldPath, Optional<String>> yield) {
            return noneCanYield(path.alternatives(), yield);
        }
    }

    /** {@code $topic}, {@code $key.id}...: {@code under} the path below the source's value, or null. */
    private record SourceNode(Source source, String header, FieldPath under) implements Node {
        @Override
        public void forEachSource(java.util.function.Consumer<Source> action) {
            action.accept(source);
        }

        @Override
        public void forEachElementSource(java.util.function.Consumer<String> action) {
            if (source.ofElements()) {
                action.accept(source == Source.POSITION ? header : "");
            }
        }

        @Override
        public Object eval(Map<String, Object> record, RecordSource meta) {
            Object value = meta.get(source, header);
            if (under == null || value == null) {
                return value;
            }
            return value instanceof Map<?, ?> ? under.resolve(cast(value)) : null;
        }

        @SuppressWarnings("unchecked")
        private static Map<String, Object> cast(Object value) {
            return (Map<String, Object>) value;
        }

        @Override
        public Kind kind() {
            return switch (source) {
                case TOPIC, HEADER, OP -> Kind.TEXT;
                case PARTITION, OFFSET, TIMESTAMP, POSITION, ORDINAL -> Kind.LONG;
                case KEY, BEFORE, AFTER, SOURCE, VALUE -> Kind.ANY;
            };
        }

        @Override
        public boolean readsValueOnly() {
            return false;
        }
    }

    private record Coalesce(List<Node> choices, Kind kind) implements Node {
        @Override
        public List<Node> children() {
            return choices;
        }

        @Override
        public Object eval(Map<String, Object> record, RecordSource source) {
            Object found = null;
            for (Node choice : choices) {
                Object value = choice.eval(record, source);
                if (!absent(value)) {
                    return value;
                }
                found = found == null ? value : found;
            }
            return found;
        }

        @Override
        public Object evalAccepting(Map<String, Object> record, RecordSource source, Predicate<Object> accepts) {
            Object found = null;
            for (Node choice : choices) {
                Object value = choice.evalAccepting(record, source, accepts);
                if (!absent(value) && accepts.test(value)) {
                    return value;
                }
                if (found == null || found == RecordTree.NULL && value != null) {
                    found = value;
                }
            }
            return found;
        }

        @Override
        public Optional<String> cannotYield(Function<FieldPath, Optional<String>> yield) {
            return noneCanYield(choices, choice -> choice.cannotYield(yield));
        }
    }

    /** A function call; {@code text} as written, for the reasons records are set aside with. */
    private record Call(Fn fn, List<Node> args, Object constant, String text) implements Node {
        @Override
        public List<Node> children() {
            return args;
        }

        @Override
        public Object eval(Map<String, Object> record, RecordSource source) {
            return fn.apply(this, record, source);
        }

        @Override
        public Kind kind() {
            return fn.result;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Call c && c.fn == fn && c.args.equals(args) && java.util.Objects.equals(c.constant, constant);
        }

        @Override
        public int hashCode() {
            return fn.hashCode() * 31 + args.hashCode();
        }

        Object arg(int i, Map<String, Object> record, RecordSource source) {
            Object value = args.get(i).eval(record, source);
            return absent(value) ? null : value;
        }

        String textArg(int i, Map<String, Object> record, RecordSource source) {
            Object value = arg(i, record, source);
            if (value == null || value instanceof String) {
                return (String) value;
            }
            throw new InvalidEventException(text, describe(value), "is " + RecordTree.kind(value) + ", where "
                    + fn.token + " takes text (convert with text(...))");
        }

        long longArg(int i, Map<String, Object> record, RecordSource source) {
            Object value = arg(i, record, source);
            if (value instanceof Long l) {
                return l;
            }
            throw new InvalidEventException(text, value == null ? null : describe(value), "argument " + (i + 1)
                    + " of " + fn.token + " is " + (value == null ? "missing" : RecordTree.kind(value))
                    + ", where a whole number is expected");
        }
    }

    /** {@code split(...)[i]}: the element, or absent past the end. */
    private record Element(Node list, int index) implements Node {
        @Override
        public List<Node> children() {
            return List.of(list);
        }

        @Override
        public Object eval(Map<String, Object> record, RecordSource source) {
            Object value = list.eval(record, source);
            return value instanceof List<?> l && index < l.size() ? l.get(index) : null;
        }

        @Override
        public Kind kind() {
            return list.kind() == Kind.LIST ? Kind.TEXT : Kind.ANY;
        }
    }

    private enum Op {
        EQ("="), NE("!="), LT("<"), LE("<="), GT(">"), GE(">=");

        final String token;

        Op(String token) {
            this.token = token;
        }
    }

    private record Compare(Op op, Node left, Node right, String text) implements Node {
        @Override
        public List<Node> children() {
            return List.of(left, right);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Compare c && c.op == op && c.left.equals(left) && c.right.equals(right);
        }

        @Override
        public int hashCode() {
            return (op.hashCode() * 31 + left.hashCode()) * 31 + right.hashCode();
        }

        @Override
        public Object eval(Map<String, Object> record, RecordSource source) {
            Object l = left.eval(record, source);
            Object r = right.eval(record, source);
            if (op == Op.EQ || op == Op.NE) {
                return same(l, r) == (op == Op.EQ);
            }
            if (absent(l) || absent(r)) {
                return false;
            }
            int c = order(text, l, r);
            return switch (op) {
                case LT -> c < 0;
                case LE -> c <= 0;
                case GT -> c > 0;
                default -> c >= 0;
            };
        }

        @Override
        public Kind kind() {
            return Kind.BOOL;
        }
    }

    private record In(Node value, List<Object> choices, boolean negated) implements Node {
        @Override
        public List<Node> children() {
            return List.of(value);
        }

        @Override
        public Object eval(Map<String, Object> record, RecordSource source) {
            Object v = value.eval(record, source);
            for (Object choice : choices) {
                if (same(v, choice)) {
                    return !negated;
                }
            }
            return negated;
        }

        @Override
        public Kind kind() {
            return Kind.BOOL;
        }
    }

    private record Matches(Node value, Pattern pattern, String text) implements Node {
        @Override
        public List<Node> children() {
            return List.of(value);
        }

        @Override
        public Object eval(Map<String, Object> record, RecordSource source) {
            Object v = value.eval(record, source);
            if (absent(v)) {
                return false;
            }
            if (!(v instanceof String s)) {
                throw new InvalidEventException(text, describe(v), "is " + RecordTree.kind(v)
                        + ", where matches takes text (convert with text(...))");
            }
            return pattern.matcher(s).find();
        }

        @Override
        public Kind kind() {
            return Kind.BOOL;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Matches m && m.value.equals(value) && m.pattern.pattern().equals(pattern.pattern());
        }

        @Override
        public int hashCode() {
            return value.hashCode() * 31 + pattern.pattern().hashCode();
        }
    }

    /** {@code and}, {@code or} (short-circuit) and {@code not} (one operand). */
    private record Logic(String op, List<Node> operands, String text) implements Node {
        @Override
        public List<Node> children() {
            return operands;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Logic l && l.op.equals(op) && l.operands.equals(operands);
        }

        @Override
        public int hashCode() {
            return op.hashCode() * 31 + operands.hashCode();
        }

        @Override
        public Object eval(Map<String, Object> record, RecordSource source) {
            switch (op) {
                case "not":
                    return !truth(operands.get(0), record, source);
                case "and":
                    for (Node operand : operands) {
                        if (!truth(operand, record, source)) {
                            return false;
                        }
                    }
                    return true;
                default:
                    for (Node operand : operands) {
                        if (truth(operand, record, source)) {
                            return true;
                        }
                    }
                    return false;
            }
        }

        private boolean truth(Node operand, Map<String, Object> record, RecordSource source) {
            Object value = operand.eval(record, source);
            if (value instanceof Boolean b) {
                return b;
            }
            if (absent(value)) {
                return false;
            }
            throw new InvalidEventException(text, describe(value), "is " + RecordTree.kind(value)
                    + ", where " + op + " takes a condition (true or false)");
        }

        @Override
        public Kind kind() {
            return Kind.BOOL;
        }
    }

    // ---------------------------------------------------------------- functions

    /** The functions: name, arguments (kinds; the last repeats if {@code variadic}), result. */
    private enum Fn {
        LOWER("lower", Kind.TEXT, false, Kind.TEXT) {
            @Override
            Object apply(Call c, Map<String, Object> r, RecordSource s) {
                String v = c.textArg(0, r, s);
                return v == null ? null : v.toLowerCase(java.util.Locale.ROOT);
            }
        },
        UPPER("upper", Kind.TEXT, false, Kind.TEXT) {
            @Override
            Object apply(Call c, Map<String, Object> r, RecordSource s) {
                String v = c.textArg(0, r, s);
                return v == null ? null : v.toUpperCase(java.util.Locale.ROOT);
            }
        },
        TRIM("trim", Kind.TEXT, false, Kind.TEXT) {
            @Override
            Object apply(Call c, Map<String, Object> r, RecordSource s) {
                String v = c.textArg(0, r, s);
                return v == null ? null : v.strip();
            }
        },
        CONCAT("concat", Kind.TEXT, true, Kind.TEXT) {
            @Override
            Object apply(Call c, Map<String, Object> r, RecordSource s) {
                StringBuilder out = new StringBuilder();
                for (int i = 0; i < c.args.size(); i++) {
                    String v = c.textArg(i, r, s);
                    if (v == null) {
                        return null;
                    }
                    out.append(v);
                }
                return out.toString();
            }
        },
        SUBSTRING("substring", Kind.TEXT, false, Kind.TEXT, Kind.LONG, Kind.LONG) {
            @Override
            Object apply(Call c, Map<String, Object> r, RecordSource s) {
                String v = c.textArg(0, r, s);
                if (v == null) {
                    return null;
                }
                long from = Math.min(Math.max(0, c.longArg(1, r, s)), v.length());
                long to = c.args.size() > 2 ? Math.min(v.length(), from + Math.max(0, c.longArg(2, r, s))) : v.length();
                return v.substring((int) from, (int) to);
            }
        },
        REPLACE("replace", Kind.TEXT, false, Kind.TEXT, Kind.TEXT, Kind.TEXT) {
            @Override
            Object apply(Call c, Map<String, Object> r, RecordSource s) {
                String v = c.textArg(0, r, s);
                String target = c.textArg(1, r, s);
                String replacement = c.textArg(2, r, s);
                return v == null || target == null || replacement == null ? null : v.replace(target, replacement);
            }
        },
        REGEXP_EXTRACT("regexp_extract", Kind.TEXT, false, Kind.TEXT, Kind.TEXT, Kind.LONG) {
            @Override
            Object apply(Call c, Map<String, Object> r, RecordSource s) {
                String v = c.textArg(0, r, s);
                if (v == null) {
                    return null;
                }
                Extract extract = (Extract) c.constant;
                Matcher m = extract.pattern.matcher(v);
                return m.find() ? m.group(extract.group) : null;
            }
        },
        SPLIT("split", Kind.LIST, false, Kind.TEXT, Kind.TEXT) {
            @Override
            Object apply(Call c, Map<String, Object> r, RecordSource s) {
                String v = c.textArg(0, r, s);
                String separator = c.textArg(1, r, s);
                if (v == null || separator == null) {
                    return null;
                }
                return Arrays.asList((Object[]) v.split(Pattern.quote(separator), -1));
            }
        },
        /** The number of elements of an array (or {@code split} list), of entries of an object. */
        SIZE("size", Kind.LONG, false, Kind.ANY) {
            @Override
            Object apply(Call c, Map<String, Object> r, RecordSource s) {
                Object v = c.arg(0, r, s);
                if (absent(v)) {
                    return null;
                }
                if (v instanceof List<?> list) {
                    return (long) list.size();
                }
                if (v instanceof Map<?, ?> object) {
                    return (long) object.size();
                }
                throw new InvalidEventException(c.text, describe(v), "is " + RecordTree.kind(v)
                        + ", where size takes an array or an object");
            }
        },
        TEXT("text", Kind.TEXT, false, Kind.ANY) {
            @Override
            Object apply(Call c, Map<String, Object> r, RecordSource s) {
                Object v = c.arg(0, r, s);
                if (v == null || v instanceof String) {
                    return v;
                }
                return RecordTree.isScalar(v) ? RecordTree.scalarText(v)
                        : new String(RecordTree.compactJson(v), StandardCharsets.UTF_8);
            }
        },
        LONG("long", Kind.LONG, false, Kind.ANY) {
            @Override
            Object apply(Call c, Map<String, Object> r, RecordSource s) {
                Object v = c.arg(0, r, s);
                if (v == null || v instanceof Long) {
                    return v;
                }
                try {
                    if (v instanceof String t) {
                        return Long.parseLong(t.strip());
                    }
                    if (v instanceof BigDecimal || v instanceof BigInteger) {
                        return new BigDecimal(v.toString()).longValueExact();
                    }
                } catch (NumberFormatException | ArithmeticException e) {
                    // below
                }
                throw new InvalidEventException(c.text, describe(v), "is " + RecordTree.kind(v)
                        + (v instanceof String ? " that is not a whole number of 64 bits" : "")
                        + ", where long takes text of a whole number or a whole number");
            }
        },
        NUMBER("number", Kind.NUMBER, false, Kind.ANY) {
            @Override
            Object apply(Call c, Map<String, Object> r, RecordSource s) {
                Object v = c.arg(0, r, s);
                if (v == null || v instanceof Number) {
                    return v;
                }
                if (v instanceof String t) {
                    try {
                        BigDecimal d = new BigDecimal(t.strip());
                        return d.scale() <= 0 && d.compareTo(LONG_MIN) >= 0 && d.compareTo(LONG_MAX) <= 0
                                ? (Object) d.longValueExact() : d;
                    } catch (NumberFormatException e) {
                        // below
                    }
                }
                throw new InvalidEventException(c.text, describe(v), "is " + RecordTree.kind(v)
                        + (v instanceof String ? " that is not a number" : "") + ", where number takes text of a number");
            }
        },
        MD5("md5", Kind.TEXT, false, Kind.TEXT) {
            @Override
            Object apply(Call c, Map<String, Object> r, RecordSource s) {
                String v = c.textArg(0, r, s);
                return v == null ? null : DigestUtils.md5Hex(v.getBytes(StandardCharsets.UTF_8));
            }
        },
        SHA256("sha256", Kind.TEXT, false, Kind.TEXT) {
            @Override
            Object apply(Call c, Map<String, Object> r, RecordSource s) {
                String v = c.textArg(0, r, s);
                return v == null ? null : DigestUtils.sha256Hex(v.getBytes(StandardCharsets.UTF_8));
            }
        },
        /** Parsed into the node of {@code a | b} ({@code Parser.fallback}); never applied as a call. */
        COALESCE("coalesce", Kind.ANY, true, Kind.ANY) {
            @Override
            Object apply(Call c, Map<String, Object> r, RecordSource s) {
                throw new IllegalStateException("coalesce is parsed as a fallback");
            }
        },
        EXISTS("exists", Kind.BOOL, false, Kind.ANY) {
            @Override
            Object apply(Call c, Map<String, Object> r, RecordSource s) {
                return !absent(c.args.get(0).eval(r, s));
            }
        };

        private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
        private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

        final String token;
        final Kind result;
        final boolean variadic;
        final Kind[] params;

        Fn(String token, Kind result, boolean variadic, Kind... params) {
            this.token = token;
            this.result = result;
            this.variadic = variadic;
            this.params = params;
        }

        abstract Object apply(Call call, Map<String, Object> record, RecordSource source);

        /** Fewest arguments: substring and regexp_extract have an optional last one. */
        int minArgs() {
            return this == SUBSTRING || this == REGEXP_EXTRACT ? params.length - 1 : params.length;
        }

        static Fn of(String token) {
            for (Fn fn : values()) {
                if (fn.token.equals(token)) {
                    return fn;
                }
            }
            return null;
        }

        static String tokens() {
            return String.join(", ", Arrays.stream(values()).map(fn -> fn.token).toList());
        }
    }

    private record Extract(Pattern pattern, int group) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Extract e && e.group == group && e.pattern.pattern().equals(pattern.pattern());
        }

        @Override
        public int hashCode() {
            return pattern.pattern().hashCode() * 31 + group;
        }
    }

    // ---------------------------------------------------------------- values

    /** Why one of {@code nodes} cannot have a value (then neither can their expression), or empty. */
    private static Optional<String> anyCannotYield(List<Node> nodes, Function<FieldPath, Optional<String>> yield) {
        for (Node node : nodes) {
            Optional<String> why = node.cannotYield(yield);
            if (why.isPresent()) {
                return why;
            }
        }
        return Optional.empty();
    }

    /** Why none of a fallback's {@code choices} can have a value (all their reasons), or empty if one can. */
    private static <T> Optional<String> noneCanYield(List<T> choices, Function<T, Optional<String>> why) {
        List<String> reasons = new ArrayList<>();
        for (T choice : choices) {
            Optional<String> reason = why.apply(choice);
            if (reason.isEmpty()) {
                return Optional.empty();
            }
            reasons.add(reason.get());
        }
        return Optional.of(String.join("; ", reasons));
    }

    private static boolean absent(Object value) {
        return value == null || value == RecordTree.NULL;
    }

    /** Equality of values: absent equals nothing, numbers by value, other kinds never equal. */
    private static boolean same(Object l, Object r) {
        if (absent(l) || absent(r)) {
            return false;
        }
        if (l instanceof Number a && r instanceof Number b) {
            return decimal(a).compareTo(decimal(b)) == 0;
        }
        return l.equals(r);
    }

    private static int order(String text, Object l, Object r) {
        if (l instanceof Number a && r instanceof Number b) {
            return decimal(a).compareTo(decimal(b));
        }
        if (l instanceof String a && r instanceof String b) {
            return a.compareTo(b);
        }
        throw new InvalidEventException(text, describe(l) + " vs " + describe(r), "compares " + RecordTree.kind(l)
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

    private static Object describe(Object value) {
        return RecordTree.isScalar(value) ? RecordTree.scalarText(value)
                : new String(RecordTree.compactJson(value), StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- parsing

    /** A refusal while parsing, turned into the IllegalArgumentException that names the expression. */
    private static final class Refusal extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Refusal(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Characters that end a path outside quotes and brackets. */
    private static final String PATH_END = "(),|'=!<>";

    private static final class Parser {
        private final String s;
        private int pos;
        /** The text of the path parsed last. */
        String lastPath;

        Parser(String s) {
            this.s = s;
        }

        Node expression() {
            return or();
        }

        private Node or() {
            int start = pos;
            List<Node> operands = new ArrayList<>(List.of(and()));
            while (keyword("or")) {
                operands.add(and());
            }
            return operands.size() == 1 ? operands.get(0) : logic("or", operands, start);
        }

        private Node and() {
            int start = pos;
            List<Node> operands = new ArrayList<>(List.of(not()));
            while (keyword("and")) {
                operands.add(not());
            }
            return operands.size() == 1 ? operands.get(0) : logic("and", operands, start);
        }

        private Node not() {
            int start = pos;
            if (keyword("not")) {
                return logic("not", List.of(not()), start);
            }
            return compare();
        }

        private Node logic(String op, List<Node> operands, int start) {
            for (Node operand : operands) {
                if (!operand.kind().fits(Kind.BOOL)) {
                    throw new Refusal(op + " takes conditions, and " + describeNode(operand) + " is "
                            + operand.kind().description, null);
                }
            }
            return new Logic(op, List.copyOf(operands), s.substring(start, pos).strip());
        }

        private Node compare() {
            int start = pos;
            Node left = choice();
            skipSpace();
            Op op = operator();
            if (op != null) {
                Node right = choice();
                if (op != Op.EQ && op != Op.NE) {
                    for (Node side : List.of(left, right)) {
                        if (side.kind() == Kind.BOOL || side.kind() == Kind.LIST) {
                            throw new Refusal(op.token + " orders numbers or text, not " + side.kind().description, null);
                        }
                    }
                }
                Kind l = left.kind();
                Kind r = right.kind();
                if (l != Kind.ANY && r != Kind.ANY && !l.fits(r) && !r.fits(l)) {
                    throw new Refusal("'" + s.substring(start, pos).strip() + "' compares " + l.description + " with "
                            + r.description + ", which is never " + (op == Op.NE ? "unequal by value" : "true")
                            + " (convert with text(...), long(...) or number(...))", null);
                }
                return new Compare(op, left, right, s.substring(start, pos).strip());
            }
            int save = pos;
            boolean negated = keyword("not");
            if (keyword("in")) {
                expect('(');
                List<Object> choices = new ArrayList<>();
                do {
                    Node literal = primary();
                    if (!(literal instanceof Literal lit)) {
                        throw error("a literal ('text', a number, true or false) in the list of in");
                    }
                    choices.add(lit.value);
                } while (accept(','));
                expect(')');
                return new In(left, List.copyOf(choices), negated);
            }
            pos = save;
            if (keyword("matches")) {
                int at = pos;
                Node regex = primary();
                if (!(regex instanceof Literal lit) || !(lit.value instanceof String pattern)) {
                    pos = at;
                    throw error("a 'regular expression' in quotes after matches");
                }
                return new Matches(left, compile(pattern, at), s.substring(start, pos).strip());
            }
            return left;
        }

        private Op operator() {
            if (s.startsWith("!=", pos)) {
                pos += 2;
                return Op.NE;
            }
            if (s.startsWith("<=", pos)) {
                pos += 2;
                return Op.LE;
            }
            if (s.startsWith(">=", pos)) {
                pos += 2;
                return Op.GE;
            }
            if (s.startsWith("=", pos)) {
                pos++;
                return Op.EQ;
            }
            if (s.startsWith("<", pos)) {
                pos++;
                return Op.LT;
            }
            if (s.startsWith(">", pos)) {
                pos++;
                return Op.GT;
            }
            return null;
        }

        private Node choice() {
            List<Node> choices = new ArrayList<>(List.of(primary()));
            while (accept('|')) {
                choices.add(primary());
            }
            return fallback(choices);
        }

        /** {@code a | b | c} and {@code coalesce(a, b, c)}: the first choice that has a value. */
        private static Node fallback(List<Node> choices) {
            if (choices.size() == 1) {
                return choices.get(0);
            }
            if (choices.stream().allMatch(c -> c instanceof PathNode)) {
                // Paths alone: one FieldPath with fallbacks, resolved without dispatch.
                String joined = String.join(" | ", choices.stream().map(c -> ((PathNode) c).path.text()).toList());
                try {
                    return new PathNode(FieldPath.parse(joined));
                } catch (IllegalArgumentException e) {
                    throw new Refusal(e.getMessage(), e);
                }
            }
            return new Coalesce(List.copyOf(choices), common(choices));
        }

        private static Kind common(List<Node> nodes) {
            Kind kind = nodes.get(0).kind();
            for (Node node : nodes) {
                if (node.kind() != kind) {
                    return Kind.ANY;
                }
            }
            return kind;
        }

        private Node primary() {
            skipSpace();
            if (pos >= s.length()) {
                throw error("a value");
            }
            char c = s.charAt(pos);
            if (c == '(') {
                pos++;
                Node inner = expression();
                expect(')');
                return inner;
            }
            if (c == '\'') {
                return new Literal(textLiteral(), Kind.TEXT);
            }
            int start = pos;
            String word = pathText();
            if (word.isEmpty()) {
                throw error("a value (a path, 'text', a number, a function call)");
            }
            if (word.equals("true") || word.equals("false")) {
                return new Literal(Boolean.valueOf(word), Kind.BOOL);
            }
            if (word.matches("-?(0|[1-9][0-9]*)")) {
                try {
                    return new Literal(Long.parseLong(word), Kind.LONG);
                } catch (NumberFormatException e) {
                    throw new Refusal(word + " at offset " + start + " is beyond 64 bits", e);
                }
            }
            if (word.matches("-?[0-9]+\\.[0-9]+")) {
                return new Literal(new BigDecimal(word), Kind.NUMBER);
            }
            if (word.matches("-?[0-9].*")) {
                throw new Refusal("'" + word + "' at offset " + start + " is not a number (quote a path name"
                        + " that starts with a digit: \"" + word + "\")", null);
            }
            if (List.of("and", "or", "not", "in", "matches").contains(word)) {
                pos = start;
                throw error("a value (quote a path named " + word + ": \"" + word + "\")");
            }
            skipSpace();
            if (pos < s.length() && s.charAt(pos) == '(' && word.matches("[a-z_0-9]+")) {
                Node call = call(word, start);
                skipSpace();
                if (accept('[')) {
                    int at = pos;
                    String digits = digits();
                    if (digits.isEmpty()) {
                        pos = at;
                        throw error("an index such as [0]");
                    }
                    expect(']');
                    if (call.kind() != Kind.LIST) {
                        throw new Refusal("[" + digits + "] after " + describeNode(call) + ", which is "
                                + call.kind().description + "; only split(...) gives a list", null);
                    }
                    return new Element(call, Integer.parseInt(digits));
                }
                return call;
            }
            return pathOrSource(word, start);
        }

        private Node pathOrSource(String word, int start) {
            if (word.startsWith("$")) {
                int dot = word.indexOf('.');
                String name = word.substring(1, dot < 0 ? word.length() : dot);
                Source source = Source.of(name);
                if (source == null) {
                    throw new Refusal("unknown source '$" + name + "' at offset " + start + " (sources: $key, $header.name,"
                            + " $topic, $partition, $offset, $timestamp, $value; of change events $op, $before, $after, $source; of rows per"
                            + " element $position.alias, $ordinal;"
                            + " quote a field named $" + name + ": \"$" + name + "\")", null);
                }
                String rest = dot < 0 ? null : word.substring(dot + 1);
                if (source.named()) {
                    if (rest == null || rest.isEmpty()) {
                        throw new Refusal("$" + name + " needs a name: " + (source == Source.HEADER ? "$header.trace-id"
                                : "$position.item"), null);
                    }
                    return new SourceNode(source, rest.startsWith("\"") && rest.endsWith("\"") && rest.length() > 1
                            ? rest.substring(1, rest.length() - 1) : rest, null);
                }
                if (rest != null && !source.hasFields()) {
                    throw new Refusal("$" + name + " has no fields ('" + word + "')", null);
                }
                return new SourceNode(source, null, rest == null ? null : path(rest));
            }
            return new PathNode(path(word));
        }

        private FieldPath path(String text) {
            lastPath = text;
            try {
                return FieldPath.parse(text);
            } catch (IllegalArgumentException e) {
                throw new Refusal(e.getMessage(), e);
            }
        }

        private Node call(String name, int start) {
            Fn fn = Fn.of(name);
            if (fn == null) {
                throw new Refusal("unknown function '" + name + "' at offset " + start + " (functions: "
                        + Fn.tokens() + ")", null);
            }
            expect('(');
            List<Node> args = new ArrayList<>();
            skipSpace();
            if (!accept(')')) {
                do {
                    args.add(expression());
                } while (accept(','));
                expect(')');
            }
            String text = s.substring(start, pos).strip();
            int max = fn.variadic ? Integer.MAX_VALUE : fn.params.length;
            int min = fn.variadic ? 1 : fn.minArgs();
            if (args.size() < min || args.size() > max) {
                throw new Refusal(text + ": " + name + " takes " + (fn.variadic ? "one or more arguments"
                        : min == max ? min + " argument" + (min == 1 ? "" : "s") : min + " or " + max + " arguments")
                        + ", got " + args.size(), null);
            }
            for (int i = 0; i < args.size(); i++) {
                Kind expected = fn.params[Math.min(i, fn.params.length - 1)];
                Kind actual = args.get(i).kind();
                if (!actual.fits(expected) || expected == Kind.TEXT && actual == Kind.LIST) {
                    throw new Refusal(text + ": argument " + (i + 1) + " of " + name + " is " + actual.description
                            + ", where " + expected.description + " is expected"
                            + (expected == Kind.TEXT ? " (convert with text(...))" : ""), null);
                }
            }
            Object constant = null;
            if (fn == Fn.REGEXP_EXTRACT) {
                if (!(args.get(1) instanceof Literal regex) || !(regex.value instanceof String pattern)) {
                    throw new Refusal(text + ": the regular expression of regexp_extract must be a 'literal'", null);
                }
                Pattern compiled = compile(pattern, start);
                int group = compiled.matcher("").groupCount() > 0 ? 1 : 0;
                if (args.size() == 3) {
                    if (!(args.get(2) instanceof Literal g) || !(g.value instanceof Long n)) {
                        throw new Refusal(text + ": the group of regexp_extract must be a whole number literal", null);
                    }
                    if (n < 0 || n > compiled.matcher("").groupCount()) {
                        throw new Refusal(text + ": group " + n + " is not in '" + pattern + "', which has "
                                + compiled.matcher("").groupCount() + " group(s)", null);
                    }
                    group = n.intValue();
                }
                constant = new Extract(compiled, group);
            }
            if (fn == Fn.EXISTS && !(args.get(0) instanceof PathNode || args.get(0) instanceof SourceNode)) {
                throw new Refusal(text + ": exists takes a path or a source", null);
            }
            if (fn == Fn.SPLIT && !(args.get(1) instanceof Literal)) {
                throw new Refusal(text + ": the separator of split must be a 'literal'", null);
            }
            if (fn == Fn.COALESCE) {
                return fallback(args);
            }
            return new Call(fn, List.copyOf(args), constant, text);
        }

        private Pattern compile(String regex, int at) {
            try {
                return Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                throw new Refusal("'" + regex + "' at offset " + at + " is not a regular expression: "
                        + e.getDescription(), e);
            }
        }

        /** A path's text (names, quoted names, dots, [indexes]) or a word; stops at an operator or space. */
        private String pathText() {
            int start = pos;
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == '"') {
                    pos++;
                    while (pos < s.length() && s.charAt(pos) != '"') {
                        pos += s.charAt(pos) == '\\' ? 2 : 1;
                    }
                    if (pos >= s.length()) {
                        throw error("a closing '\"'");
                    }
                    pos++;
                } else if (c == '[') {
                    // An index belongs to the path unless the word is a function's name (split(...)[0]).
                    int close = s.indexOf(']', pos);
                    if (close < 0 || pos == start) {
                        break;
                    }
                    pos = close + 1;
                } else if (Character.isWhitespace(c) || PATH_END.indexOf(c) >= 0) {
                    break;
                } else {
                    pos++;
                }
            }
            return s.substring(start, pos);
        }

        private String textLiteral() {
            int start = pos;
            pos++;
            StringBuilder out = new StringBuilder();
            while (true) {
                if (pos >= s.length()) {
                    pos = start;
                    throw error("a closing ' for the text that starts here");
                }
                char c = s.charAt(pos++);
                if (c == '\'') {
                    if (pos < s.length() && s.charAt(pos) == '\'') {
                        out.append('\'');
                        pos++;
                    } else {
                        return out.toString();
                    }
                } else {
                    out.append(c);
                }
            }
        }

        private String digits() {
            int start = pos;
            while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                pos++;
            }
            return s.substring(start, pos);
        }

        private boolean keyword(String word) {
            skipSpace();
            if (s.startsWith(word, pos)) {
                int end = pos + word.length();
                if (end == s.length() || Character.isWhitespace(s.charAt(end)) || s.charAt(end) == '(') {
                    pos = end;
                    return true;
                }
            }
            return false;
        }

        private boolean accept(char c) {
            skipSpace();
            if (pos < s.length() && s.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        private void expect(char c) {
            if (!accept(c)) {
                throw error("'" + c + "'");
            }
        }

        void skipSpace() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        Refusal error(String expected) {
            return new Refusal("expected " + expected + " at offset " + pos
                    + (pos < s.length() ? " ('" + s.substring(pos, Math.min(s.length(), pos + 12)) + "')" : " (the end)"),
                    null);
        }

        private static String describeNode(Node node) {
            if (node instanceof Call call) {
                return call.text;
            }
            if (node instanceof PathNode path) {
                return path.path.text();
            }
            if (node instanceof Literal literal) {
                return literal.value instanceof String t ? "'" + t + "'" : String.valueOf(literal.value);
            }
            return "this";
        }
    }
}
