package dev.rowflow.keying.log;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HostLedLogKeyTest {

    @Test
    void shouldEncodeTheJavadocExampleByteForByte() {
        byte[] key = HostLedLogKey.encode("web-01", 1364248490000L, "login");

        assertThat(HexFormat.of().withUpperCase().formatHex(key)).isEqualTo(
                HexFormat.of().withUpperCase().formatHex("web-01\0login\0".getBytes()) + "7FFFFEC25C740FEF");
    }

    @Test
    void shouldDecodeWhatItEncoded() {
        byte[] key = HostLedLogKey.encode("web-01", 1_700_000_000_123L, "auth.failure");

        assertThat(HostLedLogKey.decode(key)).isEqualTo(new LogKey(-1, 1_700_000_000_123L, "web-01", "auth.failure"));
    }

    @Test
    void shouldSortByHostThenTypeThenNewestFirst() {
        List<byte[]> expected = List.of(
                HostLedLogKey.encode("web-1", 300, "auth"),
                HostLedLogKey.encode("web-1", 200, "auth"),
                HostLedLogKey.encode("web-1", 100, "auth"),
                HostLedLogKey.encode("web-1", 500, "auth.fail"),
                HostLedLogKey.encode("web-1", 400, "http"),
                HostLedLogKey.encode("web-10", 900, "auth"));
        List<byte[]> sorted = new ArrayList<>(expected);
        java.util.Collections.reverse(sorted);
        sorted.sort(Arrays::compareUnsigned);

        assertThat(sorted).containsExactlyElementsOf(expected);
    }

    @Test
    void shouldNotLetOneEventTypePrefixAnother() {
        byte[] auth = Arrays.copyOf(HostLedLogKey.encode("web-1", 1, "auth"), "web-1".length() + "auth".length() + 2);
        byte[] authFail = HostLedLogKey.encode("web-1", 1, "auth.fail");

        assertThat(Arrays.mismatch(auth, authFail)).isLessThan(auth.length);
    }

    @Test
    void shouldBeItsOwnInverse() {
        assertThat(HostLedLogKey.reverse(HostLedLogKey.reverse(1_364_248_490_000L))).isEqualTo(1_364_248_490_000L);
        assertThat(HostLedLogKey.reverse(0)).isEqualTo(Long.MAX_VALUE);
    }
}
