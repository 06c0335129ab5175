package dev.rowflow.keying.layout;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** What each encoding answers about itself instead of being asked its token, and that the answers hold. */
class KeyEncodingsTest {
    private static final long HOST_ID = 42;
    private static final List<String> ASKED = new ArrayList<>();
    private static final UidResolver UIDS = new UidResolver() {
        @Override
        public long idOf(String kind, String name) {
            ASKED.add(kind + "/" + name);
            return HOST_ID;
        }

        @Override
        public Optional<String> nameOf(String kind, long id) {
            return Optional.empty();
        }
    };

    /** Every encoding with a value it takes. */
    static Stream<Arguments> encodings() {
        return Stream.of(
                Arguments.of(KeyEncodings.TEXT, "web-01"),
                Arguments.of(KeyEncodings.MD5, "web-01"),
                Arguments.of(KeyEncodings.uid("hostname", UIDS), "web-01"),
                Arguments.of(KeyEncodings.LONG, -42L),
                Arguments.of(KeyEncodings.TIMESTAMP, 1364248490000L),
                Arguments.of(KeyEncodings.REVERSE_TIMESTAMP, 1364248490000L),
                Arguments.of(KeyEncodings.DECIMAL, 1364248490L),
                Arguments.of(KeyEncodings.BYTE, 79L),
                Arguments.of(KeyEncodings.INT, 7L));
    }

    @Test
    void shouldAnswerWhatCallersUsedToReadOffTheToken() {
        Map<String, List<String>> expected = Map.of(
                "text", List.of("recoverable", "terminated"),
                "md5", List.of("evenlySpread"),
                "uid", List.of("needsUids"),
                "long", List.of("recoverable"),
                "ts", List.of("recoverable", "isTime"),
                "rts", List.of("recoverable", "isTime"),
                "dec", List.of("recoverable", "terminated"),
                "byte", List.of("recoverable"),
                "int", List.of("recoverable"));

        List<String> tokens = new ArrayList<>();
        encodings().forEach(arguments -> {
            KeyEncoding encoding = (KeyEncoding) arguments.get()[0];
            tokens.add(encoding.token());
            assertThat(capabilities(encoding)).as(encoding.token()).isEqualTo(expected.get(encoding.token()));
        });
        assertThat(tokens).containsExactlyInAnyOrderElementsOf(expected.keySet());
    }

    private static List<String> capabilities(KeyEncoding encoding) {
        List<String> yes = new ArrayList<>();
        if (encoding.recoverable()) {
            yes.add("recoverable");
        }
        if (encoding.needsUids()) {
            yes.add("needsUids");
        }
        if (encoding.isTime()) {
            yes.add("isTime");
        }
        if (encoding.terminated()) {
            yes.add("terminated");
        }
        if (encoding.evenlySpread()) {
            yes.add("evenlySpread");
        }
        return yes;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("encodings")
    void shouldDecodeToTheValueExactlyWhenRecoverable(KeyEncoding encoding, Object value) {
        byte[] bytes = encode(encoding, value, true);

        Object decoded = encoding.decode(bytes, 0, bytes.length, true);

        if (encoding.recoverable()) {
            assertThat(decoded).isEqualTo(value);
        } else {
            assertThat(decoded).isNotEqualTo(value);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("encodings")
    void shouldEndWithA0x00ExactlyWhenTerminatedAndNotLast(KeyEncoding encoding, Object value) {
        byte[] last = encode(encoding, value, true);
        byte[] notLast = encode(encoding, value, false);

        if (encoding.terminated()) {
            assertThat(notLast).isEqualTo(Arrays.copyOf(last, last.length + 1));
        } else {
            assertThat(notLast).isEqualTo(last);
        }
        assertThat(encoding.end(notLast, 0, false)).isEqualTo(notLast.length);
    }

    @Test
    void shouldAskTheResolverExactlyWhenItNeedsUids() {
        ASKED.clear();
        encodings().forEach(arguments -> encode((KeyEncoding) arguments.get()[0], arguments.get()[1], true));

        assertThat(ASKED).containsExactly("hostname/web-01");
        assertThat(encode(KeyEncodings.uid("hostname", UIDS), "web-01", true))
                .isEqualTo(new byte[] {0, 0, 0, 0, 0, 0, 0, (byte) HOST_ID});
    }

    @Test
    void shouldSpreadTheLeadingBytesOfSimilarValuesWhenEvenlySpread() {
        // 4096 host names that differ only at the end: their digests' first byte takes nearly all
        // 256 values, where the text's first byte takes one.
        boolean[] md5 = new boolean[256];
        boolean[] text = new boolean[256];
        for (int i = 0; i < 4096; i++) {
            md5[encode(KeyEncodings.MD5, "web-" + i, false)[0] & 0xFF] = true;
            text[encode(KeyEncodings.TEXT, "web-" + i, false)[0] & 0xFF] = true;
        }
        assertThat(count(md5)).isGreaterThan(250);
        assertThat(count(text)).isEqualTo(1);
        assertThat(KeyEncodings.MD5.evenlySpread()).isTrue();
        assertThat(KeyEncodings.TEXT.evenlySpread()).isFalse();
    }

    @Test
    void shouldHashAnyTextButKeepNulOutOfTextWhoseBytesAreTheKey() throws Exception {
        String withNul = "line one\u0000line two";
        byte[] digest = java.security.MessageDigest.getInstance("MD5")
                .digest(withNul.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(encode(KeyEncodings.MD5, withNul, false)).isEqualTo(digest);
        assertThat(encode(KeyEncodings.MD5, withNul, false)).isNotEqualTo(encode(KeyEncodings.MD5, "line one", false));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> encode(KeyEncodings.TEXT, withNul, true))
                .isInstanceOf(dev.rowflow.keying.InvalidEventException.class)
                .hasMessageContaining("must not contain the NUL character (it ends key parts)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> encode(KeyEncodings.MD5, "bad \uFFFD", true))
                .as("bytes that were not UTF-8 still merge into one digest: refused")
                .hasMessageContaining("U+FFFD");
    }

    private static int count(boolean[] seen) {
        int n = 0;
        for (boolean b : seen) {
            n += b ? 1 : 0;
        }
        return n;
    }

    private static byte[] encode(KeyEncoding encoding, Object value, boolean last) {
        byte[] bytes = new byte[encoding.encodedLength(value, last)];
        assertThat(encoding.encode(value, last, bytes, 0)).isEqualTo(bytes.length);
        return bytes;
    }
}
