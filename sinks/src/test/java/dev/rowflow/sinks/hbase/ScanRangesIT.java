package dev.rowflow.sinks.hbase;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.keying.layout.KeyQuery;
import dev.rowflow.keying.layout.KeyRange;
import dev.rowflow.keying.layout.RowKeyLayout;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rows written under each layout into real HBase tables pre-split by the layout; every range
 * query, scanned with plain hbase-client, returns exactly the expected rows in the expected order
 * (salted fan-out merged back, with ties across buckets and empty buckets), and every region of
 * the pre-split receives rows.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
@ParameterizedClass(name = "{0}")
@EnumSource(Store.class)
class ScanRangesIT {
    private static final byte[] FAMILY = Bytes.toBytes("d");
    private static final byte[] HOST = Bytes.toBytes("h");
    private static final byte[] TYPE = Bytes.toBytes("e");
    private static final byte[] TIME = Bytes.toBytes("t");
    private static final List<String> HOSTS = List.of("web-1", "web-10", "web-2", "db-1", "cache-\u00e9");
    private static final List<String> TYPES = List.of("auth", "auth.fail", "gc");

    private final Store store;
    private final Connection connection;

    ScanRangesIT(Store store, EmbeddedStack stack) {
        EmbeddedStackExtension.assumeStoreAvailable(store.token());
        this.store = store;
        this.connection = stack.connection(store.token());
    }

    record LogRow(String host, String type, long ts) {
    }

    /** Times overlap across hosts (ties) and sequential times make the hotspot case. */
    private List<LogRow> rows() {
        List<LogRow> rows = new ArrayList<>();
        for (String host : HOSTS) {
            for (String type : TYPES) {
                for (long ts = 1_700_000_000_000L; ts < 1_700_000_000_200L; ts += 5) {
                    rows.add(new LogRow(host, type, ts));
                }
            }
        }
        return rows;
    }

    private TableName write(String name, RowKeyLayout layout) throws Exception {
        TableName table = TableName.valueOf(name);
        try (Admin admin = connection.getAdmin()) {
            List<byte[]> splits = layout.defaultSplitPoints();
            var descriptor = TableDescriptorBuilder.newBuilder(table)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY)).build();
            if (splits.isEmpty()) {
                admin.createTable(descriptor);
            } else {
                admin.createTable(descriptor, splits.toArray(new byte[0][]));
            }
        }
        List<Put> puts = new ArrayList<>();
        for (LogRow row : rows()) {
            byte[] key = layout.encode(f -> switch (f) {
                case "hostname" -> row.host();
                case "eventType" -> row.type();
                default -> row.ts();
            });
            puts.add(new Put(key).addColumn(FAMILY, HOST, Bytes.toBytes(row.host()))
                    .addColumn(FAMILY, TYPE, Bytes.toBytes(row.type())).addColumn(FAMILY, TIME, Bytes.toBytes(row.ts())));
        }
        try (Table t = connection.getTable(table)) {
            t.put(puts);
        }
        return table;
    }

    /** One scan per range, rows merged back in the layout's order. */
    private List<LogRow> read(TableName table, RowKeyLayout layout, KeyQuery query) throws Exception {
        List<Result> found = new ArrayList<>();
        try (Table t = connection.getTable(table)) {
            for (KeyRange range : layout.scanRanges(query)) {
                try (ResultScanner scanner = t.getScanner(new Scan().withStartRow(range.start()).withStopRow(range.stop()))) {
                    scanner.forEach(found::add);
                }
            }
        }
        Comparator<byte[]> order = layout.mergeOrder();
        found.sort((a, b) -> order.compare(a.getRow(), b.getRow()));
        return found.stream().map(r -> new LogRow(Bytes.toString(r.getValue(FAMILY, HOST)),
                Bytes.toString(r.getValue(FAMILY, TYPE)), Bytes.toLong(r.getValue(FAMILY, TIME)))).toList();
    }

    private List<LogRow> expected(Predicate<LogRow> filter, Comparator<LogRow> order) {
        return rows().stream().filter(filter).sorted(order).toList();
    }

    private static final Comparator<String> UTF8 = (a, b) -> Bytes.compareTo(Bytes.toBytes(a), Bytes.toBytes(b));
    private static final Comparator<LogRow> TIME_LED = Comparator.comparing(LogRow::ts)
            .thenComparing(LogRow::host, UTF8).thenComparing(LogRow::type, UTF8);
    private static final Comparator<LogRow> HOST_LED_NEWEST_FIRST = Comparator.comparing(LogRow::host, UTF8)
            .thenComparing(LogRow::type, UTF8).thenComparing(LogRow::ts, Comparator.reverseOrder());

    @Test
    void shouldMergeATimeRangeFannedOutOverSaltBucketsBackInTimeOrder() throws Exception {
        RowKeyLayout layout = RowKeyLayout.parse("bucket(8) | timestamp:ts, hostname:text, eventType:text", null);
        TableName table = write("ranges_bucketed", layout);

        List<LogRow> read = read(table, layout, KeyQuery.all().between(1_700_000_000_050L, 1_700_000_000_100L));

        assertThat(read).containsExactlyElementsOf(expected(
                r -> r.ts() >= 1_700_000_000_050L && r.ts() < 1_700_000_000_100L, TIME_LED));
        assertThat(read).hasSize(10 * HOSTS.size() * TYPES.size());
        assertThat(read(table, layout, KeyQuery.all())).containsExactlyElementsOf(expected(r -> true, TIME_LED));
        assertEveryRegionHasRows(table, 8);
    }

    @Test
    void shouldReadOneHostNewestFirstFromOneBucketOfAPartialKeySalt() throws Exception {
        RowKeyLayout layout = RowKeyLayout.parse(
                "bucket(16,hash=hostname) | hostname:text, eventType:text, timestamp:rts", null);
        TableName table = write("ranges_partial", layout);

        assertThat(layout.scanRanges(KeyQuery.prefix("web-1"))).hasSize(1);
        assertThat(read(table, layout, KeyQuery.prefix("web-1", "auth").between(1_700_000_000_020L, 1_700_000_000_041L)))
                .containsExactlyElementsOf(expected(r -> r.host().equals("web-1") && r.type().equals("auth")
                        && r.ts() >= 1_700_000_000_020L && r.ts() < 1_700_000_000_041L, HOST_LED_NEWEST_FIRST))
                .hasSize(5);
        // Five hosts in 16 buckets: most buckets are empty, and the fan-out still finds every row once.
        assertThat(read(table, layout, KeyQuery.all())).containsExactlyElementsOf(expected(r -> true, HOST_LED_NEWEST_FIRST));
    }

    @Test
    void shouldReadAHostLedLayoutWithoutSaltByPrefixAndTime() throws Exception {
        RowKeyLayout layout = RowKeyLayout.parse("hostname:text, eventType:text, timestamp:rts", null);
        TableName table = write("ranges_host_led", layout);

        assertThat(read(table, layout, KeyQuery.prefix("web-1")))
                .containsExactlyElementsOf(expected(r -> r.host().equals("web-1"), HOST_LED_NEWEST_FIRST));
        assertThat(read(table, layout, KeyQuery.prefix("cache-\u00e9", "gc").between(null, 1_700_000_000_010L)))
                .containsExactly(new LogRow("cache-\u00e9", "gc", 1_700_000_000_005L),
                        new LogRow("cache-\u00e9", "gc", 1_700_000_000_000L));
        assertThat(read(table, layout, KeyQuery.prefix("db-1", "gc", 1_700_000_000_195L)))
                .containsExactly(new LogRow("db-1", "gc", 1_700_000_000_195L));
    }

    @Test
    void shouldSpreadHexSaltedKeysOverEveryRegionOfTheHexSplit() throws Exception {
        RowKeyLayout layout = RowKeyLayout.parse("hex(2) | hostname:text, eventType:text, timestamp:ts", null);
        TableName table = write("ranges_hex", layout);

        assertEveryRegionHasRows(table, 16);
        assertThat(read(table, layout, KeyQuery.prefix("web-2", "gc", 1_700_000_000_100L)))
                .containsExactly(new LogRow("web-2", "gc", 1_700_000_000_100L));
    }

    private void assertEveryRegionHasRows(TableName table, int regions) throws Exception {
        if (!store.capabilities().fixedRegions()) {
            return; // Bigtable places tablets by load (the emulator keeps one): nothing to count here
        }
        try (RegionLocator locator = connection.getRegionLocator(table); Table t = connection.getTable(table)) {
            List<HRegionLocation> locations = locator.getAllRegionLocations();
            assertThat(locations).hasSize(regions);
            for (HRegionLocation location : locations) {
                var region = location.getRegion();
                int count = 0;
                try (ResultScanner scanner = t.getScanner(new Scan().withStartRow(region.getStartKey())
                        .withStopRow(region.getEndKey()))) {
                    for (Result ignored : scanner) {
                        count++;
                    }
                }
                assertThat(count).as("rows in region %s", region.getRegionNameAsString()).isPositive();
            }
        }
    }
}
