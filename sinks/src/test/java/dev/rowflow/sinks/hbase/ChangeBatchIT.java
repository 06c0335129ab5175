package dev.rowflow.sinks.hbase;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.keying.mapping.ColumnSpec;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.MappingSpec;
import dev.rowflow.keying.mapping.RecordTree;
import dev.rowflow.keying.mapping.TimeFormat;
import dev.rowflow.sinks.RowSink;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replaces and deletes held back and applied together by {@link HBaseRowSink} on real HBase: the
 * tables end as if each change had been applied alone, in order -- several changes of one key in
 * a batch, a delete and a re-insert in one millisecond, a replayed older image, a column the new
 * image lacks, a row written just before its replace, read or given -- and applying the same changes again
 * changes nothing.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class ChangeBatchIT {
    private static final TableRole DATA = TableRole.of("customers.data");
    private static final TableRole BY_CITY = TableRole.of("customers.index.by_city");
    private static final String DATA_KEY = "id:long";
    private static final String INDEX_KEY = "city:text, id:long";
    private static final byte[] D = Bytes.toBytes("d");

    private final Connection connection;
    private final EventMapping mapping = EventMapping.compile(new MappingSpec(DATA, "d", DATA_KEY,
            ColumnSpec.parseList("id=id, name=name, city=city"), "t", TimeFormat.parse("epoch-ms", ZoneOffset.UTC), false, 0,
            List.of(new MappingSpec.IndexSpec("by_city", BY_CITY, INDEX_KEY)), null, 0), (UidResolver) null,
            path -> Optional.empty());

    ChangeBatchIT(EmbeddedStack shared) {
        this.connection = shared.connection(Store.HBASE.token());
    }

    @Test
    void shouldEndAsIfEachChangeWereAppliedAloneAndInOrder() throws Exception {
        Map<TableRole, TableDefinition> tables = tables("batch");
        try (HBaseRowSink sink = new HBaseRowSink(connection, tables, new SinkSettings(0, 0))) {
            sink.replace(DATA, image(1, 100, "a1", "X"), mapping, RowSink.Prior.STORED);
            sink.replace(DATA, image(2, 100, "b1", "Y"), mapping, RowSink.Prior.STORED);
            sink.replace(DATA, image(4, 200, "d1", "Z"), mapping, RowSink.Prior.STORED);
            sink.replace(DATA, image(5, 100, "e1", "W"), mapping, RowSink.Prior.STORED);
            sink.flush();
        }
        List<String> outcomes = apply(tables);
        assertThat(outcomes).containsExactly("2 found", "3 absent", "3 found");
        assertFinalState(tables);

        // The same changes once more, as a replay after a crash does: the tables stay as they are.
        List<String> replayed = apply(tables);
        assertThat(replayed).containsExactly("2 found", "3 absent", "3 found");
        assertFinalState(tables);
    }

    @Test
    void shouldTakeTheSourcesBeforeImageForTheRowWithoutReadingIt() throws Exception {
        Map<TableRole, TableDefinition> tables = tables("given");
        try (HBaseRowSink sink = new HBaseRowSink(connection, tables, new SinkSettings(0, 0))) {
            sink.replace(DATA, image(1, 100, "a1", "X"), mapping, RowSink.Prior.NONE);
            sink.replace(DATA, image(2, 100, "b1", "Y"), mapping, RowSink.Prior.NONE);
            sink.replace(DATA, image(3, 300, "c1", "Z"), mapping, RowSink.Prior.NONE);
            sink.replace(DATA, image(5, 100, "e1", "W"), mapping, RowSink.Prior.NONE);
            sink.flush();
        }
        List<String> outcomes = new ArrayList<>();
        try (HBaseRowSink sink = new HBaseRowSink(connection, tables, new SinkSettings(0, 0))) {
            sink.replace(DATA, image(1, 110, "a2", "X2"), mapping, before(1, 100, "a1", "X"));
            sink.delete(DATA, key(2), mapping, before(2, 100, "b1", "Y"),
                    found -> outcomes.add("2 " + (found ? "found" : "absent")));
            // An image older than the stored cells (the database's clock went back): they go all the same.
            sink.replace(DATA, image(3, 200, "c2", "Z"), mapping, before(3, 300, "c1", "Z"));
            sink.replace(DATA, image(4, 100, "d1", "V"), mapping, RowSink.Prior.NONE);
            // The before image stands for the row, unread: the index row only the store knows of stays.
            sink.replace(DATA, image(5, 110, "e2", "W2"), mapping, before(5, 100, "e1", "Q"));
            sink.flush();
        }
        assertThat(outcomes).containsExactly("2 found");
        assertThat(dataRows(tables.get(DATA).name())).isEqualTo(Map.of(
                dataKey(1), "name=a2@110 city=X2@110",
                dataKey(3), "name=c2@200 city=Z@200",
                dataKey(4), "name=d1@100 city=V@100",
                dataKey(5), "name=e2@110 city=W2@110"));
        assertThat(indexKeys(tables.get(BY_CITY).name())).containsExactly(
                indexKey("V", 4), indexKey("W2", 5), indexKey("W", 5), indexKey("X2", 1), indexKey("Z", 3));
    }

    @Test
    void shouldDeleteWhatAGivenBeforeImageHasAfterItsRowStillOnItsWay() throws Exception {
        Map<TableRole, TableDefinition> tables = tables("given_pending");
        try (HBaseRowSink sink = new HBaseRowSink(connection, tables, new SinkSettings(0, 0))) {
            sink.replace(DATA, image(6, 100, "f1", "U"), mapping, RowSink.Prior.NONE);
            // A plain write applies the replace: its rows wait in the table's buffer, not sent yet.
            for (Row row : image(7, 100, "g1", "T")) {
                sink.write(row);
            }
            // The next image, without a city, given the one before: its city cell and index row go,
            // though neither had reached the store when the change came.
            sink.replace(DATA, image(6, 110, "f2", null), mapping, before(6, 100, "f1", "U"));
            sink.flush();
        }
        assertThat(dataRows(tables.get(DATA).name())).isEqualTo(Map.of(
                dataKey(6), "name=f2@110",
                dataKey(7), "name=g1@100 city=T@100"));
        assertThat(indexKeys(tables.get(BY_CITY).name())).containsExactly(indexKey("T", 7));
    }

    @Test
    void shouldKeepTheStoredValueOfACellTheChangeDidNotCarry() throws Exception {
        Map<TableRole, TableDefinition> tables = tables("unavailable");
        String unavailable = dev.rowflow.keying.Cell.UNAVAILABLE;
        try (HBaseRowSink sink = new HBaseRowSink(connection, tables, new SinkSettings(0, 0))) {
            sink.replace(DATA, image(8, 100, "h1", "S"), mapping, RowSink.Prior.NONE);
            sink.flush();
        }
        try (HBaseRowSink sink = new HBaseRowSink(connection, tables, new SinkSettings(0, 0))) {
            // The stored row read although a before image is given: its name is what the change did not carry.
            sink.replace(DATA, image(8, 110, unavailable, "S2"), mapping, before(8, 100, unavailable, "S"));
            // Within one batch: a create, then an update without the value, then one without any row before.
            sink.replace(DATA, image(9, 100, "i1", "R"), mapping, RowSink.Prior.NONE);
            sink.replace(DATA, image(9, 110, unavailable, "R2"), mapping, RowSink.Prior.STORED);
            sink.replace(DATA, image(10, 100, unavailable, "P"), mapping, RowSink.Prior.STORED);
            sink.flush();
        }
        assertThat(dataRows(tables.get(DATA).name())).isEqualTo(Map.of(
                dataKey(8), "name=h1@110 city=S2@110",
                dataKey(9), "name=i1@110 city=R2@110",
                dataKey(10), "city=P@100"));
        assertThat(indexKeys(tables.get(BY_CITY).name())).containsExactly(
                indexKey("P", 10), indexKey("R2", 9), indexKey("S2", 8));
    }

    private RowSink.Prior before(long id, long time, String name, String city) {
        return RowSink.Prior.of(image(id, time, name, city).get(0));
    }

    /** The changes under test, in two batches: a plain write applies the first. */
    private List<String> apply(Map<TableRole, TableDefinition> tables) throws IOException {
        List<String> outcomes = new ArrayList<>();
        try (HBaseRowSink sink = new HBaseRowSink(connection, tables, new SinkSettings(0, 0))) {
            // Two images of one key: only the last is written, and no index row of the first is left.
            sink.replace(DATA, image(1, 110, "a2", "X2"), mapping, RowSink.Prior.STORED);
            sink.replace(DATA, image(1, 120, "a3", "X3"), mapping, RowSink.Prior.STORED);
            // A delete and a re-insert in the same millisecond as the deleted cells.
            sink.delete(DATA, key(2), mapping, RowSink.Prior.STORED, found -> outcomes.add("2 " + (found ? "found" : "absent")));
            sink.replace(DATA, image(2, 100, "b2", "Y"), mapping, RowSink.Prior.STORED);
            // A row that never was, deleted; then created and deleted within the batch.
            sink.delete(DATA, key(3), mapping, RowSink.Prior.STORED, found -> outcomes.add("3 " + (found ? "found" : "absent")));
            sink.replace(DATA, image(3, 100, "c1", "V"), mapping, RowSink.Prior.STORED);
            sink.delete(DATA, key(3), mapping, RowSink.Prior.STORED, found -> outcomes.add("3 " + (found ? "found" : "absent")));
            // An image without a city, older than the stored one (a replay): the stored cells and index row go.
            sink.replace(DATA, image(4, 150, "d2", null), mapping, RowSink.Prior.STORED);
            // A plain write (applying the held changes first), then a replace of its row by an older image:
            // the read before the replace must see the row just written.
            for (Row row : image(5, 130, "e2", "W")) {
                sink.write(row);
            }
            sink.replace(DATA, image(5, 120, "e3", "W3"), mapping, RowSink.Prior.STORED);
            sink.flush();
        }
        return outcomes;
    }

    private void assertFinalState(Map<TableRole, TableDefinition> tables) throws IOException {
        assertThat(dataRows(tables.get(DATA).name())).isEqualTo(Map.of(
                dataKey(1), "name=a3@120 city=X3@120",
                dataKey(2), "name=b2@100 city=Y@100",
                dataKey(4), "name=d2@150",
                dataKey(5), "name=e3@120 city=W3@120"));
        assertThat(indexKeys(tables.get(BY_CITY).name())).containsExactly(
                indexKey("W3", 5), indexKey("X3", 1), indexKey("Y", 2));
    }

    private List<Row> image(long id, long time, String name, String city) {
        String json = "{\"id\":" + id + ",\"t\":" + time + ",\"name\":\"" + name + "\""
                + (city == null ? "" : ",\"city\":\"" + city + "\"") + "}";
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return mapping.apply(RecordTree.parseJson(bytes), () -> bytes, time).rows();
    }

    private static byte[] key(long id) {
        return RowKeyLayout.parse(DATA_KEY, null).encode(id);
    }

    private static String dataKey(long id) {
        return KeyBytes.toStringBinary(key(id));
    }

    private static String indexKey(String city, long id) {
        return KeyBytes.toStringBinary(RowKeyLayout.parse(INDEX_KEY, null).encode(city, id));
    }

    /** Each data row by key: its cells as {@code qualifier=value@timestamp}. */
    private Map<String, String> dataRows(TableName name) throws IOException {
        Map<String, String> rows = new TreeMap<>();
        try (Table table = connection.getTable(name); ResultScanner scanner = table.getScanner(new Scan())) {
            for (Result result : scanner) {
                StringBuilder cells = new StringBuilder();
                for (String qualifier : List.of("name", "city")) {
                    org.apache.hadoop.hbase.Cell cell = result.getColumnLatestCell(D, Bytes.toBytes(qualifier));
                    if (cell != null) {
                        cells.append(cells.length() == 0 ? "" : " ").append(qualifier).append('=')
                                .append(Bytes.toString(org.apache.hadoop.hbase.CellUtil.cloneValue(cell)))
                                .append('@').append(cell.getTimestamp());
                    }
                }
                rows.put(KeyBytes.toStringBinary(result.getRow()), cells.toString());
            }
        }
        return rows;
    }

    private TreeSet<String> indexKeys(TableName name) throws IOException {
        TreeSet<String> keys = new TreeSet<>();
        try (Table table = connection.getTable(name); ResultScanner scanner = table.getScanner(new Scan())) {
            for (Result result : scanner) {
                keys.add(KeyBytes.toStringBinary(result.getRow()));
            }
        }
        return keys;
    }

    private Map<TableRole, TableDefinition> tables(String prefix) throws IOException {
        TableDefinition data = new TableDefinition(TableName.valueOf(prefix + "_customers"), D,
                FamilySettings.DEFAULT, RowKeyLayout.parse(DATA_KEY, null));
        TableDefinition index = new TableDefinition(TableName.valueOf(prefix + "_by_city"), EventMapping.INDEX_FAMILY,
                FamilySettings.DEFAULT, RowKeyLayout.parse(INDEX_KEY, null));
        try (Admin admin = connection.getAdmin()) {
            new TableAdmin(admin).createOrCheck(data);
            new TableAdmin(admin).createOrCheck(index);
        }
        return Map.of(DATA, data, BY_CITY, index);
    }
}
