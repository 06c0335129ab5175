package dev.rowflow.embedded.load;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/** What a table holds, for tests to compare with what they sent. */
public final class TableRows {
    private TableRows() {
    }

    /** Every row of {@code table} (newest version of each cell), by row key. */
    public static Map<ByteBuffer, Result> scan(Connection connection, String table) throws IOException {
        Map<ByteBuffer, Result> rows = new HashMap<>();
        try (Table t = connection.getTable(TableName.valueOf(table));
             ResultScanner scanner = t.getScanner(new Scan())) {
            for (Result r : scanner) {
                rows.put(ByteBuffer.wrap(r.getRow()), r);
            }
        }
        return rows;
    }

    /**
     * How many rows {@code table} holds (0 if it does not exist yet): a key-only scan, so wide rows
     * and large cells cost no more than small ones.
     */
    public static long count(Connection connection, String table) throws IOException {
        TableName name = TableName.valueOf(table);
        try (Admin admin = connection.getAdmin()) {
            if (!admin.tableExists(name)) {
                return 0;
            }
        }
        long rows = 0;
        try (Table t = connection.getTable(name);
             ResultScanner scanner = t.getScanner(new Scan().setFilter(new FirstKeyOnlyFilter()).setCaching(5_000))) {
            for (Result ignored : scanner) {
                rows++;
            }
        }
        return rows;
    }
}
