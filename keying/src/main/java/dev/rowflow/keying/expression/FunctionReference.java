package dev.rowflow.keying.expression;

import dev.rowflow.keying.expression.Expression.Kind;

import java.util.ArrayList;
import java.util.List;

/**
 * The reference of the mapping language's functions, rendered from the functions themselves so
 * that it cannot drift from what the parser accepts: docs/mapping.md holds it between the markers
 * {@code <!-- functions:begin ... -->} and {@code <!-- functions:end -->}, and a test holds the two
 * equal.
 */
public final class FunctionReference {
    private FunctionReference() {
    }

    /**
     * A Markdown table of every function, in the order the parser lists them: its name, its
     * signature (the kinds its arguments must have: {@code text}, {@code long} for a whole number,
     * {@code number}, {@code any} value; {@code [, ...]} optional, {@code , ...} repeated), the
     * kind of its result, what it does and an example with what the example gives. Each line ends
     * with a line break.
     */
    public static String markdown() {
        StringBuilder out = new StringBuilder();
        out.append("| function | signature | result | description | example |\n");
        out.append("|---|---|---|---|---|\n");
        for (Functions fn : Functions.values()) {
            out.append("| `").append(fn.token).append("` | `").append(cell(signature(fn))).append("` | ")
                    .append(fn.result.description).append(" | ").append(cell(fn.description)).append(" | `")
                    .append(cell(fn.example)).append("` -> `").append(cell(fn.gives)).append("` |\n");
        }
        return out.toString();
    }

    /** {@code substring(text, long[, long])}, {@code concat(text, ...)}. */
    private static String signature(Functions fn) {
        List<String> required = new ArrayList<>();
        for (int i = 0; i < (fn.variadic ? fn.params.length : fn.minArgs()); i++) {
            required.add(kind(fn.params[i]));
        }
        StringBuilder out = new StringBuilder(fn.token).append('(').append(String.join(", ", required));
        if (fn.variadic) {
            out.append(", ...");
        }
        for (int i = fn.variadic ? fn.params.length : fn.minArgs(); i < fn.params.length; i++) {
            out.append("[, ").append(kind(fn.params[i])).append(']');
        }
        return out.append(')').toString();
    }

    private static String kind(Kind kind) {
        return switch (kind) {
            case TEXT -> "text";
            case LONG -> "long";
            case NUMBER -> "number";
            case BOOL -> "condition";
            case LIST -> "list";
            case ANY -> "any";
        };
    }

    /** A table cell: a pipe would end it, even in code (GitHub's tables). */
    private static String cell(String text) {
        return text.replace("|", "\\|");
    }
}
