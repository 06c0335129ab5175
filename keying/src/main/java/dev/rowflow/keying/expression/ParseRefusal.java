package dev.rowflow.keying.expression;

/** A refusal while parsing, turned into the IllegalArgumentException that names the expression. */
final class ParseRefusal extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ParseRefusal(String message, Throwable cause) {
        super(message, cause);
    }
}
