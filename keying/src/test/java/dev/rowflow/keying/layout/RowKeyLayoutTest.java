package dev.rowflow.keying.layout;

import dev.rowflow.keying.InvalidEventException;
import org.apache.commons.codec.digest.MurmurHash3;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Golden vectors: literal expected bytes for each layout of the seeds. */
class RowKeyLayoutTest {
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    private static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }

    private static String hex(String ascii) {
        return HEX.formatHex(ascii.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldTellTheSaltBarFromAFallbackInAPart() {
        RowKeyLayout salted = RowKeyLayout.parse("bucket(4) | @timestamp:ts, host.name | host:text", null);
        assertThat(salted.salt().buckets()).hasValue(4);
        assertThat(salted.parts()).extracting(KeyPart::field).containsExactly("@timestamp", "host.name | host");
        assertThat(RowKeyLayout.parse(salted.spec(), null).spec()).isEqualTo(salted.spec());
        RowKeyLayout unsalted = RowKeyLayout.parse("host.name | host:text, @timestamp:rts", null);
        assertThat(unsalted.salt().width()).isZero();
        assertThat(unsalted.parts()).extracting(KeyPart::field).containsExactly("host.name | host", "@timestamp");
    }

    @Test
    void shouldSaltTheSeedsTimestampIntoFfe5() {
        RowKeyLayout layout = RowKeyLayout.parse("hex(4) | timestamp:dec", null);

        byte[] key = layout.encode(1364248490L);

        assertThat(new String(key, StandardCharsets.US_ASCII)).isEqualTo("ffe51364248490");
        assertThat(layout.decode(key)).isEqualTo(new DecodedKey("ffe5", Map.of("timestamp", 1364248490L)));
        assertThat(layout.unsalted(key)).isEqualTo("1364248490".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void shouldWriteTheBinarySaltAsTheLastBytesOfTheMd5() {
        byte[] key = RowKeyLayout.parse("bin(2) | timestamp:dec", null).encode(1364248490L);

        assertThat(hex(key)).isEqualTo("FFE5" + hex("1364248490"));
    }

    @Test
    void shouldWriteTheHostLedKeysWithForwardAndReverseTime() {
        assertThat(hex(RowKeyLayout.parse("hostname:text, eventType:text, timestamp:ts", null)
                .encode("web-01", "login", 1364248490000L)))
                .isEqualTo(hex("web-01\0login\0") + "0000013DA38BF010");
        assertThat(hex(RowKeyLayout.parse("hostname:text, eventType:text, timestamp:rts", null)
                .encode("web-01", "login", 1364248490000L)))
                .isEqualTo(hex("web-01\0login\0") + "7FFFFEC25C740FEF");
    }

    @Test
    void shouldBucketTheTimeLedKeyByAHashOfTheUnsaltedKey() {
        byte[] key = RowKeyLayout.parse("bucket(16) | timestamp:ts, hostname:text, eventType:text", null)
                .encode(1364248490000L, "web-01", "login");

        byte[] unsalted = HEX.parseHex("0000013DA38BF010" + hex("web-01\0login"));
        int bucket = Math.floorMod(MurmurHash3.hash32x86(unsalted, 0, unsalted.length, 0), 16);
        assertThat(hex(key)).isEqualTo(String.format("%02X", bucket) + hex(unsalted));
        assertThat(hex(key)).isEqualTo("07" + hex(unsalted));
    }

    @Test
    void shouldBucketByTimestampModuloN() {
        byte[] key = RowKeyLayout.parse("bucket(10, mod=timestamp) | timestamp:ts, hostname:text", null)
                .encode(1364248490007L, "h");

        assertThat(hex(key)).isEqualTo("07" + "0000013DA38BF017" + hex("h"));
    }

    @Test
    void shouldKeepEveryRowOfAHostInOneBucketWithAPartialKeySalt() {
        RowKeyLayout layout = RowKeyLayout.parse("bucket(8,hash=hostname) | hostname:text, eventType:text, timestamp:rts", null);
        byte[] host = "web-01\0".getBytes(StandardCharsets.UTF_8);
        int expected = Math.floorMod(MurmurHash3.hash32x86(host, 0, host.length, 0), 8);

        for (long t = 0; t < 100; t++) {
            assertThat(layout.encode("web-01", t % 2 == 0 ? "login" : "gc.pause", t)[0]).isEqualTo((byte) expected);
        }
    }

    @Test
    void shouldWriteHashedAndSubstitutedParts() {
        assertThat(hex(RowKeyLayout.parse("hostname:md5, eventType:md5, timestamp:ts", null)
                .encode("web-01", "login", 1L)))
                .isEqualTo(md5("web-01") + md5("login") + "0000000000000001")
                .hasSize(2 * (16 + 16 + 8));
        Map<String, Long> ids = new ConcurrentHashMap<>();
        UidResolver uids = new UidResolver() {
            @Override
            public long idOf(String kind, String name) {
                return ids.computeIfAbsent(kind + "/" + name, k -> (long) ids.size() + 1);
            }

            @Override
            public Optional<String> nameOf(String kind, long id) {
                return Optional.empty();
            }
        };
        RowKeyLayout numeric = RowKeyLayout.parse("hostname:uid, eventType:uid, timestamp:ts", uids);
        assertThat(hex(numeric.encode("web-01", "login", 2L)))
                .isEqualTo("0000000000000001" + "0000000000000002" + "0000000000000002");
        assertThat(numeric.decode(numeric.encode("web-01", "login", 2L)).fields())
                .containsExactly(Map.entry("hostname", 1L), Map.entry("eventType", 2L), Map.entry("timestamp", 2L));
    }

    @Test
    void shouldWriteTheCustomerOrderKeysOfTheSeeds() {
        assertThat(hex(RowKeyLayout.parse("customer:text, order:text", null).encode("C042", "O7")))
                .isEqualTo(hex("C042\0O7"));
        assertThat(hex(RowKeyLayout.parse("customer:md5, order:md5", null).encode("C042", "O7")))
                .isEqualTo(md5("C042") + md5("O7")).hasSize(2 * 32);
        assertThat(hex(RowKeyLayout.parse("customer:long, order:md5", null).encode(42L, "O7")))
                .isEqualTo("800000000000002A" + md5("O7")).hasSize(2 * 24);
        // CUSTOMER++: the record type after the customer, so one prefix scan returns everything.
        assertThat(hex(RowKeyLayout.parse("customer:text, type:byte, order:text", null).encode("C042", "O", "O7")))
                .isEqualTo(hex("C042\0") + "4F" + hex("O7"));
        // A line item: [order key][LINE type][line number].
        assertThat(hex(RowKeyLayout.parse("customer:text, order:text, type:byte, line:long", null)
                .encode("C042", "O7", "L", 3L)))
                .isEqualTo(hex("C042\0O7\0") + "4C" + "8000000000000003");
    }

    @Test
    void shouldPrintItsCanonicalSpec() {
        assertThat(RowKeyLayout.parse(" bucket( 16 , hash=hostname ) |hostname:text,timestamp:rts ", null).spec())
                .isEqualTo("bucket(16,hash=hostname) | hostname:text, timestamp:rts");
    }

    @Test
    void shouldNameTheBadPartOfASpec() {
        assertThatThrownBy(() -> RowKeyLayout.parse("bucket(16) | timestamp:ts, hostname:txt", null))
                .hasMessageContaining("'hostname:txt'").hasMessageContaining("unknown encoding 'txt'");
        assertThatThrownBy(() -> RowKeyLayout.parse("bucket(300) | timestamp:ts", null))
                .hasMessageContaining("'bucket(300)'").hasMessageContaining("[1, 256]");
        assertThatThrownBy(() -> RowKeyLayout.parse("salt(4) | timestamp:ts", null))
                .hasMessageContaining("salt 'salt(4)'");
        assertThatThrownBy(() -> RowKeyLayout.parse("bucket(4,hash=eventType) | hostname:text, eventType:text", null))
                .hasMessageContaining("hash=eventType must name the leading key parts");
        assertThatThrownBy(() -> RowKeyLayout.parse("hostname", null))
                .hasMessageContaining("part 'hostname' needs the form field:encoding");
        assertThatThrownBy(() -> RowKeyLayout.parse("hostname:uid", null).encode("web-01"))
                .hasMessageContaining("needs the UID table to turn 'web-01' into an id");
    }

    @Test
    void shouldNameTheFieldOfAMissingOrBadValue() {
        RowKeyLayout layout = RowKeyLayout.parse("hostname:text, timestamp:ts", null);

        assertThatThrownBy(() -> layout.encode(Map.of("hostname", "h")::get))
                .isInstanceOf(InvalidEventException.class)
                .hasMessage("invalid timestamp null: is missing: it is part of the row key");
        assertThatThrownBy(() -> layout.encode("h", -1L))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("'-1'");
        assertThatThrownBy(() -> layout.encode("a\0b", 1L)).hasMessageContaining("NUL");
        assertThatThrownBy(() -> layout.encode("bad\uD800", 1L)).hasMessageContaining("unpaired surrogate");
    }

    @Test
    void shouldRefuseKeysOfAnotherLayout() {
        byte[] key = RowKeyLayout.parse("bucket(16) | timestamp:ts, hostname:text", null).encode(5L, "h");

        assertThatThrownBy(() -> RowKeyLayout.parse("bucket(2) | timestamp:ts, hostname:text", null).decode(key))
                .hasMessageContaining("outside the 2 buckets");
        assertThatThrownBy(() -> RowKeyLayout.parse("hostname:text, eventType:text, timestamp:ts", null)
                .decode("abc".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("does not fit layout");
    }

    @Test
    void shouldRefuseAFieldNamedByTwoParts() {
        assertThatThrownBy(() -> RowKeyLayout.parse("timestamp:ts, hostname:text, timestamp:rts", null))
                .hasMessage("layout 'timestamp:ts, hostname:text, timestamp:rts': timestamp is in the key twice: "
                        + "a key holds each field once");
    }

    @Test
    void shouldDecodeExactlyWhatEncodeWritesAndNameTheOffsetOfAnythingElse() {
        RowKeyLayout layout = RowKeyLayout.parse("bucket(16) | timestamp:ts, hostname:text, eventType:text", null);
        byte[] key = layout.encode(1364248490000L, "web-01", "login");

        assertThat(layout.decodeExact(key).fields()).containsExactly(Map.entry("timestamp", 1364248490000L),
                Map.entry("hostname", "web-01"), Map.entry("eventType", "login"));
        assertThat(layout.saltOf(key)).containsExactly(key[0]);

        assertExactRefused(layout, concat(key, new byte[] {0, 'x'}), "offset 21: byte 0x00 inside the last part "
                + "'eventType:text', and encode refuses NUL in text (it ends parts)");
        assertExactRefused(layout, Arrays.copyOf(key, 16), "offset 16: part 'eventType:text' is empty, and encode "
                + "refuses empty text");
        assertExactRefused(layout, concat(Arrays.copyOf(key, 17), new byte[] {(byte) 0xC3, 'x'}),
                "offset 17: byte 0xC3 of part 'eventType:text' is not UTF-8");
        byte[] negative = key.clone();
        negative[1] = (byte) 0x80;
        assertExactRefused(layout, negative, "offset 1: part 'timestamp:ts' does not read as a value encode takes: "
                + "invalid ts key part '-9223370672606285808': is before 1970");
        assertExactRefused(layout, Arrays.copyOf(key, 5), "offset 5: the key ends inside part 'timestamp:ts', which "
                + "takes 8 bytes from offset 1");
        byte[] bucket16 = key.clone();
        bucket16[0] = 16;
        assertExactRefused(layout, bucket16, "offset 0: bucket 16 is not one of the 16 buckets of bucket(16)");

        RowKeyLayout dec = RowKeyLayout.parse("hex(2) | timestamp:dec, hostname:text", null);
        byte[] padded = concat("ab007".getBytes(StandardCharsets.US_ASCII), new byte[] {0, 'h'});
        assertExactRefused(dec, padded, "offset 2: part 'timestamp:dec' reads as 7, which encode writes as 7\\x00");
        assertExactRefused(dec, concat("AB7".getBytes(StandardCharsets.US_ASCII), new byte[] {0, 'h'}),
                "offset 0: byte 0x41 is not a lower-case hex digit of the salt hex(2)");
        assertExactRefused(RowKeyLayout.parse("timestamp:ts", null), new byte[9], "offset 8: 1 bytes after the last "
                + "part 'timestamp:ts'");
    }

    @Test
    void shouldGiveTheSaltTheFieldsOfAKeyCallFor() {
        for (String spec : List.of("bucket(16) | timestamp:ts, hostname:text", "bucket(8,hash=hostname) | hostname:text, "
                + "timestamp:ts", "bucket(4,mod=timestamp) | hostname:text, timestamp:ts", "hex(4) | hostname:text, "
                + "timestamp:ts", "bin(2) | hostname:text, timestamp:ts")) {
            RowKeyLayout layout = RowKeyLayout.parse(spec, null);
            Map<String, Object> fields = Map.of("hostname", "web-07", "timestamp", 1364248490123L);
            byte[] key = layout.encode(fields::get);
            int width = layout.salt().width();
            assertThat(layout.saltOf(key)).as(spec).isEqualTo(Arrays.copyOf(key, width));

            byte[] other = key.clone();
            other[0] ^= 1;
            assertThat(layout.saltOf(other)).as(spec).isEqualTo(Arrays.copyOf(key, width));
        }
    }

    private static void assertExactRefused(RowKeyLayout layout, byte[] key, String message) {
        assertThatThrownBy(() -> layout.decodeExact(key)).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static String md5(String s) {
        return hex(dev.rowflow.keying.KeyBytes.md5(s.getBytes(StandardCharsets.UTF_8), 0, s.length()));
    }

}
