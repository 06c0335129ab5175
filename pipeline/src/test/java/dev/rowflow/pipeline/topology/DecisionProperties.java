package dev.rowflow.pipeline.topology;

import com.fasterxml.jackson.databind.ObjectMapper;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mapping check} says of every generated record what the pipeline does with it
 * ({@link DecisionDifferential} over {@link MixedTopic}): records with every field of the two
 * inputs' keys, times, conditions and columns present or missing, null, of the wrong kind, empty,
 * huge, holding NUL or any unicode, {@code 200.0} for a long, nested deep; tombstones and bytes
 * that are no JSON object. 10,000 records per run; jqwik prints the seed of a failing run.
 */
class DecisionProperties {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Stands for a field the record does not have. */
    private static final Object MISSING = new Object();
    /** Stands for JSON null (jqwik draws no null). */
    private static final Object NULL = new Object();
    /** Stands for a tombstone, a record without a value. */
    private static final byte[] TOMBSTONE = new byte[0];
    private static DecisionDifferential both;

    @BeforeContainer
    static void open() {
        both = MixedTopic.open();
    }

    @AfterContainer
    static void close() {
        both.close();
    }

    @Property(tries = 10_000, shrinking = ShrinkingMode.OFF)
    void checkSaysWhatThePipelineDoes(@ForAll("records") byte[] drawn) {
        byte[] value = drawn == TOMBSTONE ? null : drawn;
        DecisionDifferential.Outcome[] outcomes = both.send(null, value, MixedTopic.T);
        assertThat(outcomes[1]).as("record %s", value == null ? "(tombstone)"
                : new String(value, StandardCharsets.UTF_8)).isEqualTo(outcomes[0]);
        Statistics.collect(outcomes[0].deadLetter() != null ? "set aside"
                : outcomes[0].effects().isEmpty() ? "nothing written" : "written");
        Statistics.coverage(coverage -> {
            coverage.check("set aside").percentage(p -> p > 10);
            coverage.check("written").percentage(p -> p > 10);
        });
    }

    @Provide
    Arbitrary<byte[]> records() {
        return Arbitraries.frequencyOf(
                Tuple.of(90, objects().map(DecisionProperties::json)),
                Tuple.of(4, Arbitraries.just(TOMBSTONE)),
                Tuple.of(3, Arbitraries.strings().ofMaxLength(30).map(s -> s.getBytes(StandardCharsets.UTF_8))),
                Tuple.of(3, Arbitraries.of("[1,2]", "\"text\"", "42", "null", "{\"a\":", "")
                        .map(s -> s.getBytes(StandardCharsets.UTF_8))));
    }

    private Arbitrary<Map<String, Object>> objects() {
        return Combinators.combine(List.of(time(), text(), offset(), kind(), text(), deleted(), text(), nesting()))
                .as(values -> {
                    Map<String, Object> record = new LinkedHashMap<>();
                    put(record, "@timestamp", values.get(0));
                    put(record, "host", values.get(1) == MISSING ? MISSING : object("name", values.get(1)));
                    put(record, "log", values.get(2) == MISSING ? MISSING : object("offset", values.get(2)));
                    put(record, "kind", values.get(3));
                    put(record, "user", values.get(4));
                    put(record, "deleted", values.get(5));
                    put(record, "message", values.get(6));
                    put(record, "d", values.get(7));
                    return record;
                });
    }

    private static Arbitrary<Object> time() {
        return Arbitraries.frequencyOf(
                Tuple.of(60, Arbitraries.longs().between(946_684_800_000L, 4_102_444_800_000L)
                        .map(ms -> (Object) java.time.Instant.ofEpochMilli(ms).toString())),
                Tuple.of(10, Arbitraries.longs().between(-1_000L, 4_102_444_800_000L).map(ms -> (Object) ms)),
                Tuple.of(15, Arbitraries.of(MISSING, NULL, "", "yesterday", 200.0, true, "2026-13-01T00:00:00Z")),
                Tuple.of(15, Arbitraries.strings().ofMaxLength(25).map(s -> (Object) s)));
    }

    /** Text of every kind, and everything a text field should not hold. */
    private static Arbitrary<Object> text() {
        return Arbitraries.frequencyOf(
                Tuple.of(80, Arbitraries.strings().alpha().numeric().withChars("-._").ofMinLength(1).ofMaxLength(20)
                        .map(s -> (Object) s)),
                Tuple.of(15, Arbitraries.strings().all().ofMaxLength(20).map(s -> (Object) s)),
                Tuple.of(5, Arbitraries.strings().withChars('x', '\u0000').ofMinLength(1).ofMaxLength(5)
                        .map(s -> (Object) s)),
                Tuple.of(3, Arbitraries.integers().between(MixedTopic.MAX_CELL - 64, MixedTopic.MAX_CELL * 2)
                        .map(n -> (Object) "y".repeat(n))),
                Tuple.of(12, Arbitraries.of(MISSING, NULL, "", " ")),
                Tuple.of(10, Arbitraries.longs().map(n -> (Object) n)),
                Tuple.of(5, Arbitraries.of(true, false, 2.5, 200.0, Map.of("a", 1), List.of("a", "b"), List.of())));
    }

    private static Arbitrary<Object> offset() {
        return Arbitraries.frequencyOf(
                Tuple.of(50, Arbitraries.longs().map(n -> (Object) n)),
                Tuple.of(20, Arbitraries.of(MISSING, NULL, 200.0, 2.5, -0.0, "200", "", 1e300, true,
                        new BigInteger("123456789012345678901234567890"), Map.of("n", 1))),
                Tuple.of(10, Arbitraries.doubles().map(d -> (Object) d)));
    }

    private static Arbitrary<Object> kind() {
        return Arbitraries.frequencyOf(
                Tuple.of(60, Arbitraries.of("event")),
                Tuple.of(15, Arbitraries.of("audit")),
                Tuple.of(15, Arbitraries.of("both")),
                Tuple.of(10, Arbitraries.of(MISSING, NULL, "EVENT", 42, "")));
    }

    private static Arbitrary<Object> deleted() {
        return Arbitraries.frequencyOf(
                Tuple.of(80, Arbitraries.of(MISSING)),
                Tuple.of(20, Arbitraries.of(true, false, "true", NULL, 1)));
    }

    /** A value nested 0 to 400 objects deep (what a record may hold is bounded). */
    private static Arbitrary<Object> nesting() {
        return Arbitraries.frequencyOf(
                Tuple.of(80, Arbitraries.of(MISSING)),
                Tuple.of(20, Arbitraries.integers().between(1, 400).map(depth -> {
                    Object value = "leaf";
                    for (int i = 0; i < depth; i++) {
                        value = object("x", value);
                    }
                    return value;
                })));
    }

    private static Map<String, Object> object(String name, Object value) {
        Map<String, Object> object = new LinkedHashMap<>();
        put(object, name, value);
        return object;
    }

    private static void put(Map<String, Object> record, String name, Object value) {
        if (value != MISSING) {
            record.put(name, value == NULL ? null : value);
        }
    }

    private static byte[] json(Map<String, Object> record) {
        try {
            return JSON.writeValueAsBytes(record);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
