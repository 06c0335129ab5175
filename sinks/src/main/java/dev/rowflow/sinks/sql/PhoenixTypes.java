package dev.rowflow.sinks.sql;

import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.Salt;
import dev.rowflow.keying.mapping.StoredColumns.Storage;

/**
 * The Apache Phoenix type whose bytes are the bytes rowflow writes, for each key part encoding,
 * salt and cell storage: the one rule every generated view follows. Each pairing is byte for byte
 * (Phoenix's type javadoc and {@code PDataType} codecs):
 *
 * <pre>
 * key part  text, dec     VARCHAR          0x00-terminated unless last, as Phoenix's VARCHAR in a key
 *           long          BIGINT           big-endian, sign bit flipped
 *           int           INTEGER          big-endian, sign bit flipped
 *           ts            UNSIGNED_DATE    Bytes.toBytes(long) of ms since the epoch (never negative)
 *           rts, uid      UNSIGNED_LONG    Bytes.toBytes(long): Long.MAX_VALUE - ms; the UID table's id
 *           md5           BINARY(16)       the digest, Phoenix's MD5() of the same UTF-8 text
 *           byte          UNSIGNED_TINYINT one byte (Phoenix reads 0..127)
 * salt      bucket(N)     UNSIGNED_TINYINT the bucket's byte (BINARY(1) above 128 buckets)
 *           hex(W)        CHAR(W)          W ASCII hex digits
 *           bin(W)        BINARY(W)
 * cell      text          VARCHAR          UTF-8 text (numbers, booleans, JSON as their text)
 *           int32         UNSIGNED_INT     Bytes.toBytes(int) (Phoenix reads values >= 0)
 *           int64         UNSIGNED_LONG    Bytes.toBytes(long) (Phoenix reads values >= 0)
 *           bytes, row key VARBINARY
 * </pre>
 */
public final class PhoenixTypes {
    private PhoenixTypes() {
    }

    /** The type of a key part's column. */
    public static String of(KeyPart part) {
        return switch (part.encoding().token()) {
            case "text", "dec" -> "VARCHAR";
            case "long" -> "BIGINT";
            case "int" -> "INTEGER";
            case "ts" -> "UNSIGNED_DATE";
            case "rts", "uid" -> "UNSIGNED_LONG";
            case "md5" -> "BINARY(16)";
            case "byte" -> "UNSIGNED_TINYINT";
            default -> throw new IllegalStateException("no Phoenix type for key encoding " + part.encoding().token());
        };
    }

    /** The type of the salt's column, or null for no salt. */
    public static String of(Salt salt) {
        if (salt.width() == 0) {
            return null;
        }
        if (salt.buckets().isPresent()) {
            return salt.buckets().getAsInt() <= 128 ? "UNSIGNED_TINYINT" : "BINARY(1)";
        }
        return salt.spec().startsWith("hex") ? "CHAR(" + salt.width() + ")" : "BINARY(" + salt.width() + ")";
    }

    /** The type of a cell's column. */
    public static String of(Storage storage) {
        return switch (storage) {
            case TEXT -> "VARCHAR";
            case INT32 -> "UNSIGNED_INT";
            case INT64 -> "UNSIGNED_LONG";
            case BYTES, ROW_KEY -> "VARBINARY";
        };
    }

    /**
     * What a reader of a key part's column must know, or null: how to read or query it where the
     * type alone does not say.
     *
     * @param column the part's quoted column name
     */
    public static String note(KeyPart part, String column) {
        return switch (part.encoding().token()) {
            case "ts" -> "ms since the epoch: WHERE " + column + " >= TO_DATE('2026-01-01 00:00:00')";
            case "rts" -> "reverse time, newest first: the event time is 9223372036854775807 - " + column
                    + " ms since the epoch";
            case "md5" -> "the MD5 digest of the value: WHERE " + column + " = MD5('the value')";
            case "uid" -> "the id the UID table gave the value, not the value: its name is the UID table view's "
                    + "\"name\" where \"kind\" = '" + part.field() + "' AND \"u\".\"i\" = " + column;
            case "dec" -> "a whole number as its decimal digits: TO_NUMBER(" + column + ")";
            case "byte" -> "one byte; Phoenix reads 0..127";
            default -> null;
        };
    }

    /** What a reader of a cell's column must know, or null. */
    public static String note(Storage storage) {
        return switch (storage) {
            case INT32, INT64 -> "Phoenix's unsigned types read values >= 0 only";
            case ROW_KEY -> "the data row's key: join the data view on its key columns";
            default -> null;
        };
    }
}
