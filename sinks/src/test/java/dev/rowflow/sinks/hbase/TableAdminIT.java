package dev.rowflow.sinks.hbase;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Table creation, the recorded key layout, online updates and TTLs, on real HBase and on the
 * Bigtable emulator, where family settings become garbage-collection rules.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
@ParameterizedClass(name = "{0}")
@EnumSource(Store.class)
class TableAdminIT {
    private static final byte[] FAMILY = Bytes.toBytes("d");
    private static final RowKeyLayout BUCKETS_8 = RowKeyLayout.parse("bucket(8) | timestamp:ts, hostname:text", null);
    private final Store store;
    private final Connection connection;

    TableAdminIT(Store store, EmbeddedStack stack) {
        EmbeddedStackExtension.assumeStoreAvailable(store.token());
        this.store = store;
        this.connection = stack.connection(store.token());
    }

    private static TableDefinition table(String name, FamilySettings settings, RowKeyLayout layout) {
        return new TableDefinition(TableName.valueOf(name), FAMILY, settings, layout);
    }

    @Test
    void shouldCreateOnceWithFamilySettingsPreSplitAndTheLayoutRecorded() throws Exception {
        boolean tuning = store.capabilities().familyTuning();
        FamilySettings settings = tuning
                ? new FamilySettings(3600, 0, 3, 1, BloomType.ROWCOL, Compression.Algorithm.GZ, 32_768)
                : new FamilySettings(3600, 0, 3, 1, BloomType.ROW, Compression.Algorithm.NONE, 65_536);
        try (Admin admin = connection.getAdmin()) {
            TableAdmin tables = new TableAdmin(admin);
            assertThat(tables.store()).isEqualTo(store);

            assertThat(tables.createOrCheck(table("admin_create", settings, BUCKETS_8))).isTrue();
            assertThat(tables.createOrCheck(table("admin_create", settings, BUCKETS_8))).isFalse();

            assertThat(tables.describe(TableName.valueOf("admin_create"))).isEqualTo(tuning ? """
                    table admin_create (hbase)
                      key layout: bucket(8) | timestamp:ts, hostname:text (version 1)
                      family d: ttl 3600 s, max versions 3, min versions 1, bloom ROWCOL, compression GZ, block size 32768
                      regions: 8, split at \\x01 \\x02 \\x03 \\x04 \\x05 \\x06 \\x07
                    """ : """
                    table admin_create (bigtable)
                      key layout: bucket(8) | timestamp:ts, hostname:text (version 1)
                      family d: ttl 3600 s, max versions 3, min versions 1, gc rule (maxage=3600s && maxversions=1) || maxversions=3
                      regions: 1, split at
                    """); // the split points go to Bigtable as initial splits; the emulator keeps one tablet
        }
    }

    @Test
    void shouldRefuseWhatTheStoreCannotDoNamingTheSettingAndTheStore() throws Exception {
        FamilySettings cellTtl = new FamilySettings(3600, 60_000, 1, 0, BloomType.ROW, Compression.Algorithm.NONE, 65_536);
        FamilySettings compressed = new FamilySettings(0, 0, 1, 0, BloomType.ROW, Compression.Algorithm.GZ, 65_536);
        try (Admin admin = connection.getAdmin()) {
            TableAdmin tables = new TableAdmin(admin);
            if (store.capabilities().cellTtl()) {
                assertThat(tables.createOrCheck(table("admin_cell_ttl_ok", cellTtl, BUCKETS_8))).isTrue();
                assertThat(tables.createOrCheck(table("admin_gz_ok", compressed, BUCKETS_8))).isTrue();
            } else {
                assertThatThrownBy(() -> tables.createOrCheck(table("admin_cell_ttl_refused", cellTtl, BUCKETS_8)))
                        .isInstanceOf(UnsupportedSettingException.class)
                        .hasMessage("cell TTL 60000 ms of table admin_cell_ttl_refused is not supported by store bigtable: "
                                + "bigtable expires cells only by the family's garbage-collection rule; set the family TTL "
                                + "instead, which becomes a max-age rule");
                assertThatThrownBy(() -> tables.createOrCheck(table("admin_gz_refused", compressed, BUCKETS_8)))
                        .isInstanceOf(UnsupportedSettingException.class)
                        .hasMessageContaining("compression GZ of table admin_gz_refused is not supported by store bigtable");
                assertThat(admin.tableExists(TableName.valueOf("admin_cell_ttl_refused"))).isFalse();
                assertThat(admin.tableExists(TableName.valueOf("admin_gz_refused"))).isFalse();
            }
        }
    }

    @Test
    void shouldRefuseAnotherLayoutAndSayWhichTwo() throws Exception {
        try (Admin admin = connection.getAdmin()) {
            TableAdmin tables = new TableAdmin(admin);
            tables.createOrCheck(table("admin_layout", FamilySettings.DEFAULT, BUCKETS_8));

            RowKeyLayout sixteen = RowKeyLayout.parse("bucket(16) | timestamp:ts, hostname:text", null);
            assertThatThrownBy(() -> tables.createOrCheck(table("admin_layout", FamilySettings.DEFAULT, sixteen)))
                    .isInstanceOf(LayoutMismatchException.class)
                    .hasMessageContaining("'bucket(8) | timestamp:ts, hostname:text'")
                    .hasMessageContaining("'bucket(16) | timestamp:ts, hostname:text'");

            admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf("admin_foreign"))
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY)).build());
            assertThatThrownBy(() -> tables.createOrCheck(table("admin_foreign", FamilySettings.DEFAULT, BUCKETS_8)))
                    .isInstanceOf(LayoutMismatchException.class).hasMessageContaining("records no rowflow key layout");
        }
    }

    @Test
    void shouldUpdateFamilySettingsOnline() throws Exception {
        try (Admin admin = connection.getAdmin()) {
            TableAdmin tables = new TableAdmin(admin);
            tables.createOrCheck(table("admin_update", FamilySettings.DEFAULT, BUCKETS_8));
            FamilySettings week = new FamilySettings(7 * 24 * 3600, 0, 1, 0, BloomType.ROW, Compression.Algorithm.NONE, 65_536);

            assertThat(tables.update(table("admin_update", week, BUCKETS_8))).isTrue();
            assertThat(tables.update(table("admin_update", week, BUCKETS_8))).isFalse();
            assertThat(tables.describe(TableName.valueOf("admin_update"))).contains("family d: ttl 604800 s,")
                    .contains(store.capabilities().familyTuning() ? "bloom ROW" : "gc rule maxage=604800s || maxversions=1");
            assertThat(admin.isTableEnabled(TableName.valueOf("admin_update"))).isTrue();
        }
    }

    @Test
    void shouldDropCellsAfterTheirCellTtl() throws Exception {
        Assumptions.assumeTrue(store.capabilities().cellTtl(), "store " + store.token() + " has no cell TTL");
        FamilySettings twoSeconds = new FamilySettings(3600, 2_000, 1, 0, BloomType.ROW, Compression.Algorithm.NONE, 65_536);
        TableDefinition definition = table("admin_cell_ttl", twoSeconds, RowKeyLayout.parse("hostname:text", null));
        TableDefinition forever = table("admin_no_ttl", FamilySettings.DEFAULT, RowKeyLayout.parse("hostname:text", null));
        try (Admin admin = connection.getAdmin()) {
            new TableAdmin(admin).createOrCheck(definition);
            new TableAdmin(admin).createOrCheck(forever);
        }
        long now = System.currentTimeMillis();
        Row short1 = new Row(TableRole.LOG_DATA, Bytes.toBytes("web-01"), now, List.of(new Cell(FAMILY, Bytes.toBytes("m"), Bytes.toBytes("x"))));
        Row kept = new Row(TableRole.LOG_INDEX, Bytes.toBytes("web-01"), now, List.of(new Cell(FAMILY, Bytes.toBytes("m"), Bytes.toBytes("x"))));
        try (HBaseRowSink sink = new HBaseRowSink(connection,
                Map.of(TableRole.LOG_DATA, definition, TableRole.LOG_INDEX, forever), new SinkSettings(0, 0))) {
            sink.write(short1);
            sink.write(kept);
            sink.flush();
        }
        try (Table ttl = connection.getTable(definition.name()); Table noTtl = connection.getTable(forever.name())) {
            assertThat(ttl.exists(new Get(Bytes.toBytes("web-01")))).as("visible within its TTL").isTrue();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (ttl.exists(new Get(Bytes.toBytes("web-01"))) && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(ttl.exists(new Get(Bytes.toBytes("web-01")))).as("gone after 2 s").isFalse();
            assertThat(System.currentTimeMillis() - now).isGreaterThanOrEqualTo(2_000);
            assertThat(noTtl.exists(new Get(Bytes.toBytes("web-01")))).as("the same write without a TTL").isTrue();
        }
    }

    @Test
    void shouldRefuseACellTtlLongerThanTheFamilyTtl() {
        assertThatThrownBy(() -> new FamilySettings(2, 5_000, 1, 0, BloomType.ROW, Compression.Algorithm.NONE, 65_536))
                .hasMessageContaining("cell TTL 5000 ms is longer than the family TTL 2 s");
    }
}
