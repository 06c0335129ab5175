package dev.rowflow.keying.layout;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core test of an encoding (as HBase's OrderedBytes tests do): sort values, sort their
 * encodings, decode -- same order; encodedLength equals the bytes written; decode(encode(x)) = x.
 */
class KeyOrderPropertyTest {
    private static final int SAMPLES = 2_000;

    static Stream<Arguments> orderedEncodings() {
        return Stream.of(
                Arguments.of(KeyEncodings.TEXT, (Generator) KeyOrderPropertyTest::text),
                Arguments.of(KeyEncodings.LONG, (Generator) r -> r.nextLong()),
                Arguments.of(KeyEncodings.TIMESTAMP, (Generator) r -> r.nextLong(0, Long.MAX_VALUE)),
                Arguments.of(KeyEncodings.REVERSE_TIMESTAMP, (Generator) r -> r.nextLong(0, Long.MAX_VALUE)),
                Arguments.of(KeyEncodings.BYTE, (Generator) r -> (long) r.nextInt(256)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("orderedEncodings")
    void shouldSortEncodingsAsTheValuesSort(KeyEncoding encoding, Generator generator) {
        SplittableRandom random = new SplittableRandom(encoding.token().hashCode());
        for (boolean last : new boolean[] {true, false}) {
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < SAMPLES; i++) {
                values.add(generator.next(random));
            }
            values.add(edge(encoding, true));
            values.add(edge(encoding, false));
            List<byte[]> encoded = new ArrayList<>();
            for (Object value : values) {
                byte[] bytes = new byte[encoding.encodedLength(value, last)];
                assertThat(encoding.encode(value, last, bytes, 0)).as("bytes written = encodedLength").isEqualTo(bytes.length);
                assertThat(encoding.end(bytes, 0, last)).isEqualTo(bytes.length);
                assertThat(encoding.decode(bytes, 0, bytes.length, last)).as("decode(encode(x))").isEqualTo(value);
                encoded.add(bytes);
            }
            encoded.sort(Arrays::compareUnsigned);
            List<Object> decodedInByteOrder = encoded.stream().map(b -> encoding.decode(b, 0, b.length, last)).toList();

            List<Object> sortedValues = new ArrayList<>(values);
            sortedValues.sort(valueOrder(encoding));
            assertThat(decodedInByteOrder).as("%s (last=%s)", encoding.token(), last).containsExactlyElementsOf(sortedValues);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("orderedEncodings")
    void shouldKeepTheOrderOfTheWholeKeyWhenThePartIsFollowedByAnother(KeyEncoding encoding, Generator generator) {
        // A terminated text part must not let the next part's bytes reorder two keys.
        RowKeyLayout layout = new RowKeyLayout(new Salt.None(),
                List.of(new KeyPart("a", encoding), new KeyPart("b", KeyEncodings.TEXT)));
        SplittableRandom random = new SplittableRandom(7);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < SAMPLES; i++) {
            rows.add(new Object[] {generator.next(random), text(random)});
        }
        Comparator<Object[]> byValues = Comparator.<Object[], Object>comparing(r -> r[0], valueOrder(encoding))
                .thenComparing(r -> (String) r[1], KeyOrderPropertyTest::compareCodePoints);
        List<byte[]> keys = new ArrayList<>(rows.stream().map(layout::encode).toList());
        keys.sort(Arrays::compareUnsigned);
        rows.sort(byValues);

        assertThat(keys.stream().map(k -> layout.decode(k).fields().values().toArray()).toList())
                .usingElementComparator((x, y) -> Arrays.equals(x, y) ? 0 : 1)
                .containsExactlyElementsOf(rows);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Comparator<Object> valueOrder(KeyEncoding encoding) {
        Comparator<Object> natural = encoding.textual()
                ? (a, b) -> compareCodePoints((String) a, (String) b)
                : (a, b) -> ((Comparable) a).compareTo(b);
        return encoding.order() < 0 ? natural.reversed() : natural;
    }

    /** UTF-8 byte order is code point order, which differs from String.compareTo above U+FFFF. */
    private static int compareCodePoints(String a, String b) {
        return Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
    }

    private static Object edge(KeyEncoding encoding, boolean low) {
        return switch (encoding.token()) {
            case "text" -> low ? "\u0001" : "\uDBFF\uDFFF";
            case "long" -> low ? Long.MIN_VALUE : Long.MAX_VALUE;
            case "byte" -> low ? 0L : 255L;
            default -> low ? 0L : Long.MAX_VALUE;
        };
    }

    /** Short texts over a small alphabet, so prefixes and ties are common, plus multi-byte chars. */
    private static String text(SplittableRandom random) {
        String alphabet = "ab.-\u0001\u007f\u00e9\u20ac\ud83d\ude00";
        StringBuilder sb = new StringBuilder();
        int length = 1 + random.nextInt(6);
        while (sb.length() < length) {
            int i = random.nextInt(alphabet.length() - 1);
            if (Character.isHighSurrogate(alphabet.charAt(i))) {
                sb.append(alphabet, i, i + 2);
            } else if (!Character.isLowSurrogate(alphabet.charAt(i))) {
                sb.append(alphabet.charAt(i));
            }
        }
        return sb.toString();
    }

    @FunctionalInterface
    interface Generator {
        Object next(SplittableRandom random);
    }
}
