package dev.rowflow.keying.layout;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Scan ranges checked against brute force: for generated rows, the keys inside the ranges are
 * exactly the rows the query selects, and merging the ranges gives them in unsalted key order.
 * ScanRangesIT repeats the exercise on real HBase.
 */
class ScanRangesTest {
    private static final String[] HOSTS = {"web-1", "web-10", "web-2", "db-1"};
    private static final String[] TYPES = {"auth", "auth.fail", "gc"};

    record LogRow(String host, String type, long ts) {
    }

    private static List<LogRow> rows() {
        List<LogRow> rows = new ArrayList<>();
        for (String host : HOSTS) {
            for (String type : TYPES) {
                for (long ts = 1000; ts < 1100; ts += 7) {
                    rows.add(new LogRow(host, type, ts));
                }
            }
        }
        return rows;
    }

    /** Encodes every row, scans the ranges over the sorted keys like a region server, merges. */
    private static List<LogRow> read(RowKeyLayout layout, KeyQuery query) {
        List<byte[]> table = new ArrayList<>(rows().stream()
                .map(r -> layout.encode(f -> switch (f) {
                    case "hostname" -> r.host();
                    case "eventType" -> r.type();
                    default -> r.ts();
                })).toList());
        table.sort(Arrays::compareUnsigned);
        List<KeyRange> ranges = layout.scanRanges(query);
        for (int i = 1; i < ranges.size(); i++) {
            assertThat(Arrays.compareUnsigned(ranges.get(i - 1).start(), ranges.get(i).start())).isNegative();
        }
        List<byte[]> found = new ArrayList<>();
        for (KeyRange range : ranges) {
            table.stream().filter(range::contains).forEach(found::add);
        }
        found.sort(layout.mergeOrder());
        return found.stream().map(k -> {
            var fields = layout.decode(k).fields();
            return new LogRow((String) fields.get("hostname"), (String) fields.get("eventType"),
                    (Long) fields.get("timestamp"));
        }).toList();
    }

    private static List<LogRow> expected(Predicate<LogRow> filter, java.util.Comparator<LogRow> order) {
        return rows().stream().filter(filter).sorted(order).toList();
    }

    private static final java.util.Comparator<LogRow> HOST_LED = java.util.Comparator.comparing(LogRow::host)
            .thenComparing(LogRow::type).thenComparing(LogRow::ts);
    private static final java.util.Comparator<LogRow> HOST_LED_NEWEST_FIRST = java.util.Comparator
            .comparing(LogRow::host).thenComparing(LogRow::type)
            .thenComparing(LogRow::ts, java.util.Comparator.reverseOrder());

    @ParameterizedTest
    @ValueSource(strings = {"", "bucket(4,hash=hostname) | ", "bucket(4) | "})
    void shouldReadOneHostAndTypeInATimeRangeNewestFirst(String salt) {
        RowKeyLayout layout = RowKeyLayout.parse(salt + "hostname:text, eventType:text, timestamp:rts", null);

        List<LogRow> read = read(layout, KeyQuery.prefix("web-1", "auth").between(1014L, 1056L));

        assertThat(read).containsExactlyElementsOf(expected(
                r -> r.host().equals("web-1") && r.type().equals("auth") && r.ts() >= 1014 && r.ts() < 1056,
                HOST_LED_NEWEST_FIRST));
        assertThat(read).hasSize(6);
    }

    @Test
    void shouldNotLetATypeMatchALongerTypeWithTheSamePrefix() {
        RowKeyLayout layout = RowKeyLayout.parse("hostname:text, eventType:text, timestamp:ts", null);

        assertThat(read(layout, KeyQuery.prefix("web-1", "auth"))).containsExactlyElementsOf(expected(
                r -> r.host().equals("web-1") && r.type().equals("auth"), HOST_LED));
        assertThat(read(layout, KeyQuery.prefix("web-1"))).containsExactlyElementsOf(expected(
                r -> r.host().equals("web-1"), HOST_LED));
    }

    @Test
    void shouldPinOneBucketWhenTheQueryFixesTheHashedFields() {
        RowKeyLayout layout = RowKeyLayout.parse("bucket(8,hash=hostname) | hostname:text, eventType:text, timestamp:rts", null);

        assertThat(layout.scanRanges(KeyQuery.prefix("web-1"))).hasSize(1);
        assertThat(layout.scanRanges(KeyQuery.all())).hasSize(8);
        assertThat(read(layout, KeyQuery.all())).containsExactlyElementsOf(expected(r -> true, HOST_LED_NEWEST_FIRST));
    }

    @Test
    void shouldFanATimeRangeOutOverEveryBucketAndMergeItBackInTimeOrder() {
        RowKeyLayout layout = RowKeyLayout.parse("bucket(6) | timestamp:ts, hostname:text, eventType:text", null);

        List<LogRow> read = read(layout, KeyQuery.all().between(1021L, 1050L));

        assertThat(layout.scanRanges(KeyQuery.all().between(1021L, 1050L))).hasSize(6);
        assertThat(read).containsExactlyElementsOf(expected(r -> r.ts() >= 1021 && r.ts() < 1050,
                java.util.Comparator.comparing(LogRow::ts).thenComparing(LogRow::host).thenComparing(LogRow::type)));
        // 12 host/type series x 4 times (1021, 1028, 1035, 1042, 1049 -> 5) -- ties across buckets merged
        assertThat(read).hasSize(12 * 5);
    }

    @Test
    void shouldPinTheBucketOfATimestampModuloLayoutForOneInstant() {
        RowKeyLayout layout = RowKeyLayout.parse("bucket(5,mod=timestamp) | timestamp:ts, hostname:text, eventType:text", null);

        assertThat(layout.scanRanges(KeyQuery.prefix(1035L))).hasSize(1);
        assertThat(read(layout, KeyQuery.prefix(1035L))).hasSize(12);
    }

    @Test
    void shouldGetOneRowByItsFullKey() {
        RowKeyLayout layout = RowKeyLayout.parse("hex(2) | hostname:text, eventType:text, timestamp:ts", null);

        assertThat(read(layout, KeyQuery.prefix("db-1", "gc", 1007L))).containsExactly(new LogRow("db-1", "gc", 1007));
        assertThat(layout.scanRanges(KeyQuery.prefix("db-1", "gc", 1007L))).hasSize(1);
        assertThat(read(layout, KeyQuery.prefix("db-1"))).hasSize(3 * 15);
    }

    @Test
    void shouldCarryOverFfBytesAtTheEndOfAPrefix() {
        assertThat(RowKeyLayout.prefixEnd(bytes("01FF"))).isEqualTo(bytes("02"));
        assertThat(RowKeyLayout.prefixEnd(bytes("00FFFF"))).isEqualTo(bytes("01"));
        assertThat(RowKeyLayout.prefixEnd(bytes("7A"))).isEqualTo(bytes("7B"));
        assertThat(RowKeyLayout.prefixEnd(bytes("FFFF"))).isEmpty();
        assertThat(RowKeyLayout.prefixEnd(new byte[0])).isEmpty();
        RowKeyLayout layout = RowKeyLayout.parse("bucket(256) | timestamp:ts", null);
        List<KeyRange> ranges = layout.scanRanges(KeyQuery.all());
        assertThat(ranges.get(255).start()).isEqualTo(bytes("FF"));
        assertThat(ranges.get(255).stop()).as("the last bucket runs to the end of the table").isEmpty();
    }

    @Test
    void shouldRefuseRangesTheLayoutCannotServe() {
        assertThatThrownBy(() -> RowKeyLayout.parse("hostname:md5, timestamp:ts", null)
                .scanRanges(KeyQuery.all().between("a", "b")))
                .hasMessageContaining("hostname:md5").hasMessageContaining("no byte order");
        assertThatThrownBy(() -> RowKeyLayout.parse("hex(4) | timestamp:dec", null).scanRanges(KeyQuery.all()))
                .hasMessageContaining("65536 scans");
    }

    private static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex);
    }

}
