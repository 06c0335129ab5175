package dev.rowflow.sinks.hbase;

/**
 * The table exists with a different key layout recorded than the one configured: writing would mix
 * two key designs in one table, rows the readers could never find again. Nothing is written.
 */
public class LayoutMismatchException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public LayoutMismatchException(String message) {
        super(message);
    }
}
