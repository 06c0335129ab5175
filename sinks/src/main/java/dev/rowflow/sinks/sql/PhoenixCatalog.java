package dev.rowflow.sinks.sql;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The views Apache Phoenix already has, read from its catalog table as HBase rows, so that
 * {@code rowflow tables sql} creates only the views that do not exist and adds to the others only
 * the columns they lack. It must: Phoenix 5.2.1 never returns from a {@code CREATE VIEW} (with or
 * without {@code IF NOT EXISTS}) of a view over an HBase table that already has one -- its check
 * of the new view's parents finds the existing view as its own parent and walks that chain forever.
 *
 * <p>The catalog ({@code SYSTEM.CATALOG}, {@code SYSTEM:CATALOG} with namespace mapping) keys a
 * row by tenant, schema, table, column name and column family, each 0x00-terminated but the last
 * and trailing empty ones left out: a view without tenant and schema has a header row
 * {@code 00 00 <table>}, a key column's row {@code 00 00 <table> 00 <column>}, a cell column's
 * {@code 00 00 <table> 00 <column> 00 <family>}.
 */
public final class PhoenixCatalog {
    private static final String[] CATALOGS = {"SYSTEM.CATALOG", "SYSTEM:CATALOG"};

    private PhoenixCatalog() {
    }

    /**
     * The columns of the view named {@code view} (no tenant, no schema), as {@link PhoenixView}
     * names them ({@code "host"}, {@code "d"."m"}); empty if there is no such view or no Phoenix.
     */
    public static Optional<Set<String>> columnsOf(Connection connection, String view) throws IOException {
        TableName catalog = catalog(connection);
        if (catalog == null) {
            return Optional.empty();
        }
        byte[] prefix = Bytes.add(new byte[] {0, 0}, Bytes.toBytes(view));
        Set<String> columns = new LinkedHashSet<>();
        boolean found = false;
        try (Table table = connection.getTable(catalog);
             ResultScanner scanner = table.getScanner(new Scan().setRowPrefixFilter(prefix)
                     .setFilter(new KeyOnlyFilter()))) {
            for (Result row : scanner) {
                byte[] key = row.getRow();
                if (key.length == prefix.length) {
                    found = true; // the view's header row
                    continue;
                }
                if (key[prefix.length] != 0) {
                    continue; // another table whose name starts with this one's
                }
                String[] parts = new String(key, prefix.length + 1, key.length - prefix.length - 1,
                        StandardCharsets.UTF_8).split("\u0000", -1);
                if (parts[0].isEmpty()) {
                    continue; // a column family's row
                }
                columns.add(parts.length > 1 && !parts[1].isEmpty()
                        ? PhoenixView.quote(parts[1]) + "." + PhoenixView.quote(parts[0]) : PhoenixView.quote(parts[0]));
            }
        }
        return found ? Optional.of(columns) : Optional.empty();
    }

    private static TableName catalog(Connection connection) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            for (String name : CATALOGS) {
                TableName catalog = TableName.valueOf(name);
                if (admin.tableExists(catalog)) {
                    return catalog;
                }
            }
        }
        return null;
    }
}
