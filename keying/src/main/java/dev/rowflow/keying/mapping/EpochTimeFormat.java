package dev.rowflow.keying.mapping;

import dev.rowflow.keying.InvalidEventException;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * The epoch time formats ({@code epoch-ms}, {@code epoch-s}, {@code epoch-us}, {@code epoch-ns}):
 * a count of time units since 1970-01-01T00:00:00Z, as a whole or decimal number, a string of
 * one, or an Avro {@code double}/{@code float}, floored to epoch milliseconds. Its job is reading
 * such a count; choosing the unit from the spec is {@link TimeFormatSpec}'s.
 */
enum EpochTimeFormat implements TimeFormat {
    MILLIS("epoch-ms", "epoch milliseconds", 0),
    SECONDS("epoch-s", "epoch seconds", 3),
    MICROS("epoch-us", "epoch microseconds", -3),
    NANOS("epoch-ns", "epoch nanoseconds", -6);

    /** Past this many characters a string is no time, and is not handed to BigDecimal's parser. */
    private static final int MAX_STRING = 64;

    private final String spec;
    private final String unit;
    /** Milliseconds = count * 10^decimalShift. */
    private final int decimalShift;
    /** The same as whole-number arithmetic: at most one of the two is not 1. */
    private final long multiplier;
    private final long divisor;

    EpochTimeFormat(String spec, String unit, int decimalShift) {
        this.spec = spec;
        this.unit = unit;
        this.decimalShift = decimalShift;
        this.multiplier = decimalShift > 0 ? (long) Math.pow(10, decimalShift) : 1;
        this.divisor = decimalShift < 0 ? (long) Math.pow(10, -decimalShift) : 1;
    }

    @Override
    public String spec() {
        return spec;
    }

    @Override
    public long millis(String path, Object value) {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return fromLong(path, value, ((Number) value).longValue());
        }
        if (value instanceof BigDecimal decimal) {
            return fromDecimal(path, value, decimal);
        }
        if (value instanceof Double || value instanceof Float) {
            return fromDouble(path, value, ((Number) value).doubleValue());
        }
        if (value instanceof String text) {
            return fromString(path, text);
        }
        if (value instanceof BigInteger) {
            throw TimeValues.invalid(path, value, "a number beyond 64 bits");
        }
        throw TimeValues.invalid(path, value, RecordTree.kind(value) + ", where " + unit + " are expected");
    }

    private long fromLong(String path, Object value, long count) {
        if (divisor != 1) {
            return Math.floorDiv(count, divisor);
        }
        try {
            return Math.multiplyExact(count, multiplier);
        } catch (ArithmeticException e) {
            throw overflow(path, value);
        }
    }

    private long fromDecimal(String path, Object value, BigDecimal count) {
        // scaleByPowerOfTen only moves the scale; movePointRight would expand 1E+999999999.
        BigDecimal ms = count.scaleByPowerOfTen(decimalShift);
        int wholeDigits = ms.precision() - ms.scale();
        if (wholeDigits > 19) {
            throw overflow(path, value);
        }
        if (wholeDigits <= 0) {
            // |ms| < 1, and setScale could have to divide by a huge power of ten (1E-999999999).
            return ms.signum() < 0 ? -1 : 0;
        }
        try {
            return ms.setScale(0, RoundingMode.FLOOR).longValueExact();
        } catch (ArithmeticException e) {
            throw overflow(path, value);
        }
    }

    private long fromDouble(String path, Object value, double count) {
        if (!Double.isFinite(count)) {
            throw TimeValues.invalid(path, value, "not a finite number, where " + unit + " are expected");
        }
        // Scaled in double arithmetic on purpose: 1700000000.123 is stored as ...122.99990463,
        // and the writer meant .123, which the rounded product gives back.
        double ms = Math.floor(divisor == 1 ? count * multiplier : count / divisor);
        if (!(ms >= -0x1p63 && ms < 0x1p63)) {
            throw overflow(path, value);
        }
        return (long) ms;
    }

    private long fromString(String path, String text) {
        int n = text.length();
        boolean whole = true;
        int i = n > 0 && text.charAt(0) == '-' ? 1 : 0;
        int digitsBefore = 0;
        int digitsAfter = 0;
        for (; i < n; i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                if (whole) {
                    digitsBefore++;
                } else {
                    digitsAfter++;
                }
            } else if (c == '.' && whole) {
                whole = false;
            } else {
                break;
            }
        }
        if (i < n || n > MAX_STRING || digitsBefore == 0 || (!whole && digitsAfter == 0)) {
            throw TimeValues.invalid(path, text, TimeValues.shortQuote(text) + " is not " + unit);
        }
        if (whole && digitsBefore <= 18) {
            return fromLong(path, text, Long.parseLong(text));
        }
        return fromDecimal(path, text, new BigDecimal(text));
    }

    private InvalidEventException overflow(String path, Object value) {
        return TimeValues.invalid(path, value, "beyond the 64-bit range of epoch milliseconds");
    }

    @Override
    public String toString() {
        return spec;
    }
}
