package dev.rowflow.keying.mapping;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a value sits in a record: a path of names and array positions, parsed once per input
 * and resolved against every record without parsing or allocating.
 *
 * <h2>Syntax</h2>
 * <pre>
 * path  := step ("." step | "[" index "]")*
 * step  := name | '"' quoted '"'
 * name  := one or more characters other than  . [ ] " , | : = * + ( ) and whitespace
 *          (so {@code @timestamp}, {@code log-file}, {@code $id} are names)
 * quoted:= any characters, {@code \"} and {@code \\} escaped (a name with dots, spaces, colons...)
 * index := 0 | [1-9][0-9]*      (an array element, 0-based)
 *        | "*"                     (every element, as JSONPath's [*])
 * </pre>
 * Examples: {@code host.name}, {@code @timestamp}, {@code tags[0]}, {@code kubernetes.labels."app.kubernetes.io/name"}.
 *
 * <h2>Fallbacks</h2>
 * {@code path | path | ...} resolves to the first of the paths whose value is present and not
 * null ({@code host.name | host}: ECS records carry {@code host.name}, older ones a {@code host}
 * string); to {@link RecordTree#NULL} if none has a value but one is null; else to null (absent).
 *
 * <h2>Resolution</h2>
 * Each name is looked up in the object at hand. <b>Dotted keys</b>: where the nested path is
 * absent, the names that follow are tried joined with dots as one key, longest last -- so
 * {@code log.level} finds {@code {"log":{"level":"warn"}}} and also {@code {"log.level":"warn"}}
 * (ECS documents may carry both forms), and {@code log.file.path} finds
 * {@code {"log":{"file.path":"/x"}}}. The nested form wins where both are present. A path that
 * runs into a scalar, a missing key or an index past the end of an array yields {@code null}
 * (absent); a JSON {@code null} yields {@link RecordTree#NULL}.
 *
 * <p><b>Every element</b>: a path with {@code [*]} yields the list of what the rest of the path
 * finds in each element of the array (absent and null values left out), the lists of further
 * {@code [*]} steps flattened into it: {@code shippingLocations[*].lineItems[*]} is every line
 * item of every location, {@code size(...)} of it their number. An absent array yields absent,
 * an empty one an empty list.
 *
 * <p>Immutable and thread-safe.
 */
public final class FieldPath {
    private final String text;
    /** The step {@code [*]}: every element of an array. */
    public static final Object EVERY = new Object() {
        @Override
        public String toString() {
            return "[*]";
        }
    };

    /** Each step: a {@link String} name, an {@link Integer} array index or {@link #EVERY}. */
    private final Object[] steps;
    /** Whether a {@code [*]} step comes at or after each step: its results are lists to flatten. */
    private final boolean[] everyFrom;
    /**
     * For each step {@code i} that is a name: the keys to try when {@code steps[i]} is absent,
     * {@code steps[i].steps[i+1]...steps[j]} for each following name step {@code j}, computed
     * once here so that resolving never concatenates.
     */
    private final String[][] dottedKeys;
    /** The paths tried in order, or null for a single path. */
    private final FieldPath[] alternatives;

    private FieldPath(String text, FieldPath[] alternatives) {
        this.text = text;
        this.steps = alternatives[0].steps;
        this.dottedKeys = alternatives[0].dottedKeys;
        this.everyFrom = alternatives[0].everyFrom;
        this.alternatives = alternatives;
    }

    private FieldPath(String text, Object[] steps) {
        this.text = text;
        this.steps = steps;
        this.alternatives = null;
        this.everyFrom = new boolean[steps.length + 1];
        for (int i = steps.length - 1; i >= 0; i--) {
            everyFrom[i] = everyFrom[i + 1] || steps[i] == EVERY;
        }
        this.dottedKeys = new String[steps.length][];
        for (int i = 0; i < steps.length; i++) {
            if (!(steps[i] instanceof String first)) {
                continue;
            }
            List<String> keys = new ArrayList<>();
            StringBuilder joined = new StringBuilder(first);
            for (int j = i + 1; j < steps.length && steps[j] instanceof String next; j++) {
                joined.append('.').append(next);
                keys.add(joined.toString());
            }
            dottedKeys[i] = keys.toArray(String[]::new);
        }
    }

    /**
     * Parses a path.
     *
     * @throws IllegalArgumentException naming the path, the offset and what was expected there
     */
    public static FieldPath parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("a field path must not be empty");
        }
        List<String> choices = splitOutsideQuotes(text, '|');
        if (choices.size() == 1) {
            return parseOne(text);
        }
        FieldPath[] alternatives = new FieldPath[choices.size()];
        for (int i = 0; i < alternatives.length; i++) {
            String choice = choices.get(i).strip();
            if (choice.isEmpty()) {
                throw new IllegalArgumentException("field path '" + text + "': fallback " + (i + 1)
                        + " is empty (expected 'path | path')");
            }
            alternatives[i] = parseOne(choice);
            for (int j = 0; j < i; j++) {
                if (alternatives[j].equals(alternatives[i])) {
                    throw new IllegalArgumentException("field path '" + text + "': " + choice + " is a fallback twice");
                }
            }
        }
        return new FieldPath(String.join(" | ", choices.stream().map(String::strip).toList()), alternatives);
    }

    /** The text split at each {@code separator} outside a quoted name (path syntax: {@code "a|b"} is one name). */
    static List<String> splitOutsideQuotes(String text, char separator) {
        List<String> parts = new ArrayList<>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && quoted) {
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == separator && !quoted) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(text.substring(start));
        return parts;
    }

    private static FieldPath parseOne(String text) {
        List<Object> steps = new ArrayList<>();
        int i = 0;
        int n = text.length();
        boolean expectStep = true;
        while (i < n) {
            char c = text.charAt(i);
            if (expectStep) {
                if (c == '"') {
                    StringBuilder name = new StringBuilder();
                    i++;
                    while (true) {
                        if (i >= n) {
                            throw error(text, i, "a closing '\"'");
                        }
                        char q = text.charAt(i);
                        if (q == '\\' && i + 1 < n && (text.charAt(i + 1) == '"' || text.charAt(i + 1) == '\\')) {
                            name.append(text.charAt(i + 1));
                            i += 2;
                        } else if (q == '"') {
                            i++;
                            break;
                        } else {
                            name.append(q);
                            i++;
                        }
                    }
                    if (name.length() == 0) {
                        throw error(text, i - 2, "a name (\"\" is empty)");
                    }
                    steps.add(name.toString());
                } else {
                    int start = i;
                    while (i < n && isNameChar(text.charAt(i))) {
                        i++;
                    }
                    if (i == start) {
                        throw error(text, i, "a name or a quoted \"name\"");
                    }
                    steps.add(text.substring(start, i));
                }
                expectStep = false;
            } else if (c == '.') {
                i++;
                expectStep = true;
            } else if (c == '[') {
                int close = text.indexOf(']', i);
                if (close < 0) {
                    throw error(text, i, "an index such as [0] closed by ']'");
                }
                String digits = text.substring(i + 1, close);
                if (digits.equals("*")) {
                    steps.add(EVERY);
                    i = close + 1;
                    continue;
                }
                if (!digits.matches("0|[1-9][0-9]{0,8}")) {
                    throw error(text, i + 1, "an array index (0, 1, 2...) or *");
                }
                steps.add(Integer.valueOf(digits));
                i = close + 1;
            } else {
                throw error(text, i, "'.' or '[' after a step");
            }
        }
        if (expectStep) {
            throw error(text, n, "a name after the last '.'");
        }
        return new FieldPath(text, steps.toArray());
    }

    private static boolean isNameChar(char c) {
        return !Character.isWhitespace(c) && ".[]\",|:=*+()".indexOf(c) < 0;
    }

    private static IllegalArgumentException error(String text, int offset, String expected) {
        return new IllegalArgumentException("field path '" + text + "': expected " + expected + " at offset " + offset);
    }

    /** The path as written. */
    public String text() {
        return text;
    }

    /**
     * The steps: each a {@link String} name, an {@link Integer} array index or {@link #EVERY} (of
     * the first fallback).
     */
    public List<Object> steps() {
        return List.of(steps);
    }

    /** The paths tried in order: this one alone unless it has fallbacks. */
    public List<FieldPath> alternatives() {
        return alternatives == null ? List.of(this) : List.of(alternatives);
    }

    /** Whether a step of this path (of any fallback) is {@code [*]}: it yields a list. */
    public boolean hasEvery() {
        return alternatives == null ? everyFrom[0] : java.util.Arrays.stream(alternatives).anyMatch(FieldPath::hasEvery);
    }

    /** Whether this path has fallbacks ({@code a | b}). */
    public boolean hasFallbacks() {
        return alternatives != null;
    }

    /** Whether {@code other} is this path or lies under it ({@code a.b} is under {@code a}). */
    public boolean covers(FieldPath other) {
        if (alternatives != null || other.alternatives != null) {
            return equals(other);
        }
        if (other.steps.length < steps.length) {
            return false;
        }
        for (int i = 0; i < steps.length; i++) {
            if (!steps[i].equals(other.steps[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * The value at this path in a {@link RecordTree} (objects as {@code Map<String, Object>},
     * arrays as {@code List<Object>}): a scalar, an object, an array, {@link RecordTree#NULL}, or
     * null if absent.
     */
    public Object resolve(Map<String, Object> record) {
        return alternatives == null ? resolve(record, 0) : resolve(record, ANY_VALUE);
    }

    private static final java.util.function.Predicate<Object> ANY_VALUE = value -> true;

    /**
     * The same where the value must be of a type: the first alternative that is present and that
     * {@code accepts}; if none is, the first present (whose type the caller then refuses), else
     * null or {@link RecordTree#NULL}.
     */
    public Object resolve(Map<String, Object> record, java.util.function.Predicate<Object> accepts) {
        if (alternatives == null) {
            return resolve(record, 0);
        }
        Object found = null;
        for (FieldPath alternative : alternatives) {
            Object value = alternative.resolve(record, 0);
            if (value != null && value != RecordTree.NULL) {
                if (accepts.test(value)) {
                    return value;
                }
                if (found == null || found == RecordTree.NULL) {
                    found = value;
                }
            } else if (found == null) {
                found = value; // null stays absent, RecordTree.NULL says it is null
            }
        }
        return found;
    }

    private Object resolve(Object node, int from) {
        if (from == steps.length) {
            return node;
        }
        Object step = steps[from];
        if (step == EVERY) {
            if (!(node instanceof List<?> list)) {
                return null;
            }
            List<Object> found = new ArrayList<>(list.size());
            for (Object element : list) {
                Object value = resolve(element, from + 1);
                if (value == null || value == RecordTree.NULL) {
                    continue;
                }
                if (everyFrom[from + 1] && value instanceof List<?> further) {
                    found.addAll(further);
                } else {
                    found.add(value);
                }
            }
            return found;
        }
        if (step instanceof Integer index) {
            if (node instanceof List<?> list && index < list.size()) {
                return resolve(list.get(index), from + 1);
            }
            return null;
        }
        if (!(node instanceof Map<?, ?> object)) {
            return null;
        }
        Object child = object.get(step);
        if (child != null) {
            Object found = resolve(child, from + 1);
            if (found != null) {
                return found;
            }
        }
        // The nested path is absent: try the following names joined with dots as one key.
        String[] dotted = dottedKeys[from];
        for (int k = 0; k < dotted.length; k++) {
            Object joined = object.get(dotted[k]);
            if (joined != null) {
                Object found = resolve(joined, from + 2 + k);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldPath p && (alternatives == null ? p.alternatives == null
                && java.util.Arrays.equals(steps, p.steps) : java.util.Arrays.equals(alternatives, p.alternatives));
    }

    @Override
    public int hashCode() {
        return alternatives == null ? java.util.Arrays.hashCode(steps) : java.util.Arrays.hashCode(alternatives);
    }

    @Override
    public String toString() {
        return text;
    }
}
