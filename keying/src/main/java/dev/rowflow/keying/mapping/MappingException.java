package dev.rowflow.keying.mapping;

/**
 * A mapping that cannot be compiled, with the piece of its declaration at fault as a value: the
 * configuration names its own key for each piece (an input's {@code key}, {@code index.<i>.key},
 * {@code time}, {@code columns}, ...) from {@link #piece()} and {@link #index()}, never from the
 * message. The message names the value and why, as every refusal does.
 */
public final class MappingException extends IllegalArgumentException {

    /** The pieces of a {@link MappingSpec} a refusal can be about. */
    public enum Piece {
        /** The time path. */
        TIME,
        /** The data row's columns. */
        COLUMNS,
        /** Rows as columns: the time bucket and what it needs. */
        TIME_BUCKET,
        /** The data table's key layout. */
        DATA_KEY,
        /** An index table's key layout; {@link #index()} names the index. */
        INDEX_KEY,
        /** The summary table's key layout. */
        SUMMARY_KEY,
        /** The expression of the rows' TTL. */
        TTL,
        /** Rows per array element: {@code each}; {@link #index()} names the kind of rows. */
        ELEMENT_EACH,
        /** Rows per array element: the key layout; {@link #index()} names the kind of rows. */
        ELEMENT_KEY,
        /** Rows per array element: the columns; {@link #index()} names the kind of rows. */
        ELEMENT_COLUMNS
    }

    private final Piece piece;
    private final String index;

    MappingException(Piece piece, String index, String message, Throwable cause) {
        super(message, cause);
        this.piece = piece;
        this.index = index;
    }

    MappingException(Piece piece, String message) {
        this(piece, null, message, null);
    }

    /** The piece at fault. */
    public Piece piece() {
        return piece;
    }

    /**
     * The index's name when the piece is {@link Piece#INDEX_KEY}, the kind of rows' of an
     * {@code ELEMENT_} piece, otherwise null.
     */
    public String index() {
        return index;
    }
}
