package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.Cell;
import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.Row;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.ConnectionConfiguration;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What the store refuses of a row: a row key of 0 or more than {@link HConstants#MAX_ROW_LENGTH}
 * bytes, a cell larger than the client's {@code hbase.client.keyvalue.maxsize}. The sink checks
 * every row against it before writing (the client would fail the whole batch), and
 * {@code mapping check} with the same limits, so both set the same records aside.
 *
 * @param maxKeyValueSize the largest cell in bytes (key, family, qualifier and value), 0 for no
 *                        limit
 */
public record RowLimits(int maxKeyValueSize) {

    /** The limits of an HBase client with configuration {@code conf}. */
    public static RowLimits of(Configuration conf) {
        return new RowLimits(conf.getInt(ConnectionConfiguration.MAX_KEYVALUE_SIZE_KEY,
                ConnectionConfiguration.MAX_KEYVALUE_SIZE_DEFAULT));
    }

    /** @throws InvalidEventException naming the row key or the cell over its limit */
    public void check(Row row) {
        if (row.key().length == 0 || row.key().length > HConstants.MAX_ROW_LENGTH) {
            throw new InvalidEventException(Refusal.TOO_LARGE, "row key", row.key().length + " bytes of " + row.table(),
                    "HBase row keys are 1 to " + HConstants.MAX_ROW_LENGTH + " bytes");
        }
        for (Cell cell : row.cells()) {
            long size = KeyValue.getKeyValueDataStructureSize(row.key().length, cell.family().length,
                    cell.qualifier().length, cell.value().length);
            if (maxKeyValueSize > 0 && size > maxKeyValueSize) { // the name is worked out for a refusal only
                EventRules.cellWithin("cell " + Bytes.toString(cell.qualifier()), size, maxKeyValueSize,
                        ConnectionConfiguration.MAX_KEYVALUE_SIZE_KEY);
            }
        }
    }
}
