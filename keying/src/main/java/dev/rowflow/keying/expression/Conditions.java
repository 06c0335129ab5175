package dev.rowflow.keying.expression;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.expression.Expression.Kind;
import dev.rowflow.keying.mapping.RecordSource;
import dev.rowflow.keying.mapping.RecordTree;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static dev.rowflow.keying.expression.Values.absent;
import static dev.rowflow.keying.expression.Values.describe;
import static dev.rowflow.keying.expression.Values.order;
import static dev.rowflow.keying.expression.Values.same;

/** The nodes that are conditions: comparisons, {@code in}, {@code matches}, {@code and}, {@code or}, {@code not}. */
final class Conditions {
    private Conditions() {
    }

    enum Op {
        EQ("="), NE("!="), LT("<"), LE("<="), GT(">"), GE(">=");

        final String token;

        Op(String token) {
            this.token = token;
        }
    }

    record Compare(Op op, Node left, Node right, String text) implements Node {
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

    record In(Node value, List<Object> choices, boolean negated) implements Node {
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

    record Matches(Node value, Pattern pattern, String text) implements Node {
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
                throw new InvalidEventException(Refusal.WRONG_KIND,
                        text, describe(v), "is " + RecordTree.kind(v)
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
    record Logic(String op, List<Node> operands, String text) implements Node {
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
            throw new InvalidEventException(Refusal.WRONG_KIND,
                    text, describe(value), "is " + RecordTree.kind(value)
                    + ", where " + op + " takes a condition (true or false)");
        }

        @Override
        public Kind kind() {
            return Kind.BOOL;
        }
    }
}
