package dev.rowflow.sinks.hbase;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.log.LogColumns;
import dev.rowflow.keying.log.LogEventRows;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Index verify, backfill and repair on real HBase (seed 002, 1.9.2-1.9.3). */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
@ParameterizedClass(name = "{0}")
@EnumSource(Store.class)
class DualWriteIndexIT {
    private static final RowKeyLayout DATA = RowKeyLayout.parse(LogEventRows.DEFAULT_DATA_LAYOUT, null);
    private static final RowKeyLayout INDEX = RowKeyLayout.parse(LogEventRows.DEFAULT_INDEX_LAYOUT, null);
    private final Store store;
    private final Connection connection;

    DualWriteIndexIT(Store store, EmbeddedStack stack) {
        EmbeddedStackExtension.assumeStoreAvailable(store.token());
        this.store = store;
        this.connection = stack.connection(store.token());
    }

    private List<LogEvent> events(int n) {
        List<LogEvent> events = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            events.add(LogEvent.newBuilder().setHostname("web-" + (i % 17)).setEventType(i % 3 == 0 ? "login" : "gc")
                    .setTimestamp(Instant.ofEpochMilli(1_700_000_000_000L + i)).setMessage("event " + i).build());
        }
        return events;
    }

    private Map<TableRole, TableDefinition> tables(String prefix) throws Exception {
        TableDefinition data = new TableDefinition(TableName.valueOf(prefix + "_data"), LogColumns.DATA_FAMILY,
                FamilySettings.DEFAULT, DATA);
        TableDefinition index = new TableDefinition(TableName.valueOf(prefix + "_index"), LogColumns.INDEX_FAMILY,
                FamilySettings.DEFAULT, INDEX);
        try (Admin admin = connection.getAdmin()) {
            new TableAdmin(admin).createOrCheck(data);
            new TableAdmin(admin).createOrCheck(index);
        }
        return Map.of(TableRole.LOG_DATA, data, TableRole.LOG_INDEX, index);
    }

    private void write(Map<TableRole, TableDefinition> tables, LogEventRows rows, List<LogEvent> events)
            throws Exception {
        try (HBaseRowSink sink = new HBaseRowSink(connection, tables, new SinkSettings(0, 0))) {
            for (LogEvent event : events) {
                for (Row row : rows.rowsOf(event)) {
                    sink.write(row);
                }
            }
            sink.flush();
        }
    }

    @Test
    void shouldBackfillTheIndexOfDataWrittenWithoutIt() throws Exception {
        Map<TableRole, TableDefinition> tables = tables("backfill");
        write(tables, new LogEventRows(DATA, INDEX, false), events(3_000));
        DualWriteIndex index = new DualWriteIndex(connection, tables.get(TableRole.LOG_DATA), tables.get(TableRole.LOG_INDEX),
                new LogEventRows(DATA, INDEX).indexMapping(), TableRole.LOG_INDEX);

        IndexReport before = index.verify(3);
        assertThat(before).extracting(IndexReport::dataRows, IndexReport::indexRows, IndexReport::unindexed,
                IndexReport::dangling).containsExactly(3_000L, 0L, 3_000L, 0L);
        assertThat(before.examples()).hasSize(3).allSatisfy(e -> assertThat(e).startsWith("unindexed data row "));

        assertThat(index.backfill()).isEqualTo(3_000);
        assertThat(index.backfill()).as("idempotent").isEqualTo(3_000);

        IndexReport after = index.verify(3);
        assertThat(after.clean()).as("%s", after).isTrue();
        assertThat(after.indexRows()).isEqualTo(3_000);
    }

    @Test
    void shouldFindAndRepairDanglingAndUnindexedRowsInBothDirections() throws Exception {
        Map<TableRole, TableDefinition> tables = tables("verify");
        LogEventRows rows = new LogEventRows(DATA, INDEX);
        List<LogEvent> events = events(500);
        write(tables, rows, events);
        DualWriteIndex index = new DualWriteIndex(connection, tables.get(TableRole.LOG_DATA), tables.get(TableRole.LOG_INDEX),
                rows.indexMapping(), TableRole.LOG_INDEX);
        assertThat(index.verify(10).clean()).isTrue();

        try (Table data = connection.getTable(tables.get(TableRole.LOG_DATA).name());
             Table idx = connection.getTable(tables.get(TableRole.LOG_INDEX).name())) {
            // 4 data rows lost: their index rows dangle.
            for (int i = 0; i < 4; i++) {
                data.delete(new Delete(rows.rowsOf(events.get(i)).get(0).key()));
            }
            // 3 index rows lost: their data rows are unindexed.
            for (int i = 10; i < 13; i++) {
                idx.delete(new Delete(rows.rowsOf(events.get(i)).get(1).key()));
            }
            // 1 index row pointing to a key that was never written.
            idx.put(new Put(Bytes.toBytes("ghost\0login\0xxxxxxxx")).addColumn(LogColumns.INDEX_FAMILY,
                    LogColumns.DATA_ROW_KEY, Bytes.toBytes("nothing here")));
        }

        IndexReport broken = index.verify(20);
        assertThat(broken.dataRows()).isEqualTo(496);
        assertThat(broken.indexRows()).isEqualTo(498);
        assertThat(broken.unindexed()).isEqualTo(3);
        assertThat(broken.dangling()).isEqualTo(5);
        assertThat(broken.examples()).anySatisfy(e -> assertThat(e).contains("ghost").contains("no such data row"));

        assertThat(index.removeDangling()).isEqualTo(5);
        index.backfill();

        IndexReport repaired = index.verify(20);
        assertThat(repaired.clean()).as("%s", repaired).isTrue();
        assertThat(repaired.indexRows()).isEqualTo(496);
    }
}
