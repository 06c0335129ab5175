package dev.rowflow.keying.mapping;

import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * A key part's value read back from the data row's cell that keeps it ({@code rowflow index
 * verify} and {@code backfill} rebuild index rows from stored data rows): the cell's bytes in
 * the column's {@link ValueType}, as the key part takes them (text, or a whole number).
 */
final class StoredKeyValues {
    private StoredKeyValues() {
    }

    /** A key part's value from the cell its column keeps it in. */
    static Object of(ValueType type, byte[] stored, boolean textual, Expression path) {
        if (type == ValueType.INT32 || type == ValueType.INT64) {
            if (stored.length != (type == ValueType.INT32 ? Integer.BYTES : Long.BYTES)) {
                throw new InvalidEventException(Refusal.WRONG_KIND,
                        path.text(), stored.length + " bytes", "is stored in a " + type.token()
                        + " column of another length");
            }
            long number = type == ValueType.INT32 ? java.nio.ByteBuffer.wrap(stored).getInt()
                    : java.nio.ByteBuffer.wrap(stored).getLong();
            return textual ? Long.toString(number) : number;
        }
        String text = new String(stored, StandardCharsets.UTF_8);
        return textual ? text : parseStoredLong(path, text);
    }

    private static long parseStoredLong(Expression path, String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            try {
                return new BigDecimal(text).longValueExact(); // a JSON 200.0 is keyed as 200, stored as "200.0"
            } catch (NumberFormatException | ArithmeticException notWhole) {
                throw new InvalidEventException(Refusal.WRONG_KIND,
                        path.text(), text, "is stored as text that is not a whole number");
            }
        }
    }
}
