package dev.rowflow.sinks.query;

import dev.rowflow.keying.TableRole;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;

import java.util.ArrayList;
import java.util.List;

/**
 * A row as stored: its table, key and cells (family, qualifier, value, timestamp), for reads that
 * return rows of several record types (a customer with its orders, an order with its line items).
 */
public record StoredRow(TableRole table, byte[] key, List<StoredCell> cells) {

    /** One cell of a stored row. */
    public record StoredCell(byte[] family, byte[] qualifier, byte[] value, long timestamp) {
    }

    /**
     * The row's event time: the timestamp its cells were written with (an event's row has one);
     * the newest of them for a row holding several events (rows as columns); 0 for no cells.
     */
    public long time() {
        long time = 0;
        for (StoredCell cell : cells) {
            time = Math.max(time, cell.timestamp());
        }
        return time;
    }

    static StoredRow of(TableRole table, Result result) {
        List<StoredCell> cells = new ArrayList<>();
        for (Cell cell : result.rawCells()) {
            cells.add(new StoredCell(CellUtil.cloneFamily(cell), CellUtil.cloneQualifier(cell), CellUtil.cloneValue(cell),
                    cell.getTimestamp()));
        }
        return new StoredRow(table, result.getRow(), cells);
    }
}
