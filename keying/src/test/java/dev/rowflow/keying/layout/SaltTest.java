package dev.rowflow.keying.layout;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each salt variant on its own: the bucket it writes is the bucket it reads, its fan-out is every
 * prefix it writes and nothing else, and it pins a read exactly where the query fixes the parts it
 * comes from. Golden bytes of each variant are in RowKeyLayoutTest, ranges and splits against brute
 * force in ScanRangesTest and SplitPointsTest.
 */
class SaltTest {
    private static final String PARTS = "hostname:text, eventType:text, timestamp:ts";
    private static final String[] HOSTS = {"web-1", "web-10", "web-2", "db-1", "db-\u00e9"};
    private static final String[] TYPES = {"auth", "gc"};

    /** The keys of every host and type at 50 times. */
    private static List<Map<String, Object>> rows() {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String host : HOSTS) {
            for (String type : TYPES) {
                for (long ts = 1_364_248_490_000L; ts < 1_364_248_490_050L; ts++) {
                    rows.add(Map.of("hostname", host, "eventType", type, "timestamp", ts));
                }
            }
        }
        return rows;
    }

    private static byte[] key(RowKeyLayout layout, Map<String, Object> row) {
        return layout.encode(row::get);
    }

    private static byte[] saltOf(RowKeyLayout layout, byte[] key) {
        return Arrays.copyOf(key, layout.salt().width());
    }

    @ParameterizedTest
    @ValueSource(strings = {"bucket(7) | ", "bucket(8,hash=hostname) | ", "bucket(5,mod=timestamp) | ", "bucket(256) | "})
    void shouldReadBackTheBucketItWrote(String salt) {
        RowKeyLayout layout = RowKeyLayout.parse(salt + PARTS, null);
        int buckets = layout.salt().buckets().orElseThrow();

        Set<Integer> seen = new HashSet<>();
        for (Map<String, Object> row : rows()) {
            byte[] key = key(layout, row);
            int bucket = layout.salt().bucketOf(key);
            assertThat(bucket).isEqualTo(key[0] & 0xFF).isBetween(0, buckets - 1);
            assertThat(layout.decode(key).salt()).isEqualTo(bucket);
            seen.add(bucket);
        }
        assertThat(seen).as("500 keys reach more than one bucket").hasSizeGreaterThan(1);

        assertThat(layout.salt().bucketOf(new byte[0])).isEqualTo(-1);
        if (buckets < 256) {
            assertThat(layout.salt().bucketOf(new byte[] {(byte) buckets, 'x'})).as("no bucket of this salt").isEqualTo(-1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "hex(2) | ", "bin(1) | "})
    void shouldHaveNoBucketsWhereThePrefixIsNoBucket(String salt) {
        RowKeyLayout layout = RowKeyLayout.parse(salt + PARTS, null);
        byte[] key = key(layout, rows().get(0));

        assertThat(layout.salt().buckets()).isEqualTo(OptionalInt.empty());
        assertThat(layout.salt().bucketOf(key)).isEqualTo(-1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "bucket(1) | ", "bucket(6) | ", "bucket(8,hash=hostname) | ", "bucket(5,mod=timestamp) | ",
            "hex(1) | ", "hex(2) | ", "bin(1) | "})
    void shouldFanOutOverEveryPrefixItWritesOnceInByteOrder(String salt) {
        RowKeyLayout layout = RowKeyLayout.parse(salt + PARTS, null);
        List<byte[]> prefixes = layout.salt().allPrefixes();

        int expected = switch (salt) {
            case "" -> 1;
            case "hex(1) | " -> 16;
            case "hex(2) | ", "bin(1) | " -> 256;
            default -> layout.salt().buckets().orElseThrow();
        };
        assertThat(prefixes).hasSize(expected).allSatisfy(p -> assertThat(p).hasSize(layout.salt().width()));
        for (int i = 1; i < prefixes.size(); i++) {
            assertThat(Arrays.compareUnsigned(prefixes.get(i - 1), prefixes.get(i))).isNegative();
        }
        Set<String> fanOut = new HashSet<>(prefixes.stream().map(Arrays::toString).toList());
        for (Map<String, Object> row : rows()) {
            assertThat(fanOut).as("the salt of %s is one of the fan-out", row)
                    .contains(Arrays.toString(saltOf(layout, key(layout, row))));
        }
    }

    @Test
    void shouldWriteOnlyLowerCaseHexDigitsAndEveryOneOfThem() {
        RowKeyLayout layout = RowKeyLayout.parse("hex(1) | " + PARTS, null);

        Set<String> written = new HashSet<>();
        rows().forEach(row -> written.add(new String(saltOf(layout, key(layout, row)), StandardCharsets.US_ASCII)));

        assertThat(written).isSubsetOf(layout.salt().allPrefixes().stream()
                .map(p -> new String(p, StandardCharsets.US_ASCII)).toList()).hasSize(16);
        assertThat(layout.salt().allPrefixes()).extracting(p -> new String(p, StandardCharsets.US_ASCII))
                .containsExactly("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f");
    }

    @Test
    void shouldRefuseAFanOutBeyondTheLimit() {
        assertThat(RowKeyLayout.parse("hex(3) | " + PARTS, null).salt().allPrefixes()).hasSize(4096);
        assertThatThrownBy(() -> RowKeyLayout.parse("bin(2) | " + PARTS, null).salt().allPrefixes())
                .hasMessageContaining("bin(2) salt needs 65536 scans (more than 4096)");
    }

    /**
     * The salt each query pins, if any, checked against every key the query selects: all of them
     * carry the pinned salt. Where nothing is pinned, the selected keys carry more than one.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", "bucket(6) | ", "bucket(8,hash=hostname) | ", "bucket(8,hash=hostname+timestamp) | ",
            "bucket(5,mod=timestamp) | ", "hex(2) | ", "bin(1) | "})
    void shouldPinExactlyTheQueriesThatFixThePartsTheSaltComesFrom(String salt) {
        RowKeyLayout layout = RowKeyLayout.parse(salt + "hostname:text, timestamp:ts, eventType:text", null);
        List<String> fields = List.of("hostname", "timestamp", "eventType");
        Map<String, Object> example = rows().get(7);

        for (int fixed = 0; fixed <= fields.size(); fixed++) {
            List<String> fixedFields = fields.subList(0, fixed);
            byte[] prefix = prefix(layout, example, fixed);
            byte[] pinned = layout.salt().pinnedBy(prefix, fixed, layout.parts());

            Set<String> salts = new HashSet<>();
            for (Map<String, Object> row : rows()) {
                if (fixedFields.stream().allMatch(f -> row.get(f).equals(example.get(f)))) {
                    salts.add(Arrays.toString(saltOf(layout, key(layout, row))));
                }
            }
            boolean decided = switch (salt) {
                case "" -> true;
                case "bucket(8,hash=hostname) | " -> fixed >= 1;
                case "bucket(5,mod=timestamp) | " -> fixed >= 2;
                case "bucket(8,hash=hostname+timestamp) | " -> fixed >= 2;
                default -> fixed == fields.size();
            };
            if (decided) {
                assertThat(pinned).as("%s with %d parts fixed", salt, fixed).isNotNull();
                assertThat(salts).as("%s with %d parts fixed", salt, fixed).containsExactly(Arrays.toString(pinned));
            } else {
                assertThat(pinned).as("%s with %d parts fixed", salt, fixed).isNull();
                assertThat(salts).as("%s with %d parts fixed", salt, fixed).hasSizeGreaterThan(1);
            }
        }
    }

    private static byte[] prefix(RowKeyLayout layout, Map<String, Object> row, int fixed) {
        byte[] unsalted = layout.unsalted(key(layout, row));
        int end = 0;
        List<KeyPart> parts = layout.parts();
        for (int i = 0; i < fixed; i++) {
            end = parts.get(i).encoding().end(unsalted, end, i == parts.size() - 1);
        }
        return Arrays.copyOf(unsalted, end);
    }

    @Test
    void shouldTakeTheBucketOfAModuloSaltFromTheValueItsPartHolds() {
        // A byte part takes 'O' or 79 alike: both are the byte 4F, so both are bucket 79 % 4.
        RowKeyLayout layout = RowKeyLayout.parse("bucket(4,mod=type) | type:byte, id:text", null);

        assertThat(layout.encode("O", "x")).containsExactly(3, 'O', 'x');
        assertThat(layout.encode(79L, "x")).containsExactly(3, 'O', 'x');
        assertThat(layout.saltOf(layout.encode("O", "x"))).containsExactly(3);
    }

    @Test
    void shouldRefuseHashAndModFieldsThePartsDoNotGiveIt() {
        assertThatThrownBy(() -> RowKeyLayout.parse("bucket(4,hash=hostname+timestamp) | " + PARTS, null))
                .hasMessageContaining("hash=hostname+timestamp must name the leading key parts in order "
                        + "(hostname, eventType, timestamp)");
        assertThatThrownBy(() -> RowKeyLayout.parse("bucket(4,mod=eventType) | " + PARTS, null))
                .hasMessageContaining("mod=eventType must name a numeric key part");
        assertThatThrownBy(() -> RowKeyLayout.parse("bucket(4,mod=level) | " + PARTS, null))
                .hasMessageContaining("mod=level must name a numeric key part");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bucket(8) | ", "hex(2) | ", "bin(1) | "})
    void shouldSplitOnlyAtPrefixesItWrites(String salt) {
        Salt s = RowKeyLayout.parse(salt + PARTS, null).salt();
        Function<byte[], String> text = Arrays::toString;
        Set<String> prefixes = new HashSet<>(s.allPrefixes().stream().map(text).toList());

        for (int regions = 1; regions <= 8; regions++) {
            List<byte[]> splits = s.splitPoints(regions).orElseThrow();
            assertThat(splits).hasSize(regions - 1);
            assertThat(splits).allSatisfy(split -> assertThat(prefixes).contains(text.apply(split)));
        }
        assertThat(s.defaultRegions()).isEqualTo(salt.startsWith("bucket") ? 8 : 16);
        assertThat(new Salt.None().splitPoints(4)).isEmpty();
        assertThat(new Salt.None().defaultRegions()).isZero();
    }

    @Test
    void shouldBeEqualWhereTheSpecIs() {
        assertThat(RowKeyLayout.parse("bucket( 8 ,hash=a) | a:text", null).salt())
                .isEqualTo(new Salt.Bucket(8, List.of("a"), null))
                .hasSameHashCodeAs(new Salt.Bucket(8, List.of("a"), null))
                .isNotEqualTo(new Salt.Bucket(8, List.of(), null))
                .hasToString("bucket(8,hash=a)");
        assertThat(new Salt.Hex(2)).isEqualTo(new Salt.Hex(2)).isNotEqualTo(new Salt.Binary(2));
        assertThat(new Salt.None()).isEqualTo(new Salt.None()).hasToString("no salt");
    }
}
