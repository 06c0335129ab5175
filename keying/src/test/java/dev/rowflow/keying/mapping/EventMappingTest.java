package dev.rowflow.keying.mapping;

import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Counter;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;
import org.junit.jupiter.api.Test;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventMappingTest {
    private static final TableRole DATA = TableRole.of("web.data");
    private static final TableRole BY_HOST = TableRole.of("web.index.by_host");
    private static final TableRole SUMMARY = TableRole.of("web.summary");
    private static final TimeFormat ISO = TimeFormat.parse("iso8601", ZoneOffset.UTC);
    private static final Function<FieldPath, Optional<String>> ANY = path -> Optional.empty();
    private static final byte[] D = bytes("d");

    /** 2026-11-22T08:00:00.123Z. */
    private static final long T = 1795334400123L;
    private static final String DATA_LAYOUT = "bucket(8) | @timestamp:ts, host.name:text";
    private static final String INDEX_LAYOUT = "host.name:text, @timestamp:rts";
    private static final String EVENT = """
            {"@timestamp":"2026-11-22T08:00:00.123Z","host":{"name":"web-01"},"log.level":"warn",
             "message":"disk full","labels":{"app":"shop","team":"ops"},"status":200}
            """;

    /** A mapping spec with defaults, each changed by a wither. */
    private record Spec(String keyLayout, String columns, boolean recordTime, long bucket,
                        List<MappingSpec.IndexSpec> indexes, MappingSpec.SummarySpec summary, int maxCellBytes) {
        static Spec of(String keyLayout, String columns) {
            return new Spec(keyLayout, columns, false, 0, List.of(), null, 0);
        }

        Spec usingRecordTime() {
            return new Spec(keyLayout, columns, true, bucket, indexes, summary, maxCellBytes);
        }

        Spec bucket(long millis) {
            return new Spec(keyLayout, columns, recordTime, millis, indexes, summary, maxCellBytes);
        }

        Spec index(String layout) {
            return new Spec(keyLayout, columns, recordTime, bucket,
                    List.of(new MappingSpec.IndexSpec("by_host", BY_HOST, layout)), summary, maxCellBytes);
        }

        /** An index that sets aside records without a value for one of its parts. */
        Spec strictIndex(String layout) {
            return new Spec(keyLayout, columns, recordTime, bucket,
                    List.of(new MappingSpec.IndexSpec("by_host", BY_HOST, layout, false)), summary, maxCellBytes);
        }

        Spec summary(String layout, long periodMillis) {
            return new Spec(keyLayout, columns, recordTime, bucket, indexes,
                    new MappingSpec.SummarySpec(SUMMARY, layout, periodMillis), maxCellBytes);
        }

        Spec maxCellBytes(int max) {
            return new Spec(keyLayout, columns, recordTime, bucket, indexes, summary, max);
        }

        MappingSpec build() {
            return new MappingSpec(DATA, "d", keyLayout, ColumnSpec.parseList(columns), "@timestamp", ISO, recordTime,
                    bucket, indexes, summary, maxCellBytes);
        }

        EventMapping compile() {
            return EventMapping.compile(build(), (UidResolver) null, ANY);
        }
    }

    private static Map<String, Object> json(String json) {
        return RecordTree.parseJson(json.getBytes(UTF_8));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    private static Cell cell(String qualifier, String value) {
        return new Cell(D, bytes(qualifier), bytes(value));
    }

    private static byte[] key(String layout, Object... values) {
        return RowKeyLayout.parse(layout, null).encode(values);
    }

    private static List<Row> rowsOf(EventMapping mapping, String json) {
        Map<String, Object> record = json(json);
        return mapping.rowsOf(record, () -> bytes(json), mapping.eventTime(record, 0));
    }

    private static void assertInvalid(EventMapping mapping, String json, String field, String message) {
        assertThatThrownBy(() -> rowsOf(mapping, json))
                .isInstanceOf(InvalidEventException.class)
                .hasMessage(message)
                .satisfies(e -> assertThat(((InvalidEventException) e).field()).isEqualTo(field));
    }

    private static void assertRefused(Spec spec, String message) {
        assertRefused(spec, ANY, message);
    }

    private static void assertRefused(Spec spec, Function<FieldPath, Optional<String>> yield, String message) {
        assertThatThrownBy(() -> EventMapping.compile(spec.build(), (UidResolver) null, yield))
                .isExactlyInstanceOf(MappingException.class)
                .hasMessage(message);
    }

    private static MappingException refusal(Spec spec) {
        try {
            spec.compile();
        } catch (MappingException e) {
            return e;
        }
        throw new AssertionError("compiled: " + spec.build());
    }

    // ---------------------------------------------------------------- rows

    @Test
    void shouldWriteADataRowAndAnIndexRowPointingToIt() {
        EventMapping mapping = Spec.of(DATA_LAYOUT, "message=m, host.name=host").index(INDEX_LAYOUT).compile();

        List<Row> rows = rowsOf(mapping, EVENT);

        byte[] dataKey = key(DATA_LAYOUT, T, "web-01");
        assertThat(rows).containsExactly(
                new Row(DATA, dataKey, T, List.of(cell("m", "disk full"), cell("host", "web-01"))),
                new Row(BY_HOST, key(INDEX_LAYOUT, "web-01", T), T,
                        List.of(new Cell(bytes("i"), bytes("r"), dataKey))));
        assertThat(rows).extracting(Row::timestamp).containsExactly(T, T);
        assertThat(mapping.tableLayouts().keySet()).containsExactly(DATA, BY_HOST);
        assertThat(mapping.indexTables()).containsExactly(BY_HOST);
        assertThat(mapping.familyOf(DATA)).isEqualTo(D);
        assertThat(mapping.familyOf(BY_HOST)).isEqualTo(bytes("i"));
    }

    @Test
    void shouldWriteTheDataRowAndNoIndexRowWhenAnIndexPartHasNoValue() {
        // Filebeat: event.dataset only on module events; plain lines have none.
        String index = "event.dataset:text, @timestamp:rts";
        EventMapping sparse = Spec.of(DATA_LAYOUT, "message=m, event.dataset=ds").index(index).compile();
        String plain = EVENT;
        String module = EVENT.replace("\"status\":200", "\"status\":200,\"event\":{\"dataset\":\"nginx.access\"}");
        String nullDataset = EVENT.replace("\"status\":200", "\"status\":200,\"event\":{\"dataset\":null}");

        assertThat(rowsOf(sparse, plain)).extracting(Row::table).containsExactly(DATA);
        assertThat(rowsOf(sparse, nullDataset)).extracting(Row::table).containsExactly(DATA);
        assertThat(rowsOf(sparse, module)).extracting(Row::table).containsExactly(DATA, BY_HOST);
        assertThat(sparse.indexRowsSkipped("by_host")).isEqualTo(2);
        // A value that is there but cannot be a key part is still the record's fault.
        assertInvalid(sparse, EVENT.replace("\"status\":200", "\"status\":200,\"event\":{\"dataset\":\"\"}"),
                "event.dataset", "invalid event.dataset '': must not be empty");
        // The data key stays strict, and an index may be too.
        assertInvalid(Spec.of(DATA_LAYOUT, "message=m, event.dataset=ds").strictIndex(index).compile(), plain,
                "event.dataset", "invalid event.dataset null: is missing: it is part of the row key");
        assertThat(Spec.of(DATA_LAYOUT, "message=m, event.dataset=ds").strictIndex(index).compile()
                .indexRowsSkipped("by_host")).isZero();
    }

    @Test
    void shouldKeyAndStoreTheFirstFallbackThatHasAValue() {
        // Logstash across its 7 -> 8 upgrade: host a string before, host.name after.
        String layout = "bucket(8) | @timestamp:ts, host.name | host:text";
        EventMapping mapping = Spec.of(layout, "message=m, host.name | host").index("host.name | host:text, "
                + "@timestamp:rts").compile();
        String before = EVENT.replace("\"host\":{\"name\":\"web-01\"}", "\"host\":\"web-01\"");

        List<Row> ecs = rowsOf(mapping, EVENT);
        List<Row> legacy = rowsOf(mapping, before);

        assertThat(legacy).isEqualTo(ecs);
        assertThat(ecs.get(0).cells()).containsExactly(cell("m", "disk full"), cell("host.name", "web-01"));
        assertThat(ecs.get(0).key()).isEqualTo(key(layout, T, "web-01"));
        assertInvalid(mapping, EVENT.replace("\"host\":{\"name\":\"web-01\"}", "\"hostname\":\"web-01\""),
                "host.name | host", "invalid host.name | host null: is missing: it is part of the row key");
    }

    @Test
    void shouldTakeTheFirstFallbackOfTheTypeATypedColumnOrKeyPartWants() {
        // host first: a string before the upgrade, an object after it, where host.name has the text.
        String layout = "@timestamp:ts, host | host.name:text, code | status:long";
        EventMapping mapping = Spec.of(layout, "message=m, host | host.name:text=h, coalesce(code, status):long=s")
                .compile();
        String legacy = EVENT.replace("\"host\":{\"name\":\"web-01\"}", "\"host\":\"web-01\"");
        String textCode = EVENT.replace("\"status\":200", "\"status\":200,\"code\":\"OK\"");

        assertThat(rowsOf(mapping, EVENT).get(0).cells()).containsExactly(cell("m", "disk full"), cell("h", "web-01"),
                cell("s", "200"));
        assertThat(rowsOf(mapping, legacy)).isEqualTo(rowsOf(mapping, EVENT));
        assertThat(rowsOf(mapping, textCode)).isEqualTo(rowsOf(mapping, EVENT));
        assertThat(rowsOf(mapping, EVENT).get(0).key()).isEqualTo(key(layout, T, "web-01", 200L));
        // None of the type: the first present is refused, naming it.
        assertInvalid(mapping, EVENT.replace("\"host\":{\"name\":\"web-01\"}", "\"host\":{\"ip\":\"10.0.0.1\"}"),
                "host | host.name", "invalid host | host.name '{\"ip\":\"10.0.0.1\"}': is an object, where text is "
                        + "expected");
        // Untyped, the first present wins as before.
        assertThat(Expression.parse("host | host.name").evaluate(json(EVENT), RecordSource.ofTimestamp(T)))
                .isInstanceOf(Map.class);
    }

    @Test
    void shouldSetARecordAsideWhoseValueIsNotOfItsColumnsType() {
        EventMapping typed = Spec.of("@timestamp:ts", "message:text=m, host:text=h, status:long=s").compile();
        // The upgrade turned host from a string into an object: no JSON text under a text column.
        assertInvalid(typed, EVENT, "host", "invalid host '{\"name\":\"web-01\"}': is an object, where column h takes text");
        assertInvalid(typed, EVENT.replace("\"host\":{\"name\":\"web-01\"}", "\"host\":\"web-01\"")
                .replace("\"status\":200", "\"status\":\"200\""), "status", "invalid status '200': is text, where "
                + "column s takes a whole number of 64 bits");
        assertThat(rowsOf(typed, EVENT.replace("\"host\":{\"name\":\"web-01\"}", "\"host\":\"web-01\"")).get(0)
                .cells()).containsExactly(cell("m", "disk full"), cell("h", "web-01"), cell("s", "200"));
        // Per input: no cell instead.
        EventMapping lenient = EventMapping.compile(new MappingSpec(DATA, "d", "@timestamp:ts",
                ColumnSpec.parseList("message:text=m, host:text=h", true), "@timestamp", ISO, false, 0, List.of(), null, 0),
                (UidResolver) null, ANY);
        assertThat(rowsOf(lenient, EVENT).get(0).cells()).containsExactly(cell("m", "disk full"));
    }

    @Test
    void shouldTakeTheEventTimeFromTheTimestampIntoTheKeyAndTheCells() {
        EventMapping mapping = Spec.of("@timestamp:ts", "message").compile();
        Map<String, Object> record = json(EVENT.replace("08:00:00.123Z", "09:00:00.5+01:00"));

        long time = mapping.eventTime(record, 7L);

        assertThat(time).isEqualTo(1795334400500L);
        assertThat(mapping.rowsOf(record, () -> null, time)).containsExactly(
                new Row(DATA, new byte[] {0, 0, 1, (byte) 0xA2, 0x02, 0x44, (byte) 0xE9, (byte) 0xF4},
                        1795334400500L, List.of(cell("message", "disk full"))));
        assertThat(key("@timestamp:ts", 1795334400500L))
                .isEqualTo(new byte[] {0, 0, 1, (byte) 0xA2, 0x02, 0x44, (byte) 0xE9, (byte) 0xF4});
    }

    @Test
    void shouldSetARecordWithoutEventTimeAside() {
        EventMapping mapping = Spec.of("@timestamp:ts", "message").compile();

        assertThatThrownBy(() -> mapping.eventTime(json("{\"message\":\"m\"}"), 42L))
                .isInstanceOf(InvalidEventException.class)
                .hasMessage("invalid @timestamp null: is missing: it is the event time (the input may use the Kafka "
                        + "record's timestamp instead)")
                .satisfies(e -> assertThat(((InvalidEventException) e).field()).isEqualTo("@timestamp"));
        assertThatThrownBy(() -> mapping.eventTime(json("{\"@timestamp\":null}"), 42L))
                .isInstanceOf(InvalidEventException.class)
                .hasMessage("invalid @timestamp 'null': is null: it is the event time (the input may use the Kafka "
                        + "record's timestamp instead)");
        assertThatThrownBy(() -> mapping.eventTime(json("{\"@timestamp\":\"yesterday\"}"), 42L))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageStartingWith("invalid @timestamp 'yesterday': not an ISO-8601 time with an offset: ");
    }

    @Test
    void shouldApplyTheTimestampPolicyToTheEventTimeBeforeAnyRowIsMade() {
        MappingSpec spec = Spec.of("@timestamp:ts", "message").summary("@timestamp:ts", 3_600_000).build();
        EventMapping rejecting = EventMapping.compile(
                spec.withTimestamps(new TimestampPolicy(TimestampPolicy.Mode.REJECT, 1000)), (UidResolver) null, ANY);
        EventMapping clamping = EventMapping.compile(
                spec.withTimestamps(new TimestampPolicy(TimestampPolicy.Mode.CLAMP, 1000)), (UidResolver) null, ANY);
        Map<String, Object> record = json(EVENT);
        long recordTimestamp = T - 5000;

        assertThatThrownBy(() -> rejecting.apply(record, () -> null, recordTimestamp))
                .isInstanceOf(InvalidEventException.class)
                .hasMessage("invalid @timestamp '" + T + "': is 5000 ms ahead of the record's timestamp "
                        + recordTimestamp + " (limit events.timestamp.max.future.ms=1000; events.timestamp.policy=clamp "
                        + "writes such events at the record's timestamp)");
        EventMapping.Mapped clamped = clamping.apply(record, () -> null, recordTimestamp);
        assertThat(clamped.eventTime()).isEqualTo(recordTimestamp);
        assertThat(clamped.rows()).containsExactly(new Row(DATA, key("@timestamp:ts", recordTimestamp),
                recordTimestamp, List.of(cell("message", "disk full"))));
        assertThat(clamped.counter()).map(Counter::row).contains(key("@timestamp:ts",
                recordTimestamp - recordTimestamp % 3_600_000));
        EventMapping.Mapped inTime = rejecting.apply(record, () -> null, T - 999);
        assertThat(inTime.eventTime()).isEqualTo(T);

        Map<String, Object> before1970 = json(EVENT.replace("2026-11-22T08:00:00.123Z", "1969-12-31T23:59:59Z"));
        assertThatThrownBy(() -> rejecting.apply(before1970, () -> null, 42L))
                .isInstanceOf(InvalidEventException.class)
                .hasMessage("invalid @timestamp '-1000': is before 1970");
        assertThat(clamping.apply(before1970, () -> null, 42L).eventTime()).isEqualTo(42L);
        assertThatThrownBy(() -> clamping.apply(before1970, () -> null, -1L))
                .isInstanceOf(InvalidEventException.class)
                .hasMessage("invalid @timestamp '-1000': is before 1970");
    }

    @Test
    void shouldUseTheRecordTimestampWhenTheMappingSaysSo() {
        EventMapping mapping = Spec.of("@timestamp:ts", "message").usingRecordTime().compile();
        Map<String, Object> record = json("{\"message\":\"m\"}");

        long time = mapping.eventTime(record, 42L);

        assertThat(time).isEqualTo(42L);
        assertThat(mapping.eventTime(json("{\"@timestamp\":null}"), 43L)).isEqualTo(43L);
        assertThat(mapping.eventTime(json(EVENT), 44L)).isEqualTo(T);
        assertThat(mapping.rowsOf(record, () -> null, time))
                .containsExactly(new Row(DATA, key("@timestamp:ts", 42L), 42L, List.of(cell("message", "m"))));
    }

    @Test
    void shouldWriteExplicitColumnsThenWildcardLeavesNoColumnNames() {
        EventMapping mapping = Spec.of("host.name:text", "message=m, log.level, labels.app=app, labels.*").compile();

        List<Row> rows = rowsOf(mapping, EVENT);

        assertThat(rows).containsExactly(new Row(DATA, key("host.name:text", "web-01"), T, List.of(
                cell("m", "disk full"), cell("log.level", "warn"), cell("app", "shop"), cell("labels.team", "ops"))));
    }

    @Test
    void shouldWriteEveryOtherLeafUnderItsPrefixForAWholeRecordWildcard() {
        EventMapping mapping = Spec.of("host.name:text", "message=m, *=f.*").compile();

        List<Row> rows = rowsOf(mapping, EVENT.replace("\"status\":200", "\"status\":200,\"tags\":[\"a\",1],\"gone\":null"));

        assertThat(rows).containsExactly(new Row(DATA, key("host.name:text", "web-01"), T, List.of(
                cell("m", "disk full"),
                cell("f.@timestamp", "2026-11-22T08:00:00.123Z"),
                cell("f.host.name", "web-01"),
                cell("f.log.level", "warn"),
                cell("f.labels.app", "shop"),
                cell("f.labels.team", "ops"),
                cell("f.status", "200"),
                cell("f.tags", "[\"a\",1]"))));
    }

    @Test
    void shouldKeepTheFirstOfALeafWrittenBothDottedAndNestedUnderAWildcard() {
        EventMapping mapping = Spec.of("host.name:text", "message=m, *=f.*").compile();

        List<Row> rows = rowsOf(mapping, "{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"host\":{\"name\":\"h\"},"
                + "\"log.level\":\"warn\",\"log\":{\"level\":\"info\",\"file\":\"/x\"},\"message\":\"m\"}");

        assertThat(rows.get(0).cells()).containsExactly(cell("m", "m"), cell("f.@timestamp", "2026-11-22T08:00:00.123Z"),
                cell("f.host.name", "h"), cell("f.log.level", "warn"), cell("f.log.file", "/x"));
    }

    @Test
    void shouldSkipAnExplicitObjectColumnsLeavesInAWildcard() {
        EventMapping mapping = Spec.of("host.name:text", "labels, *").compile();

        List<Row> rows = rowsOf(mapping, "{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"host\":{\"name\":\"h\"},"
                + "\"labels\":{\"app\":\"shop\"},\"labelsX\":1}");

        assertThat(rows.get(0).cells()).containsExactly(cell("labels", "{\"app\":\"shop\"}"),
                cell("@timestamp", "2026-11-22T08:00:00.123Z"), cell("host.name", "h"), cell("labelsX", "1"));
    }

    @Test
    void shouldWriteNoCellForANullOrMissingColumn() {
        EventMapping mapping = Spec.of("host.name:text", "message=m, log.level, host.name=host, labels.*").compile();

        List<Row> rows = rowsOf(mapping, "{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"host\":{\"name\":\"h\"},"
                + "\"message\":null,\"labels\":\"not an object\"}");

        assertThat(rows).containsExactly(new Row(DATA, key("host.name:text", "h"), T, List.of(cell("host", "h"))));
    }

    @Test
    void shouldSetARecordWithNoMappedColumnAside() {
        EventMapping mapping = Spec.of("host.name:text", "message=m, log.level").compile();

        assertInvalid(mapping, "{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"host\":{\"name\":\"h\"},\"message\":null}",
                "value", "invalid value null: has none of the mapped columns ([message=m, log.level]): a row needs at "
                        + "least one cell");
    }

    @Test
    void shouldRefuseKeyValuesThatCannotBeKeyParts() {
        EventMapping mapping = Spec.of("host.name:text, pid:long, @timestamp:ts", "message").compile();
        String start = "{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"message\":\"m\",";

        assertInvalid(mapping, start + "\"pid\":1}", "host.name",
                "invalid host.name null: is missing: it is part of the row key");
        assertInvalid(mapping, start + "\"host\":{\"name\":null},\"pid\":1}", "host.name",
                "invalid host.name null: is null: it is part of the row key");
        assertInvalid(mapping, start + "\"host\":{\"name\":\"\"},\"pid\":1}", "host.name",
                "invalid host.name '': must not be empty");
        assertInvalid(mapping, start + "\"host\":{\"name\":{\"first\":\"a\"}},\"pid\":1}", "host.name",
                "invalid host.name '{\"first\":\"a\"}': is an object, where text is expected");
        assertInvalid(mapping, start + "\"host\":{\"name\":[\"a\"]},\"pid\":1}", "host.name",
                "invalid host.name '[\"a\"]': is an array, where text is expected");
        assertInvalid(mapping, start + "\"host\":{\"name\":\"h\"},\"pid\":\"abc\"}", "pid",
                "invalid pid 'abc': is text, where a whole number is expected");
        assertInvalid(mapping, start + "\"host\":{\"name\":\"h\"},\"pid\":18446744073709551616}", "pid",
                "invalid pid '18446744073709551616': is beyond 64 bits, where a whole number is expected");
        assertInvalid(mapping, start + "\"host\":{\"name\":\"h\"},\"pid\":1.5}", "pid",
                "invalid pid '1.5': is not a whole number of 64 bits");
        assertInvalid(mapping, start + "\"host\":{\"name\":\"h\"},\"pid\":true}", "pid",
                "invalid pid 'true': is a boolean, where a whole number is expected");
    }

    @Test
    void shouldTakeANumberOrBooleanAsTheTextOfATextPart() {
        EventMapping mapping = Spec.of("host.name:text, pid:long", "message").compile();
        String start = "{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"message\":\"m\",";

        assertThat(rowsOf(mapping, start + "\"host\":{\"name\":42},\"pid\":2.0E+1}").get(0).key())
                .isEqualTo(key("host.name:text, pid:long", "42", 20L));
        assertThat(rowsOf(mapping, start + "\"host\":{\"name\":1e3},\"pid\":-3}").get(0).key())
                .isEqualTo(key("host.name:text, pid:long", "1000", -3L));
        assertThat(rowsOf(mapping, start + "\"host\":{\"name\":false},\"pid\":0}").get(0).key())
                .isEqualTo(key("host.name:text, pid:long", "false", 0L));
    }

    @Test
    void shouldRefuseACellOverTheLimitNamingThePath() {
        EventMapping mapping = Spec.of("host.name:text", "message=m, labels.*").maxCellBytes(9).compile();
        String start = "{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"host\":{\"name\":\"h\"},";

        assertInvalid(mapping, start + "\"message\":\"disk is full\"}", "message",
                "invalid message '(12 bytes)': is 12 bytes as a cell, over the cell size limit of 9 bytes (the input's max.cell.bytes)");
        assertInvalid(mapping, start + "\"message\":\"ok\",\"labels\":{\"team\":\"operations\"}}", "labels.team",
                "invalid labels.team '(10 bytes)': is 10 bytes as a cell, over the cell size limit of 9 bytes (the input's max.cell.bytes)");
        assertThat(rowsOf(mapping, start + "\"message\":\"123456789\"}").get(0).cells())
                .containsExactly(cell("m", "123456789"));
    }

    @Test
    void shouldPackRecordsIntoColumnsOfTheirTimeBucketsRow() {
        String layout = "host.name:text, @timestamp:ts";
        EventMapping mapping = Spec.of(layout, "").bucket(300_000).compile();
        String json = EVENT.replace("08:00:00.123Z", "08:04:50.123Z");
        Map<String, Object> record = json(json);
        byte[] canonical = bytes("the record as its format keeps it");

        List<Row> rows = mapping.rowsOf(record, () -> canonical, mapping.eventTime(record, 0));

        // 08:04:50.123 is 290123 ms (0x46D4B) into the 5-minute bucket starting at 08:00.
        assertThat(rows).containsExactly(new Row(DATA, key(layout, "web-01", 1795334400000L), 1795334690123L,
                List.of(new Cell(D, new byte[] {0x00, 0x04, 0x6D, 0x4B}, canonical))));
        assertThatThrownBy(() -> mapping.rowsOf(record, () -> canonical, -1L))
                .isInstanceOf(InvalidEventException.class)
                .hasMessage("invalid @timestamp '-1': is before 1970");
    }

    @Test
    void shouldCountARecordInTheRowOfItsPeriod() {
        EventMapping mapping = Spec.of(DATA_LAYOUT, "message").summary("host.name:text, @timestamp:long", 3_600_000)
                .compile();
        Map<String, Object> record = json(EVENT);

        Counter counter = mapping.counterOf(record, T + 3_599_876L).orElseThrow(); // 08:59:59.999
        Counter beforeEpoch = mapping.counterOf(record, -1L).orElseThrow();

        assertThat(counter.table()).isEqualTo(SUMMARY);
        assertThat(counter.row()).isEqualTo(key("host.name:text, @timestamp:long", "web-01", 1795334400000L));
        assertThat(counter.family()).isEqualTo(bytes("s"));
        assertThat(counter.qualifier()).isEqualTo(bytes("n"));
        assertThat(counter.amount()).isEqualTo(1L);
        assertThat(beforeEpoch.row()).isEqualTo(key("host.name:text, @timestamp:long", "web-01", -3_600_000L));
        assertThat(mapping.counterOf(json(EVENT), T + 3_599_877L).orElseThrow().row())
                .isEqualTo(key("host.name:text, @timestamp:long", "web-01", 1795338000000L));
        assertThat(mapping.tableLayouts().keySet()).containsExactly(DATA, SUMMARY);
        assertThat(mapping.familyOf(SUMMARY)).isEqualTo(bytes("s"));
        assertThat(Spec.of(DATA_LAYOUT, "message").compile().counterOf(record, T)).isEmpty();
    }

    // ---------------------------------------------------------------- index rows from data rows

    private static Map<String, byte[]> stored(Row dataRow) {
        Map<String, byte[]> byQualifier = new HashMap<>();
        for (Cell cell : dataRow.cells()) {
            byQualifier.put(new String(cell.qualifier(), UTF_8), cell.value());
        }
        return byQualifier;
    }

    @Test
    void shouldRebuildTheIndexRowThatRowsOfWrote() {
        String index = "host.name:text, status:long, log.level:text, @timestamp:rts";
        EventMapping mapping = Spec.of(DATA_LAYOUT, "message=m, log.level=lvl, *=f.*").index(index).compile();
        List<Row> rows = rowsOf(mapping, EVENT);
        Map<String, byte[]> stored = stored(rows.get(0));

        Optional<Row> rebuilt = mapping.indexRowOf(BY_HOST, rows.get(0).key(), q -> stored.get(new String(q, UTF_8)),
                rows.get(0).timestamp());

        assertThat(stored).containsKeys("lvl", "f.host.name", "f.status").doesNotContainKey("f.log.level");
        assertThat(rebuilt).contains(rows.get(1));
        assertThat(rows.get(1)).isEqualTo(new Row(BY_HOST, key(index, "web-01", 200L, "warn", T), T,
                List.of(new Cell(bytes("i"), bytes("r"), key(DATA_LAYOUT, T, "web-01")))));
        stored.remove("f.status");
        assertThat(mapping.indexRowOf(BY_HOST, rows.get(0).key(), q -> stored.get(new String(q, UTF_8)), T)).isEmpty();
        assertThatThrownBy(() -> mapping.indexRowOf(SUMMARY, rows.get(0).key(), q -> null, T))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("no index table web.summary in this mapping");
    }

    @Test
    void shouldRebuildAnIndexRowOverAWholeNumberWrittenWithAFraction() {
        String index = "status:long, host.name:text, @timestamp:rts";
        EventMapping mapping = Spec.of(DATA_LAYOUT, "status, host.name").index(index).compile();
        List<Row> rows = rowsOf(mapping, EVENT.replace("\"status\":200", "\"status\":200.0"));
        Map<String, byte[]> stored = stored(rows.get(0));

        assertThat(stored.get("status")).isEqualTo(bytes("200.0"));
        assertThat(rows.get(1).key()).isEqualTo(key(index, 200L, "web-01", T));
        assertThat(mapping.indexRowOf(BY_HOST, rows.get(0).key(), q -> stored.get(new String(q, UTF_8)), T))
                .contains(rows.get(1));
    }

    // ---------------------------------------------------------------- compile-time refusals

    @Test
    void shouldNameThePieceEachRefusalIsAboutAsAValue() {
        assertThat(refusal(Spec.of(DATA_LAYOUT, "message=m, host.name=m")).piece()).isEqualTo(MappingException.Piece.COLUMNS);
        assertThat(refusal(Spec.of(DATA_LAYOUT, "message=m").index(INDEX_LAYOUT)))
                .extracting(MappingException::piece, MappingException::index)
                .containsExactly(MappingException.Piece.INDEX_KEY, "by_host");
        assertThat(refusal(Spec.of("host..name:text", "message"))).extracting(MappingException::piece, MappingException::index)
                .containsExactly(MappingException.Piece.DATA_KEY, null);
        assertThat(refusal(Spec.of("host.name:text, @timestamp:ts", "message=m, host.name").bucket(300_000)
                .index(INDEX_LAYOUT)).piece()).isEqualTo(MappingException.Piece.TIME_BUCKET);
        assertThat(refusal(Spec.of(DATA_LAYOUT, "message, host.name").summary("host.name:text", 3_600_000)).piece())
                .isEqualTo(MappingException.Piece.SUMMARY_KEY);
    }

    @Test
    void shouldRefuseTwoColumnsWithOneQualifier() {
        assertRefused(Spec.of(DATA_LAYOUT, "message=m, host.name=m"),
                "columns 'message=m' and 'host.name=m' both write qualifier 'm'");
        assertRefused(Spec.of(DATA_LAYOUT, "log.level, level=log.level"),
                "columns 'log.level' and 'level=log.level' both write qualifier 'log.level'");
    }

    @Test
    void shouldRefuseAWildcardThatCouldWriteAnExplicitColumnsQualifier() {
        assertRefused(Spec.of(DATA_LAYOUT, "message=m, *"), "columns '*' and 'message=m' could both write qualifier "
                + "'m' (a field m); give the wildcard a prefix of its own, e.g. *=f.*");
        assertRefused(Spec.of(DATA_LAYOUT, "labels.*, team=labels.team"), "columns 'labels.*' and 'team=labels.team' "
                + "could both write qualifier 'labels.team' (a field labels.team); give the wildcard a prefix of its "
                + "own, e.g. labels.*=f.*");
        assertThat(Spec.of(DATA_LAYOUT, "message, labels.team, *").compile()).isNotNull();
        assertThat(Spec.of(DATA_LAYOUT, "labels.*=l.*, labels.app=l.app").compile()).isNotNull();
    }

    @Test
    void shouldRefuseTwoOverlappingWildcards() {
        assertRefused(Spec.of(DATA_LAYOUT, "labels.*=l.*, attributes.*=l.*"), "columns 'labels.*=l.*' and "
                + "'attributes.*=l.*' could both write a qualifier starting with 'l.': give one a prefix of its own "
                + "(e.g. attributes.*=x.*)");
        assertRefused(Spec.of(DATA_LAYOUT, "*, labels.*"), "columns '*' and 'labels.*' could both write a qualifier "
                + "starting with 'labels.': give one a prefix of its own (e.g. labels.*=x.*)");
    }

    @Test
    void shouldRefuseAnIndexPartInNoColumn() {
        assertRefused(Spec.of(DATA_LAYOUT, "message=m").index(INDEX_LAYOUT), "index by_host key '" + INDEX_LAYOUT
                + "': part host.name is in no column of the data row, so index verify and backfill could not rebuild "
                + "the index row from it; add host.name to the columns");
    }

    @Test
    void shouldRefuseAnIndexPartAWildcardSkipsForAnExplicitColumn() {
        // labels=l keeps the labels object as one JSON cell: *=f.* writes no f.labels.app to rebuild from.
        assertRefused(Spec.of(DATA_LAYOUT, "labels=l, *=f.*").index("labels.app:text, @timestamp:rts"),
                "index by_host key 'labels.app:text, @timestamp:rts': part labels.app is in no column of the data "
                        + "row, so index verify and backfill could not rebuild the index row from it; add labels.app "
                        + "to the columns");
    }

    @Test
    void shouldRefuseATextEncodingOverTheTimePath() {
        assertRefused(Spec.of("host.name:text, @timestamp:text", "message"), "data key 'host.name:text, "
                + "@timestamp:text', part @timestamp:text: the event time is a number; use ts, rts, long or dec");
    }

    @Test
    void shouldRefuseAPathTwiceInOneKey() {
        assertRefused(Spec.of("host.name:text, host.name:md5", "message"),
                "data key: layout 'host.name:text, host.name:md5': host.name is in the key twice: a key holds each field once");
        assertRefused(Spec.of("@timestamp:ts, @timestamp:rts", "message"),
                "data key: layout '@timestamp:ts, @timestamp:rts': @timestamp is in the key twice: a key holds each field once");
    }

    @Test
    void shouldRefuseABadPathOrSpecInALayout() {
        assertRefused(Spec.of("host..name:text", "message"), "data key 'host..name:text', part host..name:text: "
                + "field path 'host..name': expected a name or a quoted \"name\" at offset 5");
        assertRefused(Spec.of("host.name", "message"), "data key: layout 'host.name': part 'host.name' needs the form "
                + "field:encoding (encodings: byte, dec, int, long, md5, rts, text, ts, uid)");
    }

    @Test
    void shouldRefuseRowsAsColumnsWithAnIndexOrWithoutTheTimePart() {
        assertRefused(Spec.of("host.name:text, @timestamp:ts", "message=m, host.name").bucket(300_000)
                .index(INDEX_LAYOUT), "rows as columns keep no index: the rows are keyed by the data layout already; "
                + "leave the indexes out");
        assertRefused(Spec.of("host.name:text", "").bucket(300_000), "rows as columns need a @timestamp part (the "
                + "time path) in the data key 'host.name:text' for the time bucket");
        assertRefused(Spec.of("host.name:text, @timestamp:ts", "").bucket(1L << 31), "time bucket of 2147483648 ms: "
                + "offsets in a bucket are 4-byte qualifiers, so at most 2147483647 ms (24 days)");
    }

    @Test
    void shouldRefuseASummaryKeyWithoutTheTimePart() {
        assertRefused(Spec.of(DATA_LAYOUT, "message").summary("host.name:text", 60_000),
                "summary key 'host.name:text' needs a part over the time path @timestamp for the period");
        assertThatThrownBy(() -> new MappingSpec.SummarySpec(SUMMARY, "host.name:text, @timestamp:ts", 0))
                .hasMessage("a summary period must be positive, got 0 ms");
    }

    @Test
    void shouldRefuseAMappingWithoutColumns() {
        assertRefused(Spec.of(DATA_LAYOUT, ""), "no columns: a data row needs at least one cell");
    }

    @Test
    void shouldRefuseAPathTheFormatCannotYield() {
        Function<FieldPath, Optional<String>> yield = p -> p.text().equals("nope") ? Optional.of("no such field")
                : Optional.empty();
        List<String> asked = new ArrayList<>();
        Function<FieldPath, Optional<String>> recording = p -> {
            asked.add(p.text());
            return yield.apply(p);
        };

        assertRefused(Spec.of(DATA_LAYOUT, "message, nope=n"), yield, "column 'nope=n': no such field");
        assertRefused(Spec.of(DATA_LAYOUT, "message, nope.*"), yield, "column 'nope.*': no such field");
        assertRefused(Spec.of("@timestamp:ts, nope:text", "message"), yield,
                "data key '@timestamp:ts, nope:text', part nope:text: no such field");
        assertRefused(Spec.of(DATA_LAYOUT, "message, nope").index("nope:text, @timestamp:rts"), yield,
                "column 'nope': no such field");
        assertRefused(Spec.of(DATA_LAYOUT, "message").summary("nope:text, @timestamp:ts", 60_000), yield,
                "summary key 'nope:text, @timestamp:ts', part nope:text: no such field");
        EventMapping.compile(Spec.of(DATA_LAYOUT, "message, *=f.*").index("message:text, @timestamp:rts").build(),
                (UidResolver) null, recording);
        assertThat(asked).containsExactly("@timestamp", "message", "host.name", "message");
    }

    @Test
    void shouldKeyIndexAndStoreExpressions() {
        EventMapping mapping = Spec.of("bucket(8) | @timestamp:ts, lower(host.name | host):text",
                        "lower(host.name | host)=h, concat(labels.app, '/', labels.team)=team, (status >= 500)=err,"
                                + " message")
                .index("lower(host.name | host):text, @timestamp:rts").compile();
        String ecs = EVENT.replace("web-01", "WEB-01");
        String legacy = "{\"@timestamp\":\"2026-11-22T08:00:00.123Z\",\"host\":\"Web-01\",\"message\":\"m\","
                + "\"status\":503}";
        List<Row> rows = rowsOf(mapping, ecs);
        byte[] dataKey = key("bucket(8) | @timestamp:ts, host:text", T, "web-01");
        assertThat(rows.get(0).key()).isEqualTo(dataKey);
        assertThat(rows.get(0).cells()).containsExactly(cell("h", "web-01"), cell("team", "shop/ops"),
                cell("err", "false"), cell("message", "disk full"));
        assertThat(rows.get(1).key()).isEqualTo(key("host:text, @timestamp:rts", "web-01", T));
        assertThat(rowsOf(mapping, legacy).get(0).key()).isEqualTo(dataKey);
        assertThat(rowsOf(mapping, legacy).get(0).cells()).containsExactly(cell("h", "web-01"), cell("err", "true"),
                cell("message", "m"));
        // index verify rebuilds the index row from the cell the expression wrote
        Map<String, byte[]> stored = Map.of("h", bytes("web-01"));
        assertThat(mapping.indexRowOf(BY_HOST, dataKey, q -> stored.get(new String(q, UTF_8)), T).orElseThrow().key())
                .isEqualTo(rows.get(1).key());
    }

    @Test
    void shouldReadTheRecordKeyHeadersAndPlaceAsSources() {
        MappingSpec spec = new MappingSpec(DATA, "d", "$key.id:long, $timestamp:ts",
                ColumnSpec.parseList("$header.trace-id=trace, $topic=topic, $partition=p, $offset=o, message"),
                "$timestamp", TimeFormat.parse("epoch-ms", ZoneOffset.UTC), false, 0, List.of(), null, 0);
        EventMapping mapping = EventMapping.compile(spec, (UidResolver) null, ANY);
        RecordSource source = new RecordSource("logs", 2, 99L, T, bytes("{\"id\":7}"),
                name -> name.equals("trace-id") ? bytes("t-1") : null);
        EventMapping.Mapped mapped = mapping.apply(json(EVENT), source, () -> bytes(EVENT));
        assertThat(mapped.eventTime()).isEqualTo(T);
        Row row = mapped.rows().get(0);
        assertThat(row.key()).isEqualTo(key("id:long, t:ts", 7L, T));
        assertThat(row.cells()).containsExactly(cell("trace", "t-1"), cell("topic", "logs"), cell("p", "2"),
                cell("o", "99"), cell("message", "disk full"));
        assertThatThrownBy(() -> mapping.apply(json(EVENT), new RecordSource("logs", 2, 99L, T, bytes("plain"),
                name -> null), () -> bytes(EVENT)))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("invalid $key.id null");
    }

    @Test
    void shouldMakeTheDataKeyADeleteRemovesFromTheRecordOrFromATombstonesKey() {
        MappingSpec spec = new MappingSpec(DATA, "d", "bucket(4) | ts | $key.ts:ts, id | $key.id:long",
                ColumnSpec.parseList("message"), "ts | $key.ts", TimeFormat.parse("epoch-ms", ZoneOffset.UTC),
                true, 0, List.of(), null, 0);
        EventMapping mapping = EventMapping.compile(spec, (UidResolver) null, ANY);
        String record = "{\"id\":7,\"ts\":" + T + ",\"message\":\"m\"}";
        byte[] written = mapping.apply(json(record), new RecordSource("t", 0, 0, T + 5, null, name -> null),
                () -> bytes(record)).rows().get(0).key();

        assertThat(mapping.dataKeyOf(json(record), new RecordSource("t", 0, 1, T + 9, null, name -> null)))
                .isEqualTo(written);
        assertThat(mapping.dataKeyOf(Map.of(), new RecordSource("t", 0, 2, T + 9,
                bytes("{\"id\":7,\"ts\":" + T + "}"), name -> null))).isEqualTo(written);
        // A tombstone's own timestamp says when it was sent, not which row it means.
        assertThatThrownBy(() -> mapping.dataKeyOf(Map.of(), new RecordSource("t", 0, 3, T, bytes("{\"id\":7}"),
                name -> null))).isInstanceOf(InvalidEventException.class).hasMessage("invalid ts | $key.ts null: is "
                + "missing: the event time is part of the row key, so a delete needs it from the record (or its key)");
        assertThatThrownBy(() -> Spec.of(DATA_LAYOUT, "message").bucket(60_000).compile()
                .dataKeyOf(json(EVENT), RecordSource.ofTimestamp(T))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldRefuseAnExpressionNamingThePiece() {
        assertRefused(Spec.of("lower(5):text", "message"), "data key 'lower(5):text', part lower(5):text: expression"
                + " 'lower(5)': lower(5): argument 1 of lower is a whole number, where text is expected (convert with"
                + " text(...))");
        assertThatThrownBy(() -> ColumnSpec.parseList("lower(message)")).hasMessage("column 'lower(message)': an"
                + " expression needs a qualifier, e.g. lower(message)=q");
        assertThatThrownBy(() -> ColumnSpec.parseList("status >= 500")).hasMessage("column 'status >= 500': an"
                + " expression needs a qualifier, e.g. (status >= 500)=q");
        assertRefused(Spec.of(DATA_LAYOUT, "message, upper(host.name)=message"), "columns 'message' and"
                + " 'upper(host.name)=message' both write qualifier 'message'");
        assertRefused(Spec.of(DATA_LAYOUT, "message").index("upper(host.name):text"), "index by_host key"
                + " 'upper(host.name):text': part upper(host.name) is in no column of the data row, so index verify and"
                + " backfill could not rebuild the index row from it; add upper(host.name) to the columns");
    }

    @Test
    void shouldGiveEachRecordsRowsTheTtlItCarries() {
        MappingSpec spec = Spec.of(DATA_LAYOUT, "message, host.name").index(INDEX_LAYOUT).build()
                .withTtl("long(retention_ms) | $header.ttl-ms");
        EventMapping mapping = EventMapping.compile(spec, (UidResolver) null, ANY);
        String kept = EVENT.replace("\"status\":200", "\"status\":200,\"retention_ms\":\"86400000\"");
        assertThat(rowsOf(mapping, kept)).extracting(Row::ttlMillis).containsExactly(86_400_000L, 86_400_000L);
        assertThat(rowsOf(mapping, EVENT)).extracting(Row::ttlMillis).containsExactly(0L, 0L);
        RecordSource headed = new RecordSource("t", 0, 0, T, null, name -> name.equals("ttl-ms") ? bytes("60000") : null);
        assertThatThrownBy(() -> mapping.apply(json(EVENT), headed, () -> bytes(EVENT)))
                .hasMessageContaining("'60000': is text, where a whole number is expected"); // convert with long(...)
        EventMapping fromHeader = EventMapping.compile(spec.withTtl("long($header.ttl-ms)"), (UidResolver) null, ANY);
        assertThat(fromHeader.apply(json(EVENT), headed, () -> bytes(EVENT)).rows()).extracting(Row::ttlMillis)
                .containsExactly(60_000L, 60_000L);
        assertInvalid(mapping, EVENT.replace("\"status\":200", "\"status\":200,\"retention_ms\":\"-5\""),
                "long(retention_ms) | $header.ttl-ms", "invalid long(retention_ms) | $header.ttl-ms '-5': is not a "
                        + "positive TTL in ms");
        assertThatThrownBy(() -> EventMapping.compile(spec.withTtl("lower(x)"), (UidResolver) null, ANY))
                .isInstanceOf(MappingException.class).hasMessage("the TTL 'lower(x)' is text, where a whole number of ms "
                        + "is expected (convert with long(...))")
                .satisfies(e -> assertThat(((MappingException) e).piece()).isEqualTo(MappingException.Piece.TTL));
    }
}
