package dev.rowflow.keying.layout;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Split points must put keys into every region: the seeds' hex-split lesson (002, 1.3.6). */
class SplitPointsTest {

    /** How many of {@code keys} each region between the split points receives. */
    private static List<Integer> perRegion(List<byte[]> splits, List<byte[]> keys) {
        int[] counts = new int[splits.size() + 1];
        for (byte[] key : keys) {
            int region = 0;
            while (region < splits.size() && Arrays.compareUnsigned(key, splits.get(region)) >= 0) {
                region++;
            }
            counts[region]++;
        }
        return Arrays.stream(counts).boxed().toList();
    }

    private static List<byte[]> keys(RowKeyLayout layout, int n) {
        List<byte[]> keys = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            long t = i;
            keys.add(layout.encode(f -> f.equals("timestamp") ? 1_364_248_490_000L + t : "web-" + (t % 37)));
        }
        return keys;
    }

    @Test
    void shouldSplitHexSaltedKeysOverTheHexDigitsNotTheRawBytes() {
        RowKeyLayout layout = RowKeyLayout.parse("hex(4) | timestamp:dec", null);
        List<byte[]> splits = layout.splitPoints(16);

        assertThat(splits).extracting(s -> new String(s, StandardCharsets.US_ASCII))
                .containsExactly("1000", "2000", "3000", "4000", "5000", "6000", "7000", "8000",
                        "9000", "a000", "b000", "c000", "d000", "e000", "f000");
        assertThat(perRegion(splits, keys(layout, 16_000))).allSatisfy(n -> assertThat(n).isBetween(800, 1200));
    }

    @Test
    void shouldLeaveRegionsEmptyWithNaiveByteSplitsOverHexKeys() {
        // What the seed warns about: even raw-byte boundaries over 0x00..0xFF for keys of '0'..'f'.
        List<byte[]> naive = new ArrayList<>();
        for (int i = 1; i < 16; i++) {
            naive.add(new byte[] {(byte) (i * 16)});
        }
        List<Integer> counts = perRegion(naive, keys(RowKeyLayout.parse("hex(4) | timestamp:dec", null), 16_000));

        // '0'..'9' (0x30-0x39) all fall in [0x30, 0x40), 'a'..'f' (0x61-0x66) in [0x60, 0x70): 14 of 16 regions empty.
        assertThat(counts.stream().filter(n -> n == 0).count()).isEqualTo(14);
    }

    @Test
    void shouldSplitAtBucketBoundaries() {
        RowKeyLayout layout = RowKeyLayout.parse("bucket(8) | timestamp:ts, hostname:text", null);

        assertThat(layout.splitPoints(8)).containsExactly(new byte[] {1}, new byte[] {2}, new byte[] {3},
                new byte[] {4}, new byte[] {5}, new byte[] {6}, new byte[] {7});
        assertThat(layout.splitPoints(4)).containsExactly(new byte[] {2}, new byte[] {4}, new byte[] {6});
        assertThat(perRegion(layout.splitPoints(8), keys(layout, 8_000))).allSatisfy(n -> assertThat(n).isPositive());
        assertThatThrownBy(() -> layout.splitPoints(9)).hasMessageContaining("at most one region per bucket");
    }

    @Test
    void shouldSplitBinarySaltsAndMd5LedKeysEvenly() {
        RowKeyLayout binary = RowKeyLayout.parse("bin(1) | timestamp:ts, hostname:text", null);
        assertThat(perRegion(binary.splitPoints(10), keys(binary, 10_000))).allSatisfy(n -> assertThat(n).isBetween(850, 1150));
        RowKeyLayout md5 = RowKeyLayout.parse("hostname:md5, timestamp:ts", null);
        assertThat(perRegion(md5.splitPoints(4), keys(md5, 4_000))).allSatisfy(n -> assertThat(n).isPositive());
    }

    @Test
    void shouldSplitTextLedKeysOnlyFromSamples() {
        RowKeyLayout layout = RowKeyLayout.parse("hostname:text, timestamp:rts", null);
        assertThatThrownBy(() -> layout.splitPoints(4)).hasMessageContaining("split from sample keys");

        List<byte[]> samples = keys(layout, 37);
        List<byte[]> splits = RowKeyLayout.splitPoints(4, samples);

        assertThat(splits).hasSize(3);
        assertThat(perRegion(splits, keys(layout, 3_700))).allSatisfy(n -> assertThat(n).isPositive());
    }
}
