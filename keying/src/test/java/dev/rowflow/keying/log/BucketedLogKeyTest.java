package dev.rowflow.keying.log;

import dev.rowflow.keying.InvalidEventException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BucketedLogKeyTest {
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    @Test
    void shouldEncodeTheJavadocExampleByteForByte() {
        byte[] key = new BucketedLogKey(16).encode("web-01", 1364248490000L, "login");

        assertThat(HEX.formatHex(key)).isEqualTo("0F" + "0000013DA38BF010" + HEX.formatHex("web-01".getBytes())
                + "00" + HEX.formatHex("login".getBytes()));
    }

    @Test
    void shouldDecodeWhatItEncoded() {
        BucketedLogKey layout = new BucketedLogKey(16);
        byte[] key = layout.encode("web-01.eu-west.example.com", 1_700_000_000_123L, "http.request");

        assertThat(layout.decode(key)).isEqualTo(
                new LogKey(key[0], 1_700_000_000_123L, "web-01.eu-west.example.com", "http.request"));
        assertThat(BucketedLogKey.unsalted(key)).isEqualTo(Arrays.copyOfRange(key, 1, key.length));
    }

    @Test
    void shouldKeepTimeOrderWithinABucket() {
        BucketedLogKey layout = new BucketedLogKey(1);
        List<byte[]> keys = new ArrayList<>();
        for (long t = 0; t < 2_000; t += 7) {
            keys.add(layout.encode("h", t * 1_000_003L, "e"));
        }
        List<byte[]> sorted = new ArrayList<>(keys);
        sorted.sort(Arrays::compareUnsigned);

        assertThat(sorted).containsExactlyElementsOf(keys);
    }

    @Test
    void shouldPutConsecutiveEventsIntoEveryBucketAndTheSameEventIntoTheSameBucket() {
        BucketedLogKey layout = new BucketedLogKey(8);
        int[] perBucket = new int[8];
        for (long t = 0; t < 8_000; t++) {
            byte[] key = layout.encode("web-01", 1_700_000_000_000L + t, "login");
            perBucket[key[0]]++;
            assertThat(layout.encode("web-01", 1_700_000_000_000L + t, "login")).isEqualTo(key);
        }
        // A fair share is 1000; a hash that spreads sequential times keeps every bucket near it.
        assertThat(java.util.stream.IntStream.of(perBucket).boxed()).allSatisfy(n -> assertThat(n).isBetween(850, 1150));
    }

    @Test
    void shouldSplitSoEveryBucketHasItsOwnRegion() {
        List<byte[]> splits = new BucketedLogKey(4).splitPoints();

        assertThat(splits).containsExactly(new byte[] {1}, new byte[] {2}, new byte[] {3});
        assertThat(new BucketedLogKey(1).splitPoints()).isEmpty();
    }

    @Test
    void shouldRefuseKeyPartsThatWouldBreakTheLayout() {
        BucketedLogKey layout = new BucketedLogKey(4);

        assertThatThrownBy(() -> layout.encode("", 1L, "e"))
                .isInstanceOf(InvalidEventException.class).hasMessage("invalid hostname '': must not be empty");
        assertThatThrownBy(() -> layout.encode("a\0b", 1L, "e"))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("'a\\0b'").hasMessageContaining("NUL");
        assertThatThrownBy(() -> layout.encode("h", -5L, "e"))
                .isInstanceOf(InvalidEventException.class).hasMessageStartingWith("invalid timestamp '-5'");
        assertThatThrownBy(() -> new BucketedLogKey(257))
                .hasMessage("salt buckets must be in [1, 256], got 257");
    }

    @Test
    void shouldRefuseToDecodeAKeyFromAnotherLayout() {
        byte[] key = new BucketedLogKey(16).encode("web-01", 1364248490000L, "login");

        assertThatThrownBy(() -> new BucketedLogKey(8).decode(key))
                .hasMessageContaining("bucket 15").hasMessageContaining("8 buckets");
    }
}
