package dev.rowflow.keying.expression;

import dev.rowflow.keying.expression.Conditions.Op;

/**
 * The characters of an expression as the {@link Parser} reads them: words and paths, text
 * literals, operators, keywords and punctuation, from a position it may go back to. Its refusals
 * say what was expected at which offset.
 */
final class Scanner {
    /** Characters that end a path outside quotes and brackets. */
    private static final String PATH_END = "(),|'=!<>";

    private final String s;
    private int pos;

    Scanner(String s) {
        this.s = s;
    }

    int pos() {
        return pos;
    }

    /** Goes back (or on) to {@code pos}: after a look ahead, or to point a refusal at what it is about. */
    void reset(int pos) {
        this.pos = pos;
    }

    boolean atEnd() {
        return pos >= s.length();
    }

    char peek() {
        return s.charAt(pos);
    }

    void advance() {
        pos++;
    }

    /** The text from {@code start} to here, trimmed: a node as written, for messages and refusals. */
    String since(int start) {
        return s.substring(start, pos).strip();
    }

    Op operator() {
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

    /** A path's text (names, quoted names, dots, [indexes]) or a word; stops at an operator or space. */
    String pathText() {
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

    String textLiteral() {
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

    String digits() {
        int start = pos;
        while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
            pos++;
        }
        return s.substring(start, pos);
    }

    boolean keyword(String word) {
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

    boolean accept(char c) {
        skipSpace();
        if (pos < s.length() && s.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    void expect(char c) {
        if (!accept(c)) {
            throw error("'" + c + "'");
        }
    }

    void skipSpace() {
        while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
            pos++;
        }
    }

    ParseRefusal error(String expected) {
        return new ParseRefusal("expected " + expected + " at offset " + pos
                + (pos < s.length() ? " ('" + s.substring(pos, Math.min(s.length(), pos + 12)) + "')" : " (the end)"),
                null);
    }
}
