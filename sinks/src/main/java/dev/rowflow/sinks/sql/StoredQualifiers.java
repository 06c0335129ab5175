package dev.rowflow.sinks.sql;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The qualifiers a table's rows hold, by family, from a sample of its first rows: the columns a
 * wildcard wrote, which no configuration names.
 */
public final class StoredQualifiers {
    private StoredQualifiers() {
    }

    /** The qualifiers of the first {@code rows} rows of {@code table}, sorted, by family. */
    public static Map<String, Set<String>> sample(Connection connection, TableName table, int rows) throws IOException {
        Map<String, Set<String>> qualifiers = new TreeMap<>();
        try (Table t = connection.getTable(table);
             ResultScanner scanner = t.getScanner(new Scan().setLimit(rows).setCaching(Math.min(rows, 500)))) {
            for (Result row : scanner) {
                for (Cell cell : row.rawCells()) {
                    qualifiers.computeIfAbsent(Bytes.toString(CellUtil.cloneFamily(cell)), f -> new TreeSet<>())
                            .add(Bytes.toString(CellUtil.cloneQualifier(cell)));
                }
            }
        }
        return qualifiers;
    }
}
