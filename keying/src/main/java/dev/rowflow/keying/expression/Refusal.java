package dev.rowflow.keying.expression;

/** A refusal while parsing, turned into the IllegalArgumentException that names the expression. */
final class Refusal extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Refusal(String message, Throwable cause) {
        super(message, cause);
    }
}
