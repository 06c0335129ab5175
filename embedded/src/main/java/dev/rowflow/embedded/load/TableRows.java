package dev.rowflow.embedded.load;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

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
}
