package dev.rowflow.keying.expression;

import dev.rowflow.keying.expression.Conditions.Compare;
import dev.rowflow.keying.expression.Conditions.In;
import dev.rowflow.keying.expression.Conditions.Logic;
import dev.rowflow.keying.expression.Conditions.Matches;
import dev.rowflow.keying.expression.Conditions.Op;
import dev.rowflow.keying.expression.Expression.Kind;
import dev.rowflow.keying.expression.Functions.Extract;
import dev.rowflow.keying.expression.Nodes.Call;
import dev.rowflow.keying.expression.Nodes.Coalesce;
import dev.rowflow.keying.expression.Nodes.Element;
import dev.rowflow.keying.expression.Nodes.Literal;
import dev.rowflow.keying.expression.Nodes.PathNode;
import dev.rowflow.keying.expression.Nodes.SourceNode;
import dev.rowflow.keying.logical.LogicalType;
import dev.rowflow.keying.mapping.FieldPath;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Parses the grammar of {@link Expression} into {@link Node}s, one level per rule, and checks at
 * start what can be checked: the kinds of operands and arguments, the number of arguments, the
 * regular expressions and the literals some functions need.
 */
final class Parser {
    private final Scanner in;
    /** The text of the path parsed last. */
    private String lastPath;

    private Parser(String s) {
        this.in = new Scanner(s);
    }

    /**
     * The root node of {@code text}, which is not blank.
     *
     * @throws IllegalArgumentException as {@link Expression#parse}
     */
    static Node parse(String text) {
        Parser parser = new Parser(text);
        try {
            Node root = parser.expression();
            parser.in.skipSpace();
            if (!parser.in.atEnd()) {
                throw parser.in.error("an operator or the end");
            }
            return root;
        } catch (ParseRefusal e) {
            if (e.getCause() instanceof IllegalArgumentException path && text.strip().equals(parser.lastPath)) {
                throw path; // a path alone: the path's own refusal says it all
            }
            throw new IllegalArgumentException("expression '" + text.strip() + "': " + e.getMessage(), e);
        }
    }

    private Node expression() {
        return or();
    }

    private Node or() {
        int start = in.pos();
        List<Node> operands = new ArrayList<>(List.of(and()));
        while (in.keyword("or")) {
            operands.add(and());
        }
        return operands.size() == 1 ? operands.get(0) : logic("or", operands, start);
    }

    private Node and() {
        int start = in.pos();
        List<Node> operands = new ArrayList<>(List.of(not()));
        while (in.keyword("and")) {
            operands.add(not());
        }
        return operands.size() == 1 ? operands.get(0) : logic("and", operands, start);
    }

    private Node not() {
        int start = in.pos();
        if (in.keyword("not")) {
            return logic("not", List.of(not()), start);
        }
        return compare();
    }

    private Node logic(String op, List<Node> operands, int start) {
        for (Node operand : operands) {
            if (!operand.kind().fits(Kind.BOOL)) {
                throw new ParseRefusal(op + " takes conditions, and " + describeNode(operand) + " is "
                        + operand.kind().description, null);
            }
        }
        return new Logic(op, List.copyOf(operands), in.since(start));
    }

    private Node compare() {
        int start = in.pos();
        Node left = choice();
        in.skipSpace();
        Op op = in.operator();
        if (op != null) {
            Node right = choice();
            if (op != Op.EQ && op != Op.NE) {
                for (Node side : List.of(left, right)) {
                    if (side.kind() == Kind.BOOL || side.kind() == Kind.LIST) {
                        throw new ParseRefusal(op.token + " orders numbers or text, not " + side.kind().description, null);
                    }
                }
            }
            Kind l = left.kind();
            Kind r = right.kind();
            if (l != Kind.ANY && r != Kind.ANY && !l.fits(r) && !r.fits(l)) {
                throw new ParseRefusal("'" + in.since(start) + "' compares " + l.description + " with "
                        + r.description + ", which is never " + (op == Op.NE ? "unequal by value" : "true")
                        + " (convert with text(...), long(...) or number(...))", null);
            }
            return new Compare(op, left, right, in.since(start));
        }
        int save = in.pos();
        boolean negated = in.keyword("not");
        if (in.keyword("in")) {
            in.expect('(');
            List<Object> choices = new ArrayList<>();
            do {
                Node literal = primary();
                if (!(literal instanceof Literal lit)) {
                    throw in.error("a literal ('text', a number, true or false) in the list of in");
                }
                choices.add(lit.value());
            } while (in.accept(','));
            in.expect(')');
            return new In(left, List.copyOf(choices), negated);
        }
        in.reset(save);
        if (in.keyword("matches")) {
            int at = in.pos();
            Node regex = primary();
            if (!(regex instanceof Literal lit) || !(lit.value() instanceof String pattern)) {
                in.reset(at);
                throw in.error("a 'regular expression' in quotes after matches");
            }
            return new Matches(left, compile(pattern, at), in.since(start));
        }
        return left;
    }

    private Node choice() {
        List<Node> choices = new ArrayList<>(List.of(primary()));
        while (in.accept('|')) {
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
            String joined = String.join(" | ", choices.stream().map(c -> ((PathNode) c).path().text()).toList());
            try {
                return new PathNode(FieldPath.parse(joined));
            } catch (IllegalArgumentException e) {
                throw new ParseRefusal(e.getMessage(), e);
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
        in.skipSpace();
        if (in.atEnd()) {
            throw in.error("a value");
        }
        char c = in.peek();
        if (c == '(') {
            in.advance();
            Node inner = expression();
            in.expect(')');
            return inner;
        }
        if (c == '\'') {
            return new Literal(in.textLiteral(), Kind.TEXT);
        }
        int start = in.pos();
        String word = in.pathText();
        if (word.isEmpty()) {
            throw in.error("a value (a path, 'text', a number, a function call)");
        }
        if (word.equals("true") || word.equals("false")) {
            return new Literal(Boolean.valueOf(word), Kind.BOOL);
        }
        if (word.matches("-?(0|[1-9][0-9]*)")) {
            try {
                return new Literal(Long.parseLong(word), Kind.LONG);
            } catch (NumberFormatException e) {
                throw new ParseRefusal(word + " at offset " + start + " is beyond 64 bits", e);
            }
        }
        if (word.matches("-?[0-9]+\\.[0-9]+")) {
            return new Literal(new BigDecimal(word), Kind.NUMBER);
        }
        if (word.matches("-?[0-9].*")) {
            throw new ParseRefusal("'" + word + "' at offset " + start + " is not a number (quote a path name"
                    + " that starts with a digit: \"" + word + "\")", null);
        }
        if (List.of("and", "or", "not", "in", "matches").contains(word)) {
            in.reset(start);
            throw in.error("a value (quote a path named " + word + ": \"" + word + "\")");
        }
        in.skipSpace();
        if (!in.atEnd() && in.peek() == '(' && word.matches("[a-z_0-9]+")) {
            Node call = call(word, start);
            in.skipSpace();
            if (in.accept('[')) {
                int at = in.pos();
                String digits = in.digits();
                if (digits.isEmpty()) {
                    in.reset(at);
                    throw in.error("an index such as [0]");
                }
                in.expect(']');
                if (call.kind() != Kind.LIST) {
                    throw new ParseRefusal("[" + digits + "] after " + describeNode(call) + ", which is "
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
                throw new ParseRefusal("unknown source '$" + name + "' at offset " + start + " (sources: $key, $header.name,"
                        + " $topic, $partition, $offset, $timestamp, $value; of change events $op, $before, $after, $source; of rows per"
                        + " element $position.alias, $ordinal;"
                        + " quote a field named $" + name + ": \"$" + name + "\")", null);
            }
            String rest = dot < 0 ? null : word.substring(dot + 1);
            if (source.named()) {
                if (rest == null || rest.isEmpty()) {
                    throw new ParseRefusal("$" + name + " needs a name: " + (source == Source.HEADER ? "$header.trace-id"
                            : "$position.item"), null);
                }
                return new SourceNode(source, rest.startsWith("\"") && rest.endsWith("\"") && rest.length() > 1
                        ? rest.substring(1, rest.length() - 1) : rest, null);
            }
            if (rest != null && !source.hasFields()) {
                throw new ParseRefusal("$" + name + " has no fields ('" + word + "')", null);
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
            throw new ParseRefusal(e.getMessage(), e);
        }
    }

    private Node call(String name, int start) {
        Functions fn = Functions.of(name);
        if (fn == null) {
            throw new ParseRefusal("unknown function '" + name + "' at offset " + start + " (functions: "
                    + Functions.tokens() + ")", null);
        }
        in.expect('(');
        List<Node> args = new ArrayList<>();
        in.skipSpace();
        if (!in.accept(')')) {
            do {
                args.add(expression());
            } while (in.accept(','));
            in.expect(')');
        }
        String text = in.since(start);
        int max = fn.variadic ? Integer.MAX_VALUE : fn.params.length;
        int min = fn.variadic ? 1 : fn.minArgs();
        if (args.size() < min || args.size() > max) {
            throw new ParseRefusal(text + ": " + name + " takes " + (fn.variadic ? "one or more arguments"
                    : min == max ? min + " argument" + (min == 1 ? "" : "s") : min + " or " + max + " arguments")
                    + ", got " + args.size(), null);
        }
        for (int i = 0; i < args.size(); i++) {
            Kind expected = fn.params[Math.min(i, fn.params.length - 1)];
            Kind actual = args.get(i).kind();
            if (!actual.fits(expected) || expected == Kind.TEXT && actual == Kind.LIST) {
                throw new ParseRefusal(text + ": argument " + (i + 1) + " of " + name + " is " + actual.description
                        + ", where " + expected.description + " is expected"
                        + (expected == Kind.TEXT ? " (convert with text(...))" : ""), null);
            }
        }
        Object constant = null;
        if (fn == Functions.REGEXP_EXTRACT) {
            if (!(args.get(1) instanceof Literal regex) || !(regex.value() instanceof String pattern)) {
                throw new ParseRefusal(text + ": the regular expression of regexp_extract must be a 'literal'", null);
            }
            Pattern compiled = compile(pattern, start);
            int group = compiled.matcher("").groupCount() > 0 ? 1 : 0;
            if (args.size() == 3) {
                if (!(args.get(2) instanceof Literal g) || !(g.value() instanceof Long n)) {
                    throw new ParseRefusal(text + ": the group of regexp_extract must be a whole number literal", null);
                }
                if (n < 0 || n > compiled.matcher("").groupCount()) {
                    throw new ParseRefusal(text + ": group " + n + " is not in '" + pattern + "', which has "
                            + compiled.matcher("").groupCount() + " group(s)", null);
                }
                group = n.intValue();
            }
            constant = new Extract(compiled, group);
        }
        if (fn == Functions.CONVERT) {
            if (!(args.get(1) instanceof Literal type) || !(type.value() instanceof String typeName)) {
                throw new ParseRefusal(text + ": the type of convert must be a 'literal', one of " + LogicalType.NAMES, null);
            }
            try {
                constant = LogicalType.parse(typeName);
            } catch (IllegalArgumentException e) {
                throw new ParseRefusal(text + ": " + e.getMessage(), null);
            }
        }
        if (fn == Functions.EXISTS && !(args.get(0) instanceof PathNode || args.get(0) instanceof SourceNode)) {
            throw new ParseRefusal(text + ": exists takes a path or a source", null);
        }
        if (fn == Functions.SPLIT && !(args.get(1) instanceof Literal)) {
            throw new ParseRefusal(text + ": the separator of split must be a 'literal'", null);
        }
        if (fn == Functions.COALESCE) {
            return fallback(args);
        }
        return new Call(fn, List.copyOf(args), constant, text);
    }

    private Pattern compile(String regex, int at) {
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new ParseRefusal("'" + regex + "' at offset " + at + " is not a regular expression: "
                    + e.getDescription(), e);
        }
    }

    private static String describeNode(Node node) {
        if (node instanceof Call call) {
            return call.text();
        }
        if (node instanceof PathNode path) {
            return path.path().text();
        }
        if (node instanceof Literal literal) {
            return literal.value() instanceof String t ? "'" + t + "'" : String.valueOf(literal.value());
        }
        return "this";
    }
}
