package dev.rowflow.keying.mapping;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FieldPathTest {

    /** An object of a record tree from key/value pairs, in order. */
    private static Map<String, Object> obj(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    private static Object resolve(String path, Map<String, Object> record) {
        return FieldPath.parse(path).resolve(record);
    }

    // ---------------------------------------------------------------- resolving

    @Test
    void shouldTakeTheFirstFallbackThatHasAValue() {
        // Logstash before and after its ECS upgrade: host a string, then host.name.
        Map<String, Object> before = obj("host", "web-01");
        Map<String, Object> after = obj("host", obj("name", "web-02", "hostname", "web-02"));
        Map<String, Object> nullName = obj("host", obj("name", RecordTree.NULL), "hostname", "web-03");
        FieldPath host = FieldPath.parse("host.name | host");

        assertThat(host.resolve(after)).isEqualTo("web-02");
        assertThat(host.resolve(before)).isEqualTo("web-01");
        assertThat(resolve("host.name|hostname", nullName)).isEqualTo("web-03");
        assertThat(resolve("host.name | nothing", nullName)).as("none has a value, one is null").isSameAs(RecordTree.NULL);
        assertThat(resolve("nothing | nowhere", before)).isNull();
        assertThat(host.text()).isEqualTo("host.name | host");
        assertThat(host.alternatives()).containsExactly(FieldPath.parse("host.name"), FieldPath.parse("host"));
        assertThat(host).isEqualTo(FieldPath.parse("host.name|host")).isNotEqualTo(FieldPath.parse("host | host.name"))
                .isNotEqualTo(FieldPath.parse("host.name"));
        assertThat(resolve("\"a|b\" | c", obj("a|b", "quoted"))).as("a '|' inside quotes is the name's")
                .isEqualTo("quoted");
        assertThatThrownBy(() -> FieldPath.parse("host.name | "))
                .hasMessage("field path 'host.name | ': fallback 2 is empty (expected 'path | path')");
        assertThatThrownBy(() -> FieldPath.parse("host | host"))
                .hasMessage("field path 'host | host': host is a fallback twice");
    }

    @Test
    void shouldResolveNestedNames() {
        Map<String, Object> record = obj("host", obj("name", "a", "ip", List.of("10.0.0.1")));

        assertThat(resolve("host.name", record)).isEqualTo("a");
        assertThat(resolve("host", record)).isEqualTo(obj("name", "a", "ip", List.of("10.0.0.1")));
    }

    @Test
    void shouldResolveNamesWithSigilsAndDashes() {
        Map<String, Object> record = obj("@timestamp", "2026-11-22T08:00:00.123Z", "log-file", "/x", "$id", 7L);

        assertThat(resolve("@timestamp", record)).isEqualTo("2026-11-22T08:00:00.123Z");
        assertThat(resolve("log-file", record)).isEqualTo("/x");
        assertThat(resolve("$id", record)).isEqualTo(7L);
    }

    @Test
    void shouldYieldNullForMissingKeys() {
        Map<String, Object> record = obj("host", obj("name", "a"));

        assertThat(resolve("hostname", record)).isNull();
        assertThat(resolve("host.ip", record)).isNull();
    }

    @Test
    void shouldYieldRecordTreeNullForJsonNull() {
        Map<String, Object> record = obj("host", obj("name", RecordTree.NULL));

        assertThat(resolve("host.name", record)).isSameAs(RecordTree.NULL);
    }

    @Test
    void shouldFindLiteralDottedKeyWhenNoNestedPath() {
        assertThat(resolve("log.level", obj("log.level", "warn"))).isEqualTo("warn");
    }

    @Test
    void shouldPreferNestedPathOverDottedKey() {
        Map<String, Object> both = obj("log.level", "dotted", "log", obj("level", "nested"));

        assertThat(resolve("log.level", both)).isEqualTo("nested");
    }

    @Test
    void shouldFallBackToDottedKeyWhenNestedObjectLacksTheName() {
        Map<String, Object> record = obj("log", obj("file", obj()), "log.level", "warn");

        assertThat(resolve("log.level", record)).isEqualTo("warn");
    }

    @Test
    void shouldFindDottedKeyInsideNestedObject() {
        assertThat(resolve("log.file.path", obj("log", obj("file.path", "/x")))).isEqualTo("/x");
    }

    @Test
    void shouldFindDottedKeyWithNestedRest() {
        assertThat(resolve("log.file.path", obj("log.file", obj("path", "/y")))).isEqualTo("/y");
        assertThat(resolve("log.file.path", obj("log.file.path", "/z"))).isEqualTo("/z");
    }

    @Test
    void shouldResolveArrayElements() {
        Map<String, Object> record = obj(
                "tags", List.of("web", "prod"),
                "a", List.of(obj("b", 1L), obj("b", 2L)));

        assertThat(resolve("tags[0]", record)).isEqualTo("web");
        assertThat(resolve("tags[1]", record)).isEqualTo("prod");
        assertThat(resolve("a[1].b", record)).isEqualTo(2L);
        assertThat(resolve("a[0].b", record)).isEqualTo(1L);
    }

    @Test
    void shouldResolveNestedArrays() {
        Map<String, Object> record = obj("m", List.of(List.of(1L, 2L), List.of(3L)));

        assertThat(resolve("m[0][1]", record)).isEqualTo(2L);
        assertThat(resolve("m[1][0]", record)).isEqualTo(3L);
    }

    @Test
    void shouldYieldNullForIndexPastTheEnd() {
        Map<String, Object> record = obj("tags", List.of("web", "prod"), "empty", List.of());

        assertThat(resolve("tags[2]", record)).isNull();
        assertThat(resolve("empty[0]", record)).isNull();
    }

    @Test
    void shouldYieldNullForPathThroughScalar() {
        Map<String, Object> record = obj("host", obj("name", "a"), "n", 5L);

        assertThat(resolve("host.name.first", record)).isNull();
        assertThat(resolve("n.x", record)).isNull();
        assertThat(resolve("n[0]", record)).isNull();
        assertThat(resolve("host.name[0]", record)).isNull();
    }

    @Test
    void shouldYieldNullForNameOnArrayAndIndexOnObject() {
        Map<String, Object> record = obj("tags", List.of("web"), "host", obj("0", "zero"));

        assertThat(resolve("tags.x", record)).isNull();
        assertThat(resolve("host[0]", record)).isNull();
    }

    @Test
    void shouldResolveQuotedNameAsOneStep() {
        Map<String, Object> record = obj("labels", obj("app.kubernetes.io/name", "api"));

        assertThat(resolve("labels.\"app.kubernetes.io/name\"", record)).isEqualTo("api");
    }

    @Test
    void shouldNotSplitQuotedNameIntoNestedPath() {
        // A quoted name is one key: it never matches the nested form of its dots.
        assertThat(resolve("\"a.b\"", obj("a", obj("b", 1L)))).isNull();
        assertThat(resolve("\"a.b\"", obj("a.b", 2L))).isEqualTo(2L);
    }

    @Test
    void shouldResolveQuotedNamesWithEscapes() {
        Map<String, Object> record = obj("a\"b", 1L, "c\\d", 2L, "with space: x", 3L);

        assertThat(resolve("\"a\\\"b\"", record)).isEqualTo(1L);
        assertThat(resolve("\"c\\\\d\"", record)).isEqualTo(2L);
        assertThat(resolve("\"with space: x\"", record)).isEqualTo(3L);
    }

    // ---------------------------------------------------------------- steps, covers, identity

    @Test
    void shouldExposeSteps() {
        assertThat(FieldPath.parse("host.name").steps()).containsExactly("host", "name");
        assertThat(FieldPath.parse("@timestamp").steps()).containsExactly("@timestamp");
        assertThat(FieldPath.parse("a[1].b").steps()).containsExactly("a", 1, "b");
        assertThat(FieldPath.parse("m[0][12]").steps()).containsExactly("m", 0, 12);
        assertThat(FieldPath.parse("kubernetes.labels.\"app.kubernetes.io/name\"").steps())
                .containsExactly("kubernetes", "labels", "app.kubernetes.io/name");
        assertThat(FieldPath.parse("\"a\\\"b\"").steps()).containsExactly("a\"b");
        assertThat(FieldPath.parse("\"c\\\\d\"").steps()).containsExactly("c\\d");
        // Only \" and \\ are escapes; any other backslash is kept.
        assertThat(FieldPath.parse("\"c\\d\"").steps()).containsExactly("c\\d");
    }

    @Test
    void shouldKeepTextAsWritten() {
        FieldPath path = FieldPath.parse("\"host\".name");

        assertThat(path.text()).isEqualTo("\"host\".name");
        assertThat(path).hasToString("\"host\".name");
    }

    @Test
    void shouldBeEqualByStepsNotText() {
        assertThat(FieldPath.parse("\"host\".name")).isEqualTo(FieldPath.parse("host.name"))
                .hasSameHashCodeAs(FieldPath.parse("host.name"));
        assertThat(FieldPath.parse("\"host.name\"")).isNotEqualTo(FieldPath.parse("host.name"));
    }

    @Test
    void shouldCoverItselfAndPathsUnderIt() {
        FieldPath host = FieldPath.parse("host");

        assertThat(host.covers(FieldPath.parse("host"))).isTrue();
        assertThat(host.covers(FieldPath.parse("host.name"))).isTrue();
        assertThat(host.covers(FieldPath.parse("host[0].name"))).isTrue();
        assertThat(FieldPath.parse("tags[0]").covers(FieldPath.parse("tags[0].x"))).isTrue();
    }

    @Test
    void shouldNotCoverParentsSiblingsOrPrefixesOfNames() {
        assertThat(FieldPath.parse("host.name").covers(FieldPath.parse("host"))).isFalse();
        assertThat(FieldPath.parse("host").covers(FieldPath.parse("hostname"))).isFalse();
        assertThat(FieldPath.parse("host.name").covers(FieldPath.parse("host.ip"))).isFalse();
        assertThat(FieldPath.parse("tags[0]").covers(FieldPath.parse("tags[1]"))).isFalse();
        assertThat(FieldPath.parse("\"a.b\"").covers(FieldPath.parse("a.b.c"))).isFalse();
    }

    // ---------------------------------------------------------------- parse errors

    @Test
    void shouldRejectEmptyPath() {
        assertThatThrownBy(() -> FieldPath.parse(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a field path must not be empty");
        assertThatThrownBy(() -> FieldPath.parse(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a field path must not be empty");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "a.        | 2 | a name after the last '.'",
            ".a        | 0 | a name or a quoted \"name\"",
            "a..b      | 2 | a name or a quoted \"name\"",
            "[0]       | 0 | a name or a quoted \"name\"",
            "a.[0]     | 2 | a name or a quoted \"name\"",
            "a[        | 1 | an index such as [0] closed by ']'",
            "a[x]      | 2 | an array index (0, 1, 2...) or *",
            "a[01]     | 2 | an array index (0, 1, 2...) or *",
            "a[-1]     | 2 | an array index (0, 1, 2...) or *",
            "a[]       | 2 | an array index (0, 1, 2...) or *",
            "a[1]b     | 4 | '.' or '[' after a step",
            "`a b`     | 1 | '.' or '[' after a step",
            "a:b       | 1 | '.' or '[' after a step",
            "\"abc     | 4 | a closing '\"'",
            "a.\"b\\\" | 6 | a closing '\"'",
            "\"\"      | 0 | a name (\"\" is empty)",
    })
    void shouldRejectMalformedPathNamingPathAndOffset(String path, int offset, String expected) {
        assertThatThrownBy(() -> FieldPath.parse(path))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("field path '" + path + "': expected " + expected + " at offset " + offset);
    }
}
