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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Table creation, the recorded key layout, online updates and TTLs on real HBase. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class TableAdminIT {
    private static final byte[] FAMILY = Bytes.toBytes("d");
    private static final RowKeyLayout BUCKETS_8 = RowKeyLayout.parse("bucket(8) | timestamp:ts, hostname:text", null);
    private static Connection connection;

    @BeforeAll
    static void connect(EmbeddedStack stack) {
        connection = stack.hbase().connection();
    }

    private static TableDefinition table(String name, FamilySettings settings, RowKeyLayout layout) {
        return new TableDefinition(TableName.valueOf(name), FAMILY, settings, layout);
    }

    @Test
    void shouldCreateOnceWithFamilySettingsPreSplitAndTheLayoutRecorded() throws Exception {
        FamilySettings settings = new FamilySettings(3600, 0, 3, 1, BloomType.ROWCOL, Compression.Algorithm.GZ, 32_768);
        try (Admin admin = connection.getAdmin()) {
            TableAdmin tables = new TableAdmin(admin);

            assertThat(tables.createOrCheck(table("admin_create", settings, BUCKETS_8))).isTrue();
            assertThat(tables.createOrCheck(table("admin_create", settings, BUCKETS_8))).isFalse();

            assertThat(tables.describe(TableName.valueOf("admin_create"))).isEqualTo("""
                    table admin_create
                      key layout: bucket(8) | timestamp:ts, hostname:text (version 1)
                      family d: ttl 3600 s, max versions 3, min versions 1, bloom ROWCOL, compression GZ, block size 32768
                      regions: 8, split at \\x01 \\x02 \\x03 \\x04 \\x05 \\x06 \\x07
                    """);
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
            assertThat(tables.describe(TableName.valueOf("admin_update"))).contains("family d: ttl 604800 s,");
            assertThat(admin.isTableEnabled(TableName.valueOf("admin_update"))).isTrue();
        }
    }

    @Test
    void shouldDropCellsAfterTheirCellTtl() throws Exception {
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
