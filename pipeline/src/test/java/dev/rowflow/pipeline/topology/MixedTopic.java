package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.Refusal;
import dev.rowflow.pipeline.config.RowflowConfig;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A topic two declared inputs share, with the ugly records users' topics have: events (a salted,
 * time-led key over a text host and a long offset, a host index, an hourly summary, deletes on
 * {@code deleted = true}) and audits (a hashed user), each taking records by {@code kind}; a record
 * neither takes is set aside ({@code unrouted=dead-letter}); cells over 2 KiB are refused as the
 * store would ({@code hbase.client.keyvalue.maxsize}).
 */
final class MixedTopic {
    static final String TOPIC = "mixed";
    static final long T = Instant.parse("2026-11-22T08:00:00.123Z").toEpochMilli();
    static final int MAX_CELL = 2048;

    private MixedTopic() {
    }

    /** A record, and the kind of refusal the pipeline must set it aside with (null: none). */
    record Sample(String why, byte[] key, byte[] value, Refusal refusal) {
        @Override
        public String toString() {
            return why + ": " + (value == null ? "(tombstone)" : new String(value, StandardCharsets.UTF_8));
        }
    }

    static RowflowConfig config() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("kafka.bootstrap.servers", "unused:9092");
        props.put("pipelines", "");
        props.put("inputs", "events,audits");
        props.put("hbase.client.keyvalue.maxsize", Integer.toString(MAX_CELL));
        props.put("input.events.topic", TOPIC);
        props.put("input.events.where", "kind in ('event', 'both')");
        props.put("input.events.unrouted", "dead-letter");
        props.put("input.events.tombstones", "ignore");
        props.put("input.events.time", "@timestamp");
        props.put("input.events.key", "bucket(4) | @timestamp:ts, host.name:text, log.offset:long");
        props.put("input.events.columns", "message=m, host.name=h, log.offset=o, *=f.*");
        props.put("input.events.indexes", "host");
        props.put("input.events.index.host.key", "host.name:text, @timestamp:rts, log.offset:long");
        props.put("input.events.delete.when", "deleted = true");
        props.put("input.events.summary.key", "host.name:text, @timestamp:ts");
        props.put("input.events.summary.period.seconds", "3600");
        props.put("input.audits.topic", TOPIC);
        props.put("input.audits.where", "kind in ('audit', 'both')");
        props.put("input.audits.unrouted", "dead-letter");
        props.put("input.audits.tombstones", "ignore");
        props.put("input.audits.time", "@timestamp");
        props.put("input.audits.key", "user:md5, @timestamp:ts");
        props.put("input.audits.columns", "user=u, message=m");
        return new RowflowConfig(props);
    }

    static DecisionDifferential open() {
        return new DecisionDifferential(config(), TOPIC, TOPIC + ".dead-letter");
    }

    /** Hand-picked records, every kind of trouble once. */
    static List<Sample> samples() {
        String ts = "\"@timestamp\":\"2026-11-22T08:00:00.123Z\"";
        List<Sample> samples = new ArrayList<>();
        samples.add(json("an event", "{" + ts + ",\"kind\":\"event\",\"host\":{\"name\":\"web-01\"},\"log\":{\"offset\":7},"
                + "\"message\":\"GET / 200\"}", null));
        samples.add(json("a number as the text host", "{" + ts + ",\"kind\":\"event\",\"host\":{\"name\":42},"
                + "\"log\":{\"offset\":7}}", null));
        samples.add(json("a boolean as the text host", "{" + ts + ",\"kind\":\"event\",\"host\":{\"name\":true},"
                + "\"log\":{\"offset\":7}}", null));
        samples.add(json("an empty host", "{" + ts + ",\"kind\":\"event\",\"host\":{\"name\":\"\"},\"log\":{\"offset\":7}}",
                Refusal.EMPTY));
        samples.add(json("200.0 for the long offset", "{" + ts + ",\"kind\":\"event\",\"host\":{\"name\":\"w\"},"
                + "\"log\":{\"offset\":200.0}}", null));
        samples.add(json("2.5 for the long offset", "{" + ts + ",\"kind\":\"event\",\"host\":{\"name\":\"w\"},"
                + "\"log\":{\"offset\":2.5}}", Refusal.WRONG_KIND));
        samples.add(json("text for the long offset", "{" + ts + ",\"kind\":\"event\",\"host\":{\"name\":\"w\"},"
                + "\"log\":{\"offset\":\"200\"}}", Refusal.WRONG_KIND));
        samples.add(json("a NUL in the host", "{" + ts + ",\"kind\":\"event\",\"host\":{\"name\":\"a\\u0000b\"},"
                + "\"log\":{\"offset\":1}}", Refusal.NOT_ENCODABLE));
        samples.add(json("unicode", "{" + ts + ",\"kind\":\"event\",\"host\":{\"name\":\"h\u00f6st-\ud83d\ude00\"},"
                + "\"log\":{\"offset\":1},\"message\":\"\u00e9\u4e2d\"}", null));
        samples.add(json("a message over the cell limit", "{" + ts + ",\"kind\":\"event\",\"host\":{\"name\":\"w\"},"
                + "\"log\":{\"offset\":1},\"message\":\"" + "x".repeat(MAX_CELL) + "\"}", Refusal.TOO_LARGE));
        samples.add(json("no time", "{\"kind\":\"event\",\"host\":{\"name\":\"w\"},\"log\":{\"offset\":1}}", Refusal.MISSING));
        samples.add(json("a null host", "{" + ts + ",\"kind\":\"event\",\"host\":{\"name\":null},\"log\":{\"offset\":1}}",
                Refusal.NULL));
        samples.add(json("an object as the host", "{" + ts + ",\"kind\":\"event\",\"host\":{\"name\":{\"a\":1}},"
                + "\"log\":{\"offset\":1}}", Refusal.WRONG_KIND));
        samples.add(json("a delete", "{" + ts + ",\"kind\":\"event\",\"deleted\":true,\"host\":{\"name\":\"w\"},"
                + "\"log\":{\"offset\":1}}", null));
        samples.add(json("a delete without its key", "{" + ts + ",\"kind\":\"event\",\"deleted\":true}", Refusal.MISSING));
        samples.add(json("no kind: no input takes it", "{" + ts + ",\"host\":{\"name\":\"w\"},\"log\":{\"offset\":1}}",
                Refusal.UNROUTED));
        samples.add(json("an audit", "{" + ts + ",\"kind\":\"audit\",\"user\":\"ann\",\"message\":\"login\"}", null));
        samples.add(json("both, good for both", "{" + ts + ",\"kind\":\"both\",\"user\":\"ann\",\"host\":{\"name\":\"w\"},"
                + "\"log\":{\"offset\":3}}", null));
        samples.add(json("both, the audit without its user", "{" + ts + ",\"kind\":\"both\",\"host\":{\"name\":\"w\"},"
                + "\"log\":{\"offset\":3}}", Refusal.MISSING));
        samples.add(json("deep nesting", "{" + ts + ",\"kind\":\"event\",\"host\":{\"name\":\"w\"},\"log\":{\"offset\":4},"
                + "\"d\":" + "{\"x\":".repeat(300) + "1" + "}".repeat(300) + "}", Refusal.UNREADABLE));
        samples.add(json("not JSON", "{\"@timestamp\":", Refusal.UNREADABLE));
        samples.add(json("a JSON array", "[1,2]", Refusal.UNREADABLE));
        samples.add(new Sample("a tombstone", "k".getBytes(StandardCharsets.UTF_8), null, null));
        return samples;
    }

    private static Sample json(String why, String json, Refusal refusal) {
        return new Sample(why, null, json.getBytes(StandardCharsets.UTF_8), refusal);
    }
}
