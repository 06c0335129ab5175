package dev.rowflow.keying.layout;

import java.util.ArrayList;
import java.util.List;

/**
 * Splitting the spec texts whose entries may hold expressions (key layouts, column lists): a
 * separator counts only outside quotes (path names in {@code "}, text in {@code '}), parentheses
 * and brackets, so {@code concat(a, ',', b)=q, host} is two entries.
 */
public final class SpecText {
    private SpecText() {
    }

    /**
     * The text split at each {@code separator} that is outside quotes (path names in {@code "},
     * text in {@code '}), parentheses and brackets: the entries of a list whose entries may hold
     * expressions ({@code concat(a, ',', b)=q, host} is two entries).
     */
    public static List<String> splitTopLevel(String text, char separator) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        for (int i = topLevel(text, separator, 0); i >= 0; i = topLevel(text, separator, i + 1)) {
            parts.add(text.substring(start, i));
            start = i + 1;
        }
        parts.add(text.substring(start));
        return parts;
    }

    /** The index of the last {@code wanted} outside quotes, parentheses and brackets, or -1. */
    public static int lastIndexTopLevel(String text, char wanted) {
        int found = -1;
        for (int i = topLevel(text, wanted, 0); i >= 0; i = topLevel(text, wanted, i + 1)) {
            found = i;
        }
        return found;
    }

    private static int topLevel(String text, char wanted, int from) {
        int depth = 0;
        char quote = 0;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == '\\' && quote == '"') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == wanted && depth == 0) {
                return i;
            } else if (c == '(' || c == '[') {
                depth++;
            } else if (c == ')' || c == ']') {
                depth--;
            }
        }
        return -1;
    }
}
