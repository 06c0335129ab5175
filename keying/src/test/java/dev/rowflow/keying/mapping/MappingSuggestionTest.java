package dev.rowflow.keying.mapping;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@code rowflow mapping suggest} infers from sampled records. */
class MappingSuggestionTest {

    private static MappingSuggestion sample(List<String> json) {
        MappingSuggestion suggestion = new MappingSuggestion();
        json.forEach(record -> suggestion.add(RecordTree.parseJson(record.getBytes(StandardCharsets.UTF_8))));
        return suggestion;
    }

    @Test
    void shouldFindTheTimeAndTheIdentityFieldsThatKeepFilebeatLinesApartEvenWithoutTheTime() {
        // Filebeat: two lines of one file in one millisecond; one offset in two files of a host, and in two hosts'
        // files: only host, file and offset together part them all, whatever the time.
        List<String> lines = List.of(
                line("2026-11-22T08:00:00.123Z", "web-1", "/var/log/a.log", 100, "GET /"),
                line("2026-11-22T08:00:00.123Z", "web-1", "/var/log/a.log", 180, "GET /x"),
                line("2026-11-22T08:00:00.124Z", "web-2", "/var/log/a.log", 100, "GET /"),
                line("2026-11-22T08:00:00.124Z", "web-1", "/var/log/b.log", 100, "POST /"));

        Suggestion suggestion = sample(lines).suggest("filebeat", "filebeat", 3);

        assertThat(suggestion.timePath()).isEqualTo("@timestamp");
        assertThat(suggestion.timeFormats()).containsOnlyKeys("iso8601");
        assertThat(suggestion.collisions()).isZero();
        assertThat(suggestion.unique()).isTrue();
        assertThat(suggestion.key()).isEqualTo("bucket(8) | @timestamp:ts, host.name:text, log.file.path:text, "
                + "log.offset:long");
        assertThat(suggestion.indexes()).containsExactly(new Suggestion.Index("host",
                "host.name:text, @timestamp:rts, log.file.path:text, log.offset:long", 4, 4));
        assertThat(suggestion.columns()).isEqualTo("host.name=host, log.file.path=path, log.offset=offset, "
                + "message=message, *=f.*");
        assertThat(suggestion.outliers()).isEmpty();
        assertThat(suggestion.fields()).extracting(Suggestion.Field::path)
                .contains("@timestamp", "host.name", "log.file.path", "log.offset", "message");
    }

    @Test
    void shouldTakeAHostThatOlderAgentsWriteAsTextAndNewerOnesAsAnObjectAsAFallback() {
        // Filebeat before 7 wrote "host":"web-1", ECS agents write "host":{"name":"web-1"}.
        List<String> records = List.of(
                "{\"@timestamp\":\"2026-11-22T08:00:00.001Z\",\"host\":{\"name\":\"web-1\"},\"message\":\"a\"}",
                "{\"@timestamp\":\"2026-11-22T08:00:00.001Z\",\"host\":{\"name\":\"web-2\"},\"message\":\"a\"}",
                "{\"@timestamp\":\"2026-11-22T08:00:00.001Z\",\"host\":\"web-3\",\"message\":\"a\"}");

        Suggestion suggestion = sample(records).suggest("beats", "beats", 1);

        assertThat(suggestion.key()).isEqualTo("bucket(8) | @timestamp:ts, host.name | host:text");
        assertThat(suggestion.indexes()).extracting(Suggestion.Index::key)
                .containsExactly("host.name | host:text, @timestamp:rts");
        assertThat(suggestion.columns()).isEqualTo("host.name | host=host, message=message, *=f.*");
        assertThat(suggestion.collisions()).isZero();
    }

    @Test
    void shouldListEveryTimeFormatTheSampleNeedsMostFirstAndTellEpochUnitsByMagnitude() {
        List<String> records = List.of("{\"ts\":1795334400.5,\"msg\":\"a\"}", "{\"ts\":1795334401.25,\"msg\":\"b\"}",
                "{\"ts\":\"2026-11-22T08:00:02Z\",\"msg\":\"c\"}", "{\"ts\":1795334403,\"msg\":\"d\"}");

        Suggestion suggestion = sample(records).suggest("fluentbit", "fluent", 12);

        assertThat(suggestion.timePath()).isEqualTo("ts");
        assertThat(suggestion.timeFormats()).containsExactly(Map.entry("epoch-s", 0.75), Map.entry("iso8601", 0.25));
        assertThat(suggestion.key()).startsWith("bucket(12) | ts:ts");
        assertThat(MappingSuggestion.timeFormatOf("t", 1795334400123L)).isEqualTo("epoch-ms");
        assertThat(MappingSuggestion.timeFormatOf("t", 1795334400123456L)).isEqualTo("epoch-us");
        assertThat(MappingSuggestion.timeFormatOf("t", "1795334400123456789")).isEqualTo("epoch-ns");
        assertThat(MappingSuggestion.timeFormatOf("t", 42L)).isNull();
        assertThat(MappingSuggestion.timeFormatOf("t", "yesterday")).isNull();
    }

    @Test
    void shouldHashLongTextAndTakeTheRecordTimestampWhereNoFieldIsATime() {
        String longText = "x".repeat(40);
        List<String> records = List.of("{\"msg\":\"" + longText + "1\",\"level\":\"info\"}",
                "{\"msg\":\"" + longText + "2\",\"level\":\"info\"}", "{\"msg\":\"" + longText + "3\",\"level\":\"warn\"}");

        Suggestion suggestion = sample(records).suggest("plain", "plain", 1);

        assertThat(suggestion.timePath()).isNull();
        assertThat(suggestion.key()).isEqualTo("bucket(8) | $timestamp:ts, msg:md5");
        assertThat(suggestion.properties()).contains("input.plain.time=$timestamp", "input.plain.key=bucket(8) | "
                + "$timestamp:ts, msg:md5", "input.plain.columns=msg=msg, *=f.*");
    }

    @Test
    void shouldQuoteNamesAPathCannotHoldAndReportWhatNoFieldCanPart() {
        assertThat(MappingSuggestion.step("log.level")).isEqualTo("log.level");
        assertThat(MappingSuggestion.step("a b")).isEqualTo("\"a b\"");
        assertThat(MappingSuggestion.step("$id")).isEqualTo("\"$id\"");
        assertThat(MappingSuggestion.step("200")).isEqualTo("\"200\"");
        List<String> twins = List.of("{\"ts\":\"2026-11-22T08:00:00Z\",\"a\":\"x\",\"n\":[1]}",
                "{\"ts\":\"2026-11-22T08:00:00Z\",\"a\":\"x\",\"n\":[2]}");

        Suggestion suggestion = sample(twins).suggest("t", "t", 1);

        assertThat(suggestion.collisions()).isEqualTo(1);
        assertThat(suggestion.properties()).contains("# 1 sampled records still share a key with another");
    }

    @Test
    void shouldLeaveOutRecordsWithoutATimeOrOfAShapeNearlyNoneHasAndInferTheRestFromTheOthers() {
        List<String> records = new java.util.ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            // One record in 1000 has no "level", which all others have: an outlier, never used to choose. One "seq"
            // is text among numbers, left out the same way.
            String seq = i == 500 ? "\"12a\"" : Integer.toString(i);
            records.add("{\"time\":" + (1795334400000L + i / 4) + ",\"seq\":" + seq + (i == 7 ? "" : ",\"level\":\"info\"")
                    + ",\"msg\":\"m" + (i % 10) + "\"}");
        }
        records.add("{\"msg\":\"no time\"}");
        records.add("{\"time\":\"yesterday\",\"seq\":1,\"msg\":\"bad\"}");
        records.add("{\"time\":true,\"seq\":2,\"msg\":\"bad\"}");

        Suggestion suggestion = sample(records).suggest("app", "app", 4);

        assertThat(suggestion.timePath()).isEqualTo("time");
        assertThat(suggestion.timeFormats()).containsOnlyKeys("epoch-ms");
        assertThat(suggestion.key()).isEqualTo("bucket(8) | time:ts, seq:long");
        assertThat(suggestion.unique()).isTrue();
        assertThat(suggestion.outliers()).extracting(Suggestion.Outlier::reason,
                Suggestion.Outlier::records, Suggestion.Outlier::at).containsExactly(
                org.assertj.core.groups.Tuple.tuple("no time", 1L, List.of("#1000")),
                org.assertj.core.groups.Tuple.tuple("time is no time in epoch-ms (e.g. 'yesterday')", 2L,
                        List.of("#1001", "#1002")),
                org.assertj.core.groups.Tuple.tuple("no level, which 999 of 1000 records have", 1L, List.of("#7")),
                org.assertj.core.groups.Tuple.tuple("seq is text, where 999 of 1000 records have a whole number", 1L,
                        List.of("#500")));
    }

    @Test
    void shouldPartRecordsByAMessageWhereNoIdentityFieldCanAndByTheTimeWhereNothingElseCan() {
        // Fluent Bit tail lines: no id or offset; the line itself is unique, and free text: hashed.
        List<String> lines = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            lines.add("{\"@timestamp\":" + (1795334400 + i) + ".5,\"log\":\"GET /item/" + i + "\",\"stream\":\"stdout\"}");
        }
        Suggestion byLine = sample(lines).suggest("fb", "fb", 2);
        assertThat(byLine.key()).isEqualTo("bucket(8) | @timestamp:ts, log:md5");
        assertThat(byLine.unique()).isTrue();

        // Lines that repeat: nothing parts them without the time, so the time does, alone.
        List<String> repeated = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            repeated.add("{\"@timestamp\":" + (1795334400 + i) + ".5,\"log\":\"GET /health\",\"stream\":\"stdout\"}");
        }
        Suggestion byTime = sample(repeated).suggest("fb", "fb", 2);
        assertThat(byTime.key()).isEqualTo("bucket(8) | @timestamp:ts");
        assertThat(byTime.unique()).isFalse();
        assertThat(byTime.collisions()).isZero();
        assertThat(byTime.properties()).contains("# Keeps every sampled record apart only with the time");
    }

    @Test
    void shouldIndexAnOptionalHostSparselyOverEveryFieldThatNamesIt() {
        // Fluent Bit: the kubernetes filter's node, or a hostname record_modifier added, or no host at all.
        List<String> records = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String host = switch (i % 4) {
                case 1 -> ",\"hostname\":\"web-" + (i % 3) + "\"";
                case 3 -> ",\"kubernetes\":{\"host\":\"node-" + (i % 5) + "\",\"pod_name\":\"api-1\"}";
                default -> "";
            };
            records.add("{\"@timestamp\":\"2026-11-22T08:00:" + String.format("%02d", i) + ".000001Z\",\"log\":\"line "
                    + i + "\"" + host + (i % 2 == 0 ? ",\"stream\":\"stdout\"" : "") + "}");
        }

        Suggestion suggestion = sample(records).suggest("fb", "fb", 1);

        assertThat(suggestion.indexes()).containsExactly(new Suggestion.Index("host",
                "hostname | kubernetes.host:text, @timestamp:rts, log:md5", 20, 40));
        assertThat(suggestion.columns()).isEqualTo("log=log, hostname | kubernetes.host=host, *=f.*");
        assertThat(suggestion.properties()).contains("# Sparse: 20 of 40 sampled records have a row in it");
    }

    @Test
    void shouldReadTheCommonTimePatternsAndChooseTheSaltFromThePartitions() {
        assertThat(MappingSuggestion.timeFormatOf("t", "22/Nov/2026:08:00:00 +0000"))
                .isEqualTo("pattern:dd/MMM/yyyy:HH:mm:ss Z");
        assertThat(MappingSuggestion.timeFormatOf("t", "2026-11-22 08:00:00.123"))
                .isEqualTo("pattern:yyyy-MM-dd HH:mm:ss[.SSSSSSSSS][.SSSSSS][.SSS]");
        assertThat(MappingSuggestion.timeFormatOf("t", "2026-11-22T08:00:00.123456"))
                .isEqualTo("pattern:yyyy-MM-dd'T'HH:mm:ss[.SSSSSSSSS][.SSSSSS][.SSS]");
        assertThat(MappingSuggestion.timeFormatOf("t", "Sun, 22 Nov 2026 08:00:00 +0000"))
                .isEqualTo("pattern:EEE, d MMM yyyy HH:mm:ss Z");
        assertThat(MappingSuggestion.timeFormatOf("t", "2026-11-22T08:00:00+01:00")).isEqualTo("iso8601");
        List<String> records = List.of("{\"t\":\"2026-11-22T08:00:00Z\",\"id\":1}", "{\"t\":\"2026-11-22T08:00:01Z\",\"id\":2}");
        assertThat(sample(records).suggest("a", "a", 3).key()).isEqualTo("bucket(8) | t:ts, id:long");
        assertThat(sample(records).suggest("a", "a", 24).key()).isEqualTo("bucket(24) | t:ts, id:long");
    }

    @Test
    void shouldChooseFromTheMajorityShapeSoThatAMalformedRecordTipsNoChoice() {
        // Filebeat writes host.name and host.hostname alike; one malformed record has only host.hostname. Counted
        // with the others it would make host.hostname the more frequent; left out, ECS's host.name leads.
        List<String> filebeat = new java.util.ArrayList<>();
        for (int i = 0; i < 300; i++) {
            filebeat.add("{\"@timestamp\":\"2026-11-22T08:00:00." + String.format("%03d", i) + "Z\",\"host\":{"
                    + "\"name\":\"web-" + (i % 3) + "\",\"hostname\":\"web-" + (i % 3) + "\"},\"log\":{\"offset\":" + i
                    + "},\"message\":\"line " + i + "\"}");
        }
        filebeat.add("{\"@timestamp\":\"2026-11-22T08:00:01Z\",\"host\":{\"hostname\":\"odd\"},\"log\":{\"offset\":1},"
                + "\"message\":\"malformed\"}");

        Suggestion suggestion = sample(filebeat).suggest("filebeat", "filebeat", 1);

        assertThat(suggestion.indexes()).extracting(Suggestion.Index::key).containsExactly(
                "host.name:text, @timestamp:rts, log.offset:long");
        assertThat(suggestion.outliers()).extracting(Suggestion.Outlier::reason, Suggestion.Outlier::at)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("no host.name, which 300 of 301 records have",
                        List.of("#300")));

        // Vector writes host as text; one malformed record has a host object. No fallback is built from it.
        List<String> vector = new java.util.ArrayList<>();
        for (int i = 0; i < 300; i++) {
            vector.add("{\"timestamp\":\"2026-11-22T08:00:00." + String.format("%03d", i) + "Z\",\"host\":\"web-"
                    + (i % 3) + "\",\"message\":\"line " + i + "\"}");
        }
        vector.add("{\"timestamp\":\"2026-11-22T08:00:01Z\",\"host\":{\"name\":\"odd\"},\"message\":\"malformed\"}");

        Suggestion fromVector = sample(vector).suggest("vector", "vector", 1);

        assertThat(fromVector.indexes()).extracting(Suggestion.Index::key).containsExactly(
                "host:text, timestamp:rts, message:md5");
        assertThat(fromVector.key()).isEqualTo("bucket(8) | timestamp:ts, message:md5");
        assertThat(fromVector.outliers()).extracting(Suggestion.Outlier::reason).containsExactly(
                "host is an object, where 300 of 301 records have text");
    }

    private static String line(String time, String host, String file, long offset, String message) {
        return "{\"@timestamp\":\"" + time + "\",\"host\":{\"name\":\"" + host + "\"},\"log\":{\"file\":{\"path\":\""
                + file + "\"},\"offset\":" + offset + "},\"message\":\"" + message + "\"}";
    }

    @Test
    void shouldKeyChangeEventsByTheirPrimaryKeyAndTellWholeBeforeImagesFromPartialOnes() {
        MappingSuggestion suggestion = new MappingSuggestion();
        for (long id = 1; id <= 30; id++) {
            suggestion.addChange(order(id, "new"), Map.of("id", id), "c", null, Map.of(), "0@" + id);
        }
        for (long id = 1; id <= 10; id++) {
            suggestion.addChange(order(id, "paid"), Map.of("id", id), "u", order(id, "new"), Map.of(), "1@" + id);
        }
        suggestion.addChange(order(3, "paid"), Map.of("id", 3L), "d", order(3, "paid"), Map.of(), "1@11");
        suggestion.addRefused("op is not an operation rowflow applies to rows", "1@12");

        Suggestion whole = suggestion.suggest("orders", "shop.public.orders", 3);

        assertThat(whole.key()).isEqualTo("bucket(8) | id:long");
        assertThat(whole.timePath()).isEqualTo("$source.ts_ms");
        assertThat(whole.beforeImage()).isEqualTo("full");
        assertThat(whole.indexes()).containsExactly(new Suggestion.Index("customer", "customer_id:long, id:long",
                41, 41));
        assertThat(whole.outliers()).extracting(Suggestion.Outlier::reason)
                .containsExactly("op is not an operation rowflow applies to rows");
        assertThat(whole.records()).isEqualTo(42);
        assertThat(whole.properties()).contains("input.orders.envelope=debezium\n", "input.orders.before.image=full\n",
                "input.orders.time=$source.ts_ms\n", "input.orders.columns=*\n");

        // PostgreSQL's default replica identity: an update's before image holds nothing, a delete's the key only.
        suggestion.addChange(order(4, "shipped"), Map.of("id", 4L), "u", null, Map.of(), "1@13");
        assertThat(suggestion.suggest("orders", "shop.public.orders", 3).beforeImage()).isEqualTo("partial");
    }

    private static Map<String, Object> order(long id, String status) {
        Map<String, Object> row = new java.util.LinkedHashMap<>();
        row.put("id", id);
        row.put("customer_id", id % 7);
        row.put("status", status);
        row.put("total", "12.50");
        return row;
    }
}
