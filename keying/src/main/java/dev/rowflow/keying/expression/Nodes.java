package dev.rowflow.keying.expression;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.expression.Expression.Kind;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.RecordSource;
import dev.rowflow.keying.mapping.RecordTree;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import static dev.rowflow.keying.expression.Values.absent;
import static dev.rowflow.keying.expression.Values.describe;

/** The nodes that are values: literals, paths, sources, fallbacks, function calls and list elements. */
final class Nodes {
    private Nodes() {
    }

    record Literal(Object value, Kind kind) implements Node {
        @Override
        public Object eval(Map<String, Object> record, RecordSource source) {
            return value;
        }
    }

    record PathNode(FieldPath path) implements Node {
        @Override
        public void forEachPath(Consumer<FieldPath> action) {
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
            return Node.noneCanYield(path.alternatives(), yield);
        }
    }

    /** {@code $topic}, {@code $key.id}...: {@code under} the path below the source's value, or null. */
    record SourceNode(Source source, String header, FieldPath under) implements Node {
        @Override
        public void forEachSource(Consumer<Source> action) {
            action.accept(source);
        }

        @Override
        public void forEachElementSource(Consumer<String> action) {
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

    record Coalesce(List<Node> choices, Kind kind) implements Node {
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
            return Node.noneCanYield(choices, choice -> choice.cannotYield(yield));
        }
    }

    /** A function call; {@code text} as written, for the reasons records are set aside with. */
    record Call(Functions fn, List<Node> args, Object constant, String text) implements Node {
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
            return o instanceof Call c && c.fn == fn && c.args.equals(args) && Objects.equals(c.constant, constant);
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
            throw new InvalidEventException(Refusal.WRONG_KIND,
                    text, describe(value), "is " + RecordTree.kind(value) + ", where "
                    + fn.token + " takes text (convert with text(...))");
        }

        long longArg(int i, Map<String, Object> record, RecordSource source) {
            Object value = arg(i, record, source);
            if (value instanceof Long l) {
                return l;
            }
            throw new InvalidEventException(Refusal.WRONG_KIND,
                    text, value == null ? null : describe(value), "argument " + (i + 1)
                    + " of " + fn.token + " is " + (value == null ? "missing" : RecordTree.kind(value))
                    + ", where a whole number is expected");
        }
    }

    /** {@code split(...)[i]}: the element, or absent past the end. */
    record Element(Node list, int index) implements Node {
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
}
