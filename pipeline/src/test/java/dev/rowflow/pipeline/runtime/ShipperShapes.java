package dev.rowflow.pipeline.runtime;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Records as each log shipper writes them to a Kafka topic, in every shape and time format of its
 * versions and settings, {@link #EVENTS} of them spread over 90 minutes, with bad records of the
 * shipper's shape.
 */
public final class ShipperShapes {
    public static final int EVENTS = 600;
    public static final long BASE = Instant.parse("2026-11-22T07:30:00Z").toEpochMilli();

    private ShipperShapes() {
    }

    /**
     * One shipper's records: the JSON of record i, and what rowflow must make of it: the key parts
     * of its data row and of its index row (null: none, a sparse index), its message and host
     * (column {@code h}; null: no cell); and bad records of its shape, each with the reason it is
     * set aside with.
     */
    public record Shipper(String recipe, IntFunction<String> json, IntFunction<Long> time,
                           IntFunction<Object[]> dataKey, IntFunction<Object[]> indexKey, IntFunction<String> message,
                           IntFunction<String> host, Map<String, String> bad) {
    }

    static String host(int i) {
        return String.format("web-%02d", i % 7);
    }

    static long millis(int i) {
        return BASE + i * 9_001L; // 600 records over 90 minutes: two summary hours
    }

    /** The {@code event.dataset} of Filebeat record {@code i}: module events only have one. */
    static String filebeatDataset(int i) {
        return i % 4 != 0 ? "generic" : i % 8 == 0 ? "nginx.access" : "system.syslog";
    }

    /** The {@code log.level} of Filebeat record {@code i}, flat with a dot or nested; null: none. */
    static String filebeatLevel(int i) {
        return i % 4 == 2 ? "warn" : i % 4 == 3 ? "error" : null;
    }

    /** Filebeat: module events, plain lines, ndjson merged flat (with dots) and nested. */
    public static Shipper filebeat() {
        // Four shapes on one topic, in turn: a module event (event.dataset, fileset), a plain line of the
        // filestream input, and an ndjson line whose application keys are merged at the top (target: "")
        // flat with their dots, or nested (expand_keys: true).
        IntFunction<String> dataset = ShipperShapes::filebeatDataset;
        IntFunction<String> path = i -> "/var/log/app-" + (i % 2) + ".log";
        IntFunction<String> beat = i -> "\"@timestamp\":\"" + Instant.ofEpochMilli(millis(i)) + "\",\"agent\":{"
                + "\"type\":\"filebeat\",\"version\":\"8.15.0\",\"name\":\"" + host(i) + "\"},\"ecs\":{\"version\":"
                + "\"8.0.0\"},\"host\":{\"name\":\"" + host(i) + "\",\"os\":{\"family\":\"debian\"}},";
        IntFunction<String> logFile = i -> "\"file\":{\"path\":\"" + path.apply(i) + "\",\"inode\":\"1234\","
                + "\"device_id\":\"2049\"},\"offset\":" + i * 100L;
        return new Shipper("filebeat",
                i -> switch (i % 4) {
                    case 0 -> "{" + beat.apply(i) + "\"event\":{\"dataset\":\"" + dataset.apply(i) + "\",\"module\":\""
                            + dataset.apply(i).split("\\.")[0] + "\",\"timezone\":\"+00:00\"},\"fileset\":{\"name\":\""
                            + dataset.apply(i).split("\\.")[1] + "\"},\"input\":{\"type\":\"log\"},\"log\":{" + logFile.apply(i)
                            + "},\"service\":{\"type\":\"nginx\"},\"message\":\"line " + i + " \\u00e9\",\"tags\":[\"beats\",\"prod\"]}";
                    case 1 -> "{" + beat.apply(i) + "\"input\":{\"type\":\"filestream\"},\"log\":{" + logFile.apply(i)
                            + "},\"message\":\"line " + i + " \\u00e9\",\"tags\":[\"beats\",\"prod\"]}";
                    case 2 -> "{" + beat.apply(i) + "\"input\":{\"type\":\"filestream\"},\"log\":{" + logFile.apply(i)
                            + "},\"log.level\":\"warn\",\"service.name\":\"shop\",\"trace.id\":\"t" + i
                            + "\",\"message\":\"line " + i + " \\u00e9\",\"tags\":[\"beats\",\"prod\"]}";
                    default -> "{" + beat.apply(i) + "\"input\":{\"type\":\"filestream\"},\"log\":{\"level\":\"error\","
                            + logFile.apply(i) + "},\"service\":{\"name\":\"shop\"},\"trace\":{\"id\":\"t" + i
                            + "\"},\"message\":\"line " + i + " \\u00e9\",\"tags\":[\"beats\",\"prod\"]}";
                },
                ShipperShapes::millis,
                i -> new Object[] {millis(i), host(i), path.apply(i), i * 100L},
                i -> new Object[] {host(i), dataset.apply(i), millis(i), path.apply(i), i * 100L},
                i -> "line " + i + " \u00e9",
                ShipperShapes::host,
                Map.of("{\"@timestamp\":\"2026-11-22T08:00:00.000Z\",\"log\":{\"file\":{\"path\":\"/x\"},\"offset\":1},"
                                + "\"message\":\"no host\"}", "invalid host.name null: is missing: it is part of the row key",
                        "{\"@timestamp\":\"2026-11-22T08:00:00.000Z\",\"host\":{\"name\":\"h\"},\"log\":{\"file\":{"
                                + "\"path\":\"/x\"},\"offset\":\"12a\"},\"message\":\"m\"}",
                        "invalid log.offset '12a': is text, where a whole number is expected"));

    }

    /** Logstash: a topic across the 7 -> 8 upgrade. */
    public static Shipper logstash() {
        // A topic across the 7 -> 8 upgrade, in turn: ecs_compatibility disabled (host and path strings), ECS v8
        // (host.name, log.file.path, event.original; @timestamp with microseconds), and Filebeat events passed
        // through the beats input (host an object, tags).
        IntFunction<String> time = i -> i % 3 == 1 ? Instant.ofEpochMilli(millis(i)).plusNanos(321_000).toString()
                : Instant.ofEpochMilli(millis(i)).toString();
        return new Shipper("logstash",
                i -> switch (i % 3) {
                    case 0 -> "{\"@timestamp\":\"" + time.apply(i) + "\",\"@version\":\"1\",\"host\":\"" + host(i)
                            + "\",\"path\":\"/var/log/app.log\",\"type\":\"app\",\"message\":\"request " + i + "\"}";
                    case 1 -> "{\"@timestamp\":\"" + time.apply(i) + "\",\"@version\":\"1\",\"host\":{\"name\":\""
                            + host(i) + "\"},\"log\":{\"file\":{\"path\":\"/var/log/app.log\"}},\"event\":{\"original\":"
                            + "\"request " + i + "\"},\"type\":\"app\",\"message\":\"request " + i + "\"}";
                    default -> "{\"@timestamp\":\"" + time.apply(i) + "\",\"@version\":\"1\",\"agent\":{\"type\":"
                            + "\"filebeat\",\"version\":\"8.15.0\"},\"ecs\":{\"version\":\"8.0.0\"},\"host\":{\"name\":\""
                            + host(i) + "\",\"hostname\":\"" + host(i) + "\",\"architecture\":\"x86_64\"},\"input\":{"
                            + "\"type\":\"log\"},\"log\":{\"file\":{\"path\":\"/var/log/app.log\"},\"offset\":" + i * 80
                            + "},\"tags\":[\"beats_input_codec_plain_applied\"],\"event\":{\"original\":\"request " + i
                            + "\"},\"message\":\"request " + i + "\"}";
                },
                ShipperShapes::millis,
                i -> new Object[] {millis(i), host(i), "request " + i},
                i -> new Object[] {host(i), millis(i), "request " + i},
                i -> "request " + i,
                ShipperShapes::host,
                Map.of("{\"@timestamp\":\"22/Nov/2026:08:00:00 +0000\",\"host\":\"h\",\"message\":\"m\"}",
                        "invalid @timestamp '22/Nov/2026:08:00:00 +0000': not an ISO-8601 time with an offset",
                        "{\"@timestamp\":\"2026-11-22T08:00:00.000Z\",\"host\":{\"ip\":[\"10.0.0.1\"]},\"message\":\"m\"}",
                        "invalid host.name | host '{\"ip\":[\"10.0.0.1\"]}': is an object, where text is expected"));
    }

    /** Fluent Bit: tail, docker and CRI lines in two time formats, hosts optional. */
    public static Shipper fluentBit() {
        // Epoch seconds with microseconds, as Fluent Bit's double timestamps carry them; every third
        // record ISO-8601 text with microseconds, as after Timestamp_Format iso8601 is set. In turn: a tail
        // line without and with the hostname record_modifier adds, a docker line (its newline kept), and a
        // CRI line enriched by the kubernetes filter.
        IntFunction<String> timestamp = i -> i % 3 == 0
                ? "\"" + Instant.ofEpochMilli(millis(i)).plusNanos(456_000) + "\""
                : BigDecimal.valueOf(millis(i) * 1000 + 456, 6).toPlainString();
        IntFunction<String> namespace = i -> i % 8 == 3 ? "shop" : "billing";
        IntFunction<String> pod = i -> "api-" + (i % 5);
        IntFunction<String> line = i -> "GET /item/" + i + " 200" + (i % 4 == 2 ? "\n" : "");
        IntFunction<String> host = i -> switch (i % 4) {
            case 1 -> host(i);
            case 3 -> "node-" + (i % 3);
            default -> null;
        };
        return new Shipper("fluent-bit",
                i -> "{\"@timestamp\":" + timestamp.apply(i) + ",\"log\":\"" + line.apply(i).replace("\n", "\\n") + "\""
                        + switch (i % 4) {
                    case 0 -> "}";
                    case 1 -> ",\"hostname\":\"" + host(i) + "\"}";
                    case 2 -> ",\"stream\":\"stdout\"}";
                    default -> ",\"stream\":\"stdout\",\"logtag\":\"F\",\"kubernetes\":{\"pod_name\":\"" + pod.apply(i)
                            + "\",\"namespace_name\":\"" + namespace.apply(i) + "\",\"pod_id\":\"7d1c3f0e-" + i
                            + "\",\"labels\":{\"app\":\"api\",\"app.kubernetes.io/name\":\"api\"},\"host\":\""
                            + host.apply(i) + "\",\"container_name\":\"api\",\"docker_id\":\"4f1e" + i
                            + "\",\"container_image\":\"shop/api:1.4\"}}";
                },
                ShipperShapes::millis,
                i -> new Object[] {millis(i), i % 4 == 3 ? pod.apply(i) : i % 4 == 1 ? host(i) : "-", line.apply(i)},
                i -> i % 4 == 3 ? new Object[] {namespace.apply(i), pod.apply(i), millis(i), line.apply(i)} : null,
                line,
                host,
                Map.of("{\"@timestamp\":\"22/Nov/2026:08:00:00 +0000\",\"log\":\"m\"}",
                        "invalid @timestamp '22/Nov/2026:08:00:00 +0000': matches none of the time formats epoch-s, iso8601",
                        "{\"@timestamp\":1795334400.5,\"log\":null,\"hostname\":\"h\"}",
                        "invalid log null: is null: it is part of the row key"));
    }

    /** Vector: file events with and without offsets, application JSON merged in. */
    public static Shipper vector() {
        // RFC 3339 with nanoseconds and an offset of +01:00, in turn: a file event, one with the line's offset
        // (offset_key), and application JSON merged into the event, bringing its own message, level and
        // timestamp (epoch ms) over Vector's.
        IntFunction<String> time = i -> OffsetDateTime.ofInstant(Instant.ofEpochMilli(millis(i)).plusNanos(789_123),
                java.time.ZoneOffset.ofHours(1)).toString();
        // Every seventh line holds a NUL (a binary log line): the recipe's message:md5 part hashes it.
        IntFunction<String> message = i -> i % 3 == 2 ? "order " + i + " paid"
                : "vector line " + i + (i % 7 == 0 ? "\u0000after a NUL" : "");
        return new Shipper("vector",
                i -> "{\"file\":\"/var/log/app.log\",\"host\":\"" + host(i) + "\",\"message\":\""
                        + message.apply(i).replace("\u0000", "\\u0000") + "\",\"source_type\":\"file\",\"timestamp\":"
                        + switch (i % 3) {
                    case 0 -> "\"" + time.apply(i) + "\"}";
                    case 1 -> "\"" + time.apply(i) + "\",\"offset\":" + i * 120 + "}";
                    default -> millis(i) + ",\"level\":\"info\",\"order\":{\"id\":" + i + ",\"total\":12.5}}";
                },
                ShipperShapes::millis,
                i -> new Object[] {millis(i), host(i), message.apply(i)},
                i -> new Object[] {host(i), millis(i), message.apply(i)},
                message,
                ShipperShapes::host,
                Map.of("{\"host\":\"h\",\"message\":\"m\",\"timestamp\":true}", "invalid timestamp 'true': matches none of the time formats iso8601, epoch-ms (a boolean)",
                        "{\"host\":\"h\",\"timestamp\":\"2026-11-22T08:00:00Z\"}",
                        "invalid message null: is missing: it is part of the row key"));
    }

}
