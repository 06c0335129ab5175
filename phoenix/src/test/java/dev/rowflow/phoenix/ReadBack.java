package dev.rowflow.phoenix;

import dev.rowflow.keying.layout.HashedValue;
import dev.rowflow.keying.layout.KeyEncoding;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.sinks.sql.PhoenixView;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

import java.sql.ResultSet;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The two sides of every comparison, in one form: a row as a list of values, texts as they are,
 * numbers and dates as longs, bytes as hex. One side is what Phoenix returns through a view; the
 * other is what rowflow's own reader makes of the stored row: the key decoded by the layout the
 * table records ({@link RowKeyLayout#decode}, what {@code rowflow query} prints), the cells' bytes
 * read as the view's column types say they were written.
 */
final class ReadBack {
    private static final HexFormat HEX = HexFormat.of();

    private ReadBack() {
    }

    /** Phoenix's row at the cursor, every column of the result. */
    static List<Object> phoenixRow(ResultSet rs) throws SQLException {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
            row.add(normal(rs.getObject(i)));
        }
        return row;
    }

    /** A value Phoenix returned, in the compared form. */
    static Object normal(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof java.util.Date date) {
            return date.getTime();
        }
        if (value instanceof java.math.BigDecimal decimal) {
            return decimal.longValueExact();
        }
        if (value instanceof Number number) {
            return number.longValue();
        }
        if (value instanceof byte[] bytes) {
            return HEX.formatHex(bytes);
        }
        return value.toString();
    }

    /**
     * What rowflow reads of a stored row, in the view's column order (key columns, then cells).
     * A key may end before the layout's last part (CUSTOMER++: a customer's row in the order table)
     * or run on past it (record types: an order's location and line rows): each part present is
     * decoded by its encoding, the rest of the key kept as bytes.
     */
    static List<Object> rowflowRow(PhoenixView view, Result stored) {
        RowKeyLayout layout = view.layout();
        byte[] key = stored.getRow();
        List<Object> row = new ArrayList<>();
        int offset = layout.salt().width();
        if (offset > 0) {
            row.add(layout.salt().buckets().isPresent() ? (Object) (long) (key[0] & 0xFF)
                    : layout.salt().spec().startsWith("hex") ? new String(key, 0, offset, StandardCharsets.US_ASCII)
                    : HEX.formatHex(key, 0, offset));
        }
        boolean rest = view.keyColumns().get(view.keyColumns().size() - 1).equals(PhoenixView.REST);
        List<KeyPart> parts = layout.parts().subList(0, view.partColumns());
        boolean lastOfLayout = parts.size() == layout.parts().size();
        for (int i = 0; i < parts.size(); i++) {
            if (offset == key.length) {
                row.add(null);
                continue;
            }
            KeyEncoding encoding = parts.get(i).encoding();
            // A text part that ends the key has no terminator (the UID table's counter row: its kind alone).
            boolean lastPart = lastOfLayout && i == parts.size() - 1
                    || encoding.terminated() && dev.rowflow.keying.KeyBytes.indexOfTerminator(key, offset) < 0;
            boolean last = lastPart && !rest;
            int end = encoding.end(key, offset, lastPart);
            Object value = encoding.decode(key, offset, end, lastPart);
            offset = end;
            if (encoding.token().equals("rts")) {
                // rowflow reads the time back; the column holds Long.MAX_VALUE - time, as the view's note says.
                row.add(Long.MAX_VALUE - (Long) value);
            } else if (value instanceof HashedValue hashed) {
                row.add(HEX.formatHex(hashed.hash()));
            } else {
                row.add(value);
            }
            if (last && offset != key.length) {
                throw new IllegalStateException("key " + HEX.formatHex(key) + " runs on past " + layout.spec());
            }
        }
        if (rest) {
            row.add(offset == key.length ? null : HEX.formatHex(key, offset, key.length));
        }
        for (Map.Entry<String, String> column : view.cellColumns().entrySet()) {
            String[] name = column.getKey().substring(1, column.getKey().length() - 1).split("\"\\.\"", 2);
            byte[] value = stored.getValue(Bytes.toBytes(name[0]), Bytes.toBytes(name[1]));
            row.add(value == null ? null : switch (column.getValue()) {
                case "VARCHAR" -> Bytes.toString(value);
                case "UNSIGNED_INT" -> (long) Bytes.toInt(value);
                case "UNSIGNED_LONG" -> Bytes.toLong(value);
                case "VARBINARY" -> HEX.formatHex(value);
                default -> throw new IllegalStateException("no reading of " + column.getValue());
            });
        }
        return row;
    }
}
