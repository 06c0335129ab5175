package dev.rowflow.keying.expression;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.RecordSource;
import dev.rowflow.keying.mapping.RecordTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExpressionTest {
    private static final Map<String, Object> RECORD = RecordTree.parseJson(("""
            {"host": {"name": "Web-01.Example.COM "}, "path": "/var/log/nginx/access.log",
             "status": 503, "size": "1234", "ratio": 0.25, "ok": false, "nothing": null,
             "event": {"dataset": "nginx.access"}, "tags": ["a", "b"], "it's": "quoted",
             "msg": "GET /api/v2/orders?id=17 HTTP/1.1"}
            """).getBytes(StandardCharsets.UTF_8));
    private static final RecordSource SOURCE = new RecordSource("logs", 3, 42L, 1_700_000_000_000L,
            "{\"id\": 7, \"region\": \"eu\"}".getBytes(StandardCharsets.UTF_8),
            name -> name.equals("trace-id") ? "abc123".getBytes(StandardCharsets.UTF_8) : null);

    private static Object eval(String expression) {
        return Expression.parse(expression).evaluate(RECORD, SOURCE);
    }

    private static boolean test(String condition) {
        return Expression.parseCondition(condition).test(RECORD, SOURCE);
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '`', value = {
            "lower(host.name); `web-01.example.com `",
            "upper(event.dataset); NGINX.ACCESS",
            "trim(host.name); Web-01.Example.COM",
            "lower(trim(host.name)); web-01.example.com",
            "concat(event.dataset, '/', text(status)); nginx.access/503",
            "substring(path, 9); nginx/access.log",
            "substring(path, 9, 5); nginx",
            "replace(event.dataset, '.', '_'); nginx_access",
            "regexp_extract(msg, '^(\\S+) (\\S+)', 2); /api/v2/orders?id=17",
            "regexp_extract(msg, 'id=([0-9]+)'); 17",
            "regexp_extract(msg, 'HTTP/[0-9.]+'); HTTP/1.1",
            "split(path, '/')[3]; nginx",
            "split(event.dataset, '.')[1]; access",
            "text(status); 503",
            "text(ratio); 0.25",
            "text(ok); false",
            "md5('abc'); 900150983cd24fb0d6963f7d28e17f72",
            "convert(1709208000000000, 'timestamp-micros'); 2024-02-29T12:00:00.000000Z",
            "convert('2024-02-29T13:00:00+01:00', 'timestamp-zoned'); 2024-02-29T12:00:00.000000000Z",
            "convert(19782, 'date'); 2024-02-29",
            "text(convert(ratio, 'decimal(4,3)')); 0.250",
            "sha256('abc'); ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "'it''s'; it's",
            "\"it's\"; quoted",
            "missing | event.dataset; nginx.access",
            "lower(missing) | upper(event.dataset); NGINX.ACCESS",
            "coalesce(nothing, missing, 'fallback'); fallback",
            "$topic; logs",
            "$header.trace-id; abc123",
            "$key.region; eu",
    })
    void shouldEvaluateTextFunctions(String expression, String expected) {
        assertThat(eval(expression)).isEqualTo(expected);
    }

    @Test
    void shouldReadAChangeEventsOperationImagesAndSource() {
        RecordSource change = new RecordSource("orders", 0, 5L, 1_700_000_000_000L, null, name -> null)
                .withChange("u", Map.of("status", "new", "customer_id", 5L), Map.of("status", "shipped"),
                        Map.of("lsn", 24023128L, "ts_ms", 1_795_334_400_200L));

        assertThat(Expression.parse("$op").evaluate(Map.of(), change)).isEqualTo("u");
        assertThat(Expression.parse("$before.status").evaluate(Map.of(), change)).isEqualTo("new");
        assertThat(Expression.parse("$after.status").evaluate(Map.of(), change)).isEqualTo("shipped");
        assertThat(Expression.parse("$source.lsn").evaluate(Map.of(), change)).isEqualTo(24023128L);
        assertThat(Expression.parseCondition("$before.customer_id != customer_id").test(Map.of("customer_id", 6L),
                change)).isTrue();
        // Not a change event: nothing there.
        assertThat(Expression.parse("$op").evaluate(Map.of(), SOURCE)).isNull();
        assertThat(Expression.parse("$before.status | 'none'").evaluate(Map.of(), SOURCE)).isEqualTo("none");
        assertThatThrownBy(() -> Expression.parse("$op.code")).hasMessageContaining("$op has no fields ('$op.code')");
        assertThat(Expression.parseCondition("$key.id > 3 and lower($after.status) = 'x'").changeSource()).contains("$after");
        assertThat(Expression.parse("coalesce($key.id, id)").changeSource()).isEmpty();
    }

    @Test
    void shouldNameThePathsItReadsEveryFallbacksToo() {
        assertThat(Expression.parse("lower(host.name | host) ").paths()).extracting(FieldPath::text)
                .containsExactly("host.name", "host");
        assertThat(Expression.parseCondition("status >= 500 and not exists(a.b) or tags[0] in ('x') or m matches 'y'")
                .paths()).extracting(FieldPath::text).containsExactly("status", "a.b", "tags[0]", "m");
        assertThat(Expression.parse("coalesce(event.dataset, 'generic')").paths()).extracting(FieldPath::text)
                .containsExactly("event.dataset");
        assertThat(Expression.parse("split($key.id, '-')[1]").paths()).isEmpty();
    }

    @Test
    void shouldConvertNumbersExplicitly() {
        assertThat(eval("long(size)")).isEqualTo(1234L);
        assertThat(eval("long(status)")).isEqualTo(503L);
        assertThat(eval("number(size)")).isEqualTo(1234L);
        assertThat(eval("number('4.50')")).isEqualTo(new BigDecimal("4.50"));
        assertThat(eval("long(' 12 ')")).isEqualTo(12L);
        assertThat(eval("substring(path, 100)")).isEqualTo("");
        assertThat(eval("$partition")).isEqualTo(3L);
        assertThat(eval("$offset")).isEqualTo(42L);
        assertThat(eval("$timestamp")).isEqualTo(1_700_000_000_000L);
        assertThat(eval("$key.id")).isEqualTo(7L);
    }

    @Test
    void shouldReadNothingOfAMissingKeyOrHeader() {
        assertThat(Expression.parse("$key").evaluate(RECORD, RecordSource.ofTimestamp(0))).isNull();
        assertThat(Expression.parse("$header.nope").evaluate(RECORD, SOURCE)).isNull();
    }

    @Test
    void shouldLetAbsentAndNullFlowThroughFunctionsAsAbsent() {
        for (String expression : List.of("lower(missing)", "lower(nothing)", "concat(event.dataset, missing)",
                "split(path, '/')[99]", "regexp_extract(msg, 'nomatch(x)')", "long(missing)", "md5(nothing)",
                "$key.nope", "tags[5]")) {
            assertThat(eval(expression)).as(expression).isNull();
        }
        assertThat(eval("nothing")).isSameAs(RecordTree.NULL);
        assertThat(eval("missing | nothing")).isSameAs(RecordTree.NULL);
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '`', value = {
            "status = 503; true",
            "status = 503.0; true",
            "status != 503; false",
            "status >= 500 and status < 600; true",
            "status > 503; false",
            "status <= 503; true",
            "ratio < 0.5; true",
            "event.dataset = 'nginx.access'; true",
            "event.dataset != 'nginx.error'; true",
            "size = 1234; false",
            "long(size) = 1234; true",
            "missing = 'x'; false",
            "missing != 'x'; true",
            "missing < 5; false",
            "nothing = nothing; false",
            "status in (200, 503); true",
            "status not in (200, 503); false",
            "event.dataset in ('nginx.access', 'nginx.error'); true",
            "missing in ('x'); false",
            "exists(event.dataset); true",
            "exists(nothing); false",
            "exists(missing); false",
            "not exists(missing); true",
            "msg matches '^GET '; true",
            "msg matches 'orders\\?id=[0-9]+'; true",
            "missing matches 'x'; false",
            "path matches '^/tmp'; false",
            "ok = false; true",
            "not ok; true",
            "ok or status = 503; true",
            "(ok or status = 200) and exists(host); false",
            "not (status = 200 or status = 404); true",
            "lower(host.name) matches 'example.com'; true",
            "$topic = 'logs' and $partition = 3; true",
            "$header.trace-id = 'abc123'; true",
            "$key.id >= 7; true",
            "event.dataset > 'nginx'; true",
    })
    void shouldTestConditions(String condition, boolean expected) {
        assertThat(test(condition)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '`', value = {
            "lower(status); lower(status) '503': is a whole number, where lower takes text",
            "long(path); long(path) '/var/log/nginx/access.log': is text that is not a whole number of 64 bits",
            "long(ratio); long(ratio) '0.25'",
            "number(path); is text that is not a number",
            "md5(status); where md5 takes text",
            "concat(path, status); where concat takes text",
    })
    void shouldSetARecordAsideForAValueOfTheWrongKind(String expression, String reason) {
        assertThatThrownBy(() -> eval(expression)).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining(reason);
    }

    @Test
    void shouldSetARecordAsideForAnOrderAcrossKinds() {
        assertThatThrownBy(() -> test("size > 100")).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("compares text with a whole number");
        assertThatThrownBy(() -> test("status matches '5'")).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("where matches takes text");
        assertThatThrownBy(() -> test("path and ok")).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("where and takes a condition");
        assertThatThrownBy(() -> Expression.parseCondition("path").test(RECORD, SOURCE))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("where a condition");
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '`', value = {
            "lower(host; expected ')' at offset 10",
            "lowr(host); unknown function 'lowr' at offset 0 (functions: lower, upper, trim, concat",
            "lower(5); argument 1 of lower is a whole number, where text is expected (convert with text(...))",
            "lower(); lower takes 1 argument, got 0",
            "substring(a); substring takes 2 or 3 arguments, got 1",
            "substring(a, 'x'); argument 2 of substring is text, where a whole number is expected",
            "replace(a, 'b'); replace takes 3 arguments, got 2",
            "regexp_extract(a, b); the regular expression of regexp_extract must be a 'literal'",
            "regexp_extract(a, '(x'); is not a regular expression",
            "regexp_extract(a, '(x)', 2); group 2 is not in '(x)', which has 1 group(s)",
            "split(a, b)[0]; the separator of split must be a 'literal'",
            "convert(a, b); the type of convert must be a 'literal', one of date, time-millis",
            "convert(a, 'timestamp'); 'timestamp' is not a type: the types are date,",
            "lower(a)[0]; only split(...) gives a list",
            "a matches b; expected a 'regular expression' in quotes after matches",
            "a matches '[z'; is not a regular expression",
            "'a' < 5; compares text with a whole number",
            "lower(a) = 5; compares text with a whole number",
            "a in (b); expected a literal",
            "exists(lower(a)); exists takes a path or a source",
            "lower(a) and b; and takes conditions, and lower(a) is text",
            "'unclosed; expected a closing ' for the text that starts here at offset 0",
            "a = ; expected a value at offset 3 (the end)",
            "a b; expected an operator or the end at offset 2",
            "$nope; unknown source '$nope'",
            "$topic.x; $topic has no fields",
            "$header; $header needs a name",
            "12ab; is not a number",
            "99999999999999999999; is beyond 64 bits",
            "not; expected a value",
            "true < false; orders numbers or text, not a condition",
    })
    void shouldRefuseAtStartNamingTheExpression(String expression, String message) {
        assertThatThrownBy(() -> Expression.parse(expression)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("expression '" + expression.strip() + "': ")
                .hasMessageContaining(message);
    }

    @Test
    void shouldRefuseAValueWhereAConditionIsExpected() {
        assertThatThrownBy(() -> Expression.parseCondition("lower(host.name)"))
                .hasMessageContaining("is text, where a condition is expected");
        assertThat(Expression.parseCondition("ok").kind()).isEqualTo(Expression.Kind.ANY);
    }

    @Test
    void shouldCompilePathsAloneToTheFieldPath() {
        assertThat(Expression.parse("host.name").path()).contains(FieldPath.parse("host.name"));
        assertThat(Expression.parse("host.name | host").path()).contains(FieldPath.parse("host.name | host"));
        assertThat(Expression.parse("lower(host)").path()).isEmpty();
        assertThat(Expression.parse("$topic").path()).isEmpty();
        assertThat(Expression.parse("$topic").readsValueOnly()).isFalse();
        assertThat(Expression.parse("lower(host)").readsValueOnly()).isTrue();
    }

    @Test
    void shouldBeEqualWhateverTheSpacing() {
        assertThat(Expression.parse("concat(a, '-', b)")).isEqualTo(Expression.parse("concat(a,'-',b)"));
        assertThat(Expression.parse("regexp_extract(a, '(x)')")).isEqualTo(Expression.parse("regexp_extract(a,'(x)')"));
        assertThat(Expression.parse("a = 1 and b matches 'x'")).isEqualTo(Expression.parse("a=1 and b matches 'x'"));
        assertThat(Expression.parse("lower(a)")).isNotEqualTo(Expression.parse("upper(a)"));
    }

    @Test
    void shouldSayWhichPathsAFormatCannotYield() {
        java.util.function.Function<FieldPath, Optional<String>> onlyHost =
                path -> path.text().startsWith("host") ? Optional.empty() : Optional.of("no field " + path);
        assertThat(Expression.parse("lower(host)").cannotYield(onlyHost)).isEmpty();
        assertThat(Expression.parse("lower(x) | host").cannotYield(onlyHost)).isEmpty();
        assertThat(Expression.parse("concat(host, x)").cannotYield(onlyHost)).contains("no field x");
        assertThat(Expression.parse("x = 1 or host = 'a'").cannotYield(onlyHost)).contains("no field x");
        assertThat(Expression.parse("$key.x").cannotYield(onlyHost)).isEmpty();
    }
}
