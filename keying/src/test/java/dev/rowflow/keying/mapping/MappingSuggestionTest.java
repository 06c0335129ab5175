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
    void shouldFindTheTimeAndTheFewestFieldsThatKeepFilebeatLinesApart() {
        // Filebeat: two lines of one file in one millisecond; the offset parts them, the host alone does not.
        List<String> lines = List.of(
                line("2026-11-22T08:00:00.123Z", "web-1", "/var/log/a.log", 100, "GET /"),
                line("2026-11-22T08:00:00.123Z", "web-1", "/var/log/a.log", 180, "GET /x"),
                line("2026-11-22T08:00:00.124Z", "web-2", "/var/log/a.log", 100, "GET /"),
                line("2026-11-22T08:00:00.124Z", "web-1", "/var/log/b.log", 100, "POST /"));

        MappingSuggestion.Suggestion suggestion = sample(lines).suggest("filebeat", "filebeat", 3);

        assertThat(suggestion.timePath()).isEqualTo("@timestamp");
        assertThat(suggestion.timeFormats()).containsOnlyKeys("iso8601");
        assertThat(suggestion.collisions()).isZero();
        assertThat(suggestion.key()).isEqualTo("bucket(8) | @timestamp:ts, host.name:text, log.offset:long");
        assertThat(suggestion.index()).isEqualTo("host.name:text, @timestamp:rts, log.offset:long");
        assertThat(suggestion.fields()).extracting(MappingSuggestion.Field::path)
                .contains("@timestamp", "host.name", "log.file.path", "log.offset", "message");
    }

    @Test
    void shouldTakeAHostThatOlderAgentsWriteAsTextAndNewerOnesAsAnObjectAsAFallback() {
        // Filebeat before 7 wrote "host":"web-1", ECS agents write "host":{"name":"web-1"}.
        List<String> records = List.of(
                "{\"@timestamp\":\"2026-11-22T08:00:00.001Z\",\"host\":{\"name\":\"web-1\"},\"message\":\"a\"}",
                "{\"@timestamp\":\"2026-11-22T08:00:00.001Z\",\"host\":{\"name\":\"web-2\"},\"message\":\"a\"}",
                "{\"@timestamp\":\"2026-11-22T08:00:00.001Z\",\"host\":\"web-3\",\"message\":\"a\"}");

        MappingSuggestion.Suggestion suggestion = sample(records).suggest("beats", "beats", 1);

        assertThat(suggestion.key()).isEqualTo("bucket(8) | @timestamp:ts, host.name | host:text");
        assertThat(suggestion.index()).isEqualTo("host.name | host:text, @timestamp:rts");
        assertThat(suggestion.columns()).isEqualTo("host.name | host, *=f.*");
        assertThat(suggestion.collisions()).isZero();
    }

    @Test
    void shouldListEveryTimeFormatTheSampleNeedsMostFirstAndTellEpochUnitsByMagnitude() {
        List<String> records = List.of("{\"ts\":1795334400.5,\"msg\":\"a\"}", "{\"ts\":1795334401.25,\"msg\":\"b\"}",
                "{\"ts\":\"2026-11-22T08:00:02Z\",\"msg\":\"c\"}", "{\"ts\":1795334403,\"msg\":\"d\"}");

        MappingSuggestion.Suggestion suggestion = sample(records).suggest("fluentbit", "fluent", 12);

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

        MappingSuggestion.Suggestion suggestion = sample(records).suggest("plain", "plain", 1);

        assertThat(suggestion.timePath()).isNull();
        assertThat(suggestion.key()).isEqualTo("bucket(8) | $timestamp:ts, msg:md5");
        assertThat(suggestion.properties()).contains("input.plain.time=$timestamp", "input.plain.key=bucket(8) | "
                + "$timestamp:ts, msg:md5", "input.plain.columns=*=f.*");
    }

    @Test
    void shouldQuoteNamesAPathCannotHoldAndReportWhatNoFieldCanPart() {
        assertThat(MappingSuggestion.step("log.level")).isEqualTo("log.level");
        assertThat(MappingSuggestion.step("a b")).isEqualTo("\"a b\"");
        assertThat(MappingSuggestion.step("$id")).isEqualTo("\"$id\"");
        assertThat(MappingSuggestion.step("200")).isEqualTo("\"200\"");
        List<String> twins = List.of("{\"ts\":\"2026-11-22T08:00:00Z\",\"a\":\"x\",\"n\":[1]}",
                "{\"ts\":\"2026-11-22T08:00:00Z\",\"a\":\"x\",\"n\":[2]}");

        MappingSuggestion.Suggestion suggestion = sample(twins).suggest("t", "t", 1);

        assertThat(suggestion.collisions()).isEqualTo(1);
        assertThat(suggestion.properties()).contains("# 1 sampled records still share a key with another");
    }

    private static String line(String time, String host, String file, long offset, String message) {
        return "{\"@timestamp\":\"" + time + "\",\"host\":{\"name\":\"" + host + "\"},\"log\":{\"file\":{\"path\":\""
                + file + "\"},\"offset\":" + offset + "},\"message\":\"" + message + "\"}";
    }
}
