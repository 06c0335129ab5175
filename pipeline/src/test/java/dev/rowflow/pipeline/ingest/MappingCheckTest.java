package dev.rowflow.pipeline.ingest;

import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.sinks.hbase.RowLimits;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code rowflow mapping check}'s judgement of sampled records, as the pipeline would judge them. */
class MappingCheckTest {
    /** The store's limits with the HBase client's defaults. */
    private static final RowLimits LIMITS = RowLimits.of(new org.apache.hadoop.conf.Configuration(false));
    private static final String LINE = "{\"@timestamp\":\"2026-11-22T08:00:0%d.000Z\",\"host\":{\"name\":\"%s\"},"
            + "\"log\":{\"level\":\"%s\"},\"message\":\"%s\"}";

    private static PipelinePlan plan(String key) {
        Map<String, String> props = new HashMap<>(Map.of("kafka.bootstrap.servers", "unused:9092", "pipelines", "",
                "inputs", "errors, lines",
                "input.errors.topic", "app", "input.errors.where", "log.level = 'error'",
                "input.errors.time", "@timestamp", "input.errors.key", "host.name:text, @timestamp:rts",
                "input.errors.columns", "message=m"));
        props.putAll(Map.of("input.lines.topic", "app", "input.lines.where", "log.level = 'info'",
                "input.lines.time", "@timestamp", "input.lines.key", key));
        props.put("input.lines.columns", "message=m, host.name=h");
        return PipelinePlan.build(new RowflowConfig(props), null);
    }

    private static MappingCheck.Sampled record(long offset, String value) {
        return new MappingCheck.Sampled(0, offset, 1_795_334_410_000L, null, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldWarnOfKeyPartsNoSampledRecordHasThoughAWildcardColumnTakesEveryField() {
        // A typo in an index's lead: with a * column and when.missing=skip, nothing else would ever say so.
        Map<String, String> props = new HashMap<>(Map.of("kafka.bootstrap.servers", "unused:9092", "pipelines", "",
                "inputs", "web", "input.web.topic", "app", "input.web.time", "@timestamp",
                "input.web.key", "bucket(4) | @timestamp:ts, message:md5", "input.web.columns", "message=m, *=f.*",
                "input.web.indexes", "host", "input.web.index.host.key", "host.nmae:text, @timestamp:rts",
                "input.web.index.host.when.missing", "skip"));
        try (PipelinePlan plan = PipelinePlan.build(new RowflowConfig(props), null)) {
            MappingCheck check = new MappingCheck("app", MappingCheck.inputsOf(plan, "app"), LIMITS);
            for (int i = 0; i < 3; i++) {
                check.add(record(i, String.format(LINE, i, "web-1", "info", "m" + i)));
            }

            MappingCheck.Report report = check.report();

            assertThat(report.good()).isEqualTo(3);
            assertThat(report.warnings()).containsExactly("input web, key of web.index.host, part 'host.nmae:text': "
                    + "no sampled record has host.nmae");
        }
    }

    @Test
    void shouldCountRowsDeadLettersByReasonUnroutedRecordsAndKeyCollisions() {
        try (PipelinePlan plan = plan("bucket(4) | @timestamp:ts, host.name:text")) {
            MappingCheck check = new MappingCheck("app", MappingCheck.inputsOf(plan, "app"), LIMITS);
            List<String> values = new java.util.ArrayList<>(List.of(
                    String.format(LINE, 1, "web-1", "info", "a"),
                    String.format(LINE, 1, "web-1", "info", "a"),      // sent again: a duplicate
                    String.format(LINE, 1, "web-1", "info", "b"),      // same host and time: a collision
                    String.format(LINE, 2, "web-2", "info", "c"),
                    String.format(LINE, 3, "web-1", "error", "disk"),
                    String.format(LINE, 4, "web-1", "debug", "x"),     // no input takes it
                    String.format(LINE, 5, "", "info", "empty host"),  // a key part empty
                    String.format(LINE, 6, "", "info", "empty host"),
                    "not json"));
            for (int i = 0; i < values.size(); i++) {
                check.add(record(i, values.get(i)));
            }
            check.add(record(values.size(), null));                  // a tombstone

            MappingCheck.Report report = check.report();

            assertThat(report.records()).isEqualTo(10);
            assertThat(report.unrouted()).isEqualTo(1);
            assertThat(report.good()).isEqualTo(5);
            assertThat(report.collisions()).isEqualTo(1);
            MappingCheck.InputReport lines = report.inputs().get(1);
            assertThat(lines.input()).isEqualTo("lines");
            assertThat(lines.dataRows()).isEqualTo(4);
            assertThat(lines.duplicates()).isEqualTo(1);
            assertThat(lines.collisionAt()).isEqualTo("0@0 and 0@2");
            assertThat(lines.deadLetters()).isEqualTo(2);
            assertThat(report.inputs().get(0).dataRows()).isEqualTo(1);
            assertThat(report.inputs().get(0).rows()).isEqualTo(1);
            assertThat(report.deadLetters()).extracting(MappingCheck.Reason::records).containsExactly(2L, 1L, 1L);
            assertThat(report.deadLetters().get(0).reason()).isEqualTo("invalid host.name: must not be empty");
            assertThat(report.deadLetters().get(0).firstAt()).isEqualTo("0@6");
            assertThat(report.deadLetters().get(1).reason()).startsWith("invalid value: is not valid JSON");
            assertThat(report.deadLetters().get(2).reason()).contains("carries no tombstones");
        }
    }

    @Test
    void shouldLeaveThePipelinesCountOfSkippedIndexRowsAlone() {
        Map<String, String> props = new HashMap<>(Map.of("kafka.bootstrap.servers", "unused:9092", "pipelines", "",
                "inputs", "lines", "input.lines.topic", "app", "input.lines.time", "@timestamp",
                "input.lines.key", "bucket(4) | @timestamp:ts, message:text",
                "input.lines.columns", "message=m, log.level=l", "input.lines.indexes", "level",
                "input.lines.index.level.key", "log.level:text, @timestamp:rts"));
        try (PipelinePlan plan = PipelinePlan.build(new RowflowConfig(props), null)) {
            DeclaredInput input = plan.declaredInput("lines").orElseThrow();
            MappingCheck check = new MappingCheck("app", List.of(input), LIMITS);
            check.add(record(0, "{\"@timestamp\":\"2026-11-22T08:00:01.000Z\",\"message\":\"no level\"}"));
            check.add(record(1, String.format(LINE, 2, "web-1", "info", "a")));

            assertThat(check.report().inputs().get(0).rows()).isEqualTo(3);
            // The record without a level is the check's: the pipeline has written nothing it could count.
            assertThat(input.mapping().indexRowsSkipped("level")).isZero();
        }
    }

    @Test
    void shouldRunTheSuggestedDeclarationAsItIsAndFindEverySampledRecordARowOfItsOwn() throws Exception {
        List<String> sampled = new java.util.ArrayList<>();
        for (int i = 0; i < 300; i++) {
            // Filebeat lines of three hosts, ten to a millisecond; a tenth from an older agent that writes the host as
            // text, a seventh without log.level.
            String level = i % 7 == 0 ? "" : ",\"log\":{\"level\":\"info\"}";
            sampled.add("{\"@timestamp\":\"2026-11-22T08:00:0" + (i / 100) + "." + String.format("%03d", i / 10)
                    + "Z\",\"host\":" + (i % 10 == 0 ? "\"web-" + (i % 3) + "\"" : "{\"name\":\"web-" + (i % 3) + "\"}")
                    + ",\"log.offset\":" + (i * 120) + level
                    + ",\"message\":\"GET /" + (i % 5) + "\"}");
        }
        dev.rowflow.keying.mapping.MappingSuggestion suggestion = new dev.rowflow.keying.mapping.MappingSuggestion();
        sampled.forEach(json -> suggestion.add(dev.rowflow.keying.mapping.RecordTree.parseJson(
                json.getBytes(StandardCharsets.UTF_8))));
        dev.rowflow.keying.mapping.Suggestion suggested = suggestion.suggest("web", "web-logs", 2);
        java.util.Properties declared = new java.util.Properties();
        declared.load(new java.io.StringReader(suggested.properties()));
        Map<String, String> props = new HashMap<>(Map.of("kafka.bootstrap.servers", "unused:9092", "pipelines", ""));
        declared.stringPropertyNames().forEach(key -> props.put(key, declared.getProperty(key)));

        try (PipelinePlan plan = PipelinePlan.build(new RowflowConfig(props), null)) {
            MappingCheck check = new MappingCheck("web-logs", MappingCheck.inputsOf(plan, "web-logs"), LIMITS);
            for (int i = 0; i < sampled.size(); i++) {
                check.add(record(i, sampled.get(i)));
            }

            assertThat(suggested.collisions()).isZero();
            assertThat(suggested.indexes().get(0).key()).startsWith("host.name | host:text, @timestamp:rts");
            assertThat(check.report().good()).isEqualTo(300);
            assertThat(check.report().collisions()).isZero();
            assertThat(check.report().inputs().get(0).rows()).isEqualTo(600); // a data row and a host index row each
        }
    }

    @Test
    void shouldFindNoCollisionOnceTheKeyKeepsTheRecordsApart() {
        try (PipelinePlan plan = plan("bucket(4) | @timestamp:ts, host.name:text, message:md5")) {
            MappingCheck check = new MappingCheck("app", MappingCheck.inputsOf(plan, "app"), LIMITS);
            check.add(record(0, String.format(LINE, 1, "web-1", "info", "a")));
            check.add(record(1, String.format(LINE, 1, "web-1", "info", "b")));

            assertThat(check.report().collisions()).isZero();
            assertThat(check.report().good()).isEqualTo(2);
        }
    }
}
