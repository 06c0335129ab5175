package dev.rowflow.demo;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Filebeat-shaped log events as the JSON Filebeat writes to Kafka (ECS): nested objects,
 * {@code @timestamp} ISO-8601 with milliseconds and {@code Z}, {@code host.name},
 * {@code event.dataset}, {@code log.file.path} and {@code log.offset}, and one event in ten with
 * {@code log.level} written flat with its dot, as some producers do. About 600 bytes each.
 *
 * <p>Deterministic: the same seed and start time give the same events. Each host's lines of one
 * file have increasing offsets, so {@code [file][offset]} is unique per host, as in Filebeat.
 */
final class EcsEvents {
    private static final List<String> DATASETS = List.of("nginx.access", "nginx.error", "system.auth", "system.syslog",
            "app.log");
    private static final List<String> PATHS = List.of("/var/log/nginx/access.log", "/var/log/nginx/error.log",
            "/var/log/auth.log", "/var/log/syslog", "/srv/app/logs/app.json");
    private static final List<String> URLS = List.of("/", "/api/orders", "/api/customers", "/login", "/search",
            "/checkout", "/static/app.js");

    private final SplittableRandom random;
    private final String[] hosts;
    private final long[][] offsets;
    private long nextTimestamp;

    public EcsEvents(long seed, int hostCount, long startTimestamp) {
        if (hostCount < 1) {
            throw new IllegalArgumentException("hostCount must be >= 1, got " + hostCount);
        }
        this.random = new SplittableRandom(seed);
        this.hosts = new String[hostCount];
        for (int i = 0; i < hostCount; i++) {
            hosts[i] = String.format("%s-%03d.prod.example.com", i % 3 == 0 ? "web" : i % 3 == 1 ? "api" : "db", i + 1);
        }
        this.offsets = new long[hostCount][DATASETS.size()];
        this.nextTimestamp = startTimestamp;
    }

    /** The next event's JSON. */
    public byte[] next() {
        int host = random.nextInt(hosts.length);
        int dataset = random.nextInt(DATASETS.size());
        String message = message(dataset);
        long offset = offsets[host][dataset];
        offsets[host][dataset] += message.length() + 1;
        String level = dataset == 1 ? "error" : random.nextInt(20) == 0 ? "warn" : "info";
        StringBuilder json = new StringBuilder(640)
                .append("{\"@timestamp\":\"").append(Instant.ofEpochMilli(nextTimestamp++)).append('"')
                .append(",\"agent\":{\"type\":\"filebeat\",\"version\":\"8.15.3\",\"hostname\":\"").append(hosts[host])
                .append("\",\"id\":\"").append(Long.toHexString(host * 2_654_435_761L)).append("\"}")
                .append(",\"ecs\":{\"version\":\"8.11.0\"}")
                .append(",\"host\":{\"name\":\"").append(hosts[host]).append("\",\"os\":{\"family\":\"debian\",")
                .append("\"kernel\":\"6.1.0-26-amd64\"},\"architecture\":\"x86_64\"}")
                .append(",\"event\":{\"dataset\":\"").append(DATASETS.get(dataset)).append("\",\"module\":\"")
                .append(DATASETS.get(dataset), 0, DATASETS.get(dataset).indexOf('.')).append("\"}");
        if (random.nextInt(10) == 0) {
            json.append(",\"log.level\":\"").append(level).append("\",\"log\":{\"file\":{\"path\":\"")
                    .append(PATHS.get(dataset)).append("\"},\"offset\":").append(offset).append('}');
        } else {
            json.append(",\"log\":{\"level\":\"").append(level).append("\",\"file\":{\"path\":\"")
                    .append(PATHS.get(dataset)).append("\"},\"offset\":").append(offset).append('}');
        }
        json.append(",\"input\":{\"type\":\"filestream\"},\"tags\":[\"prod\",\"eu-west-1\"]");
        if (dataset == 0) {
            json.append(",\"http\":{\"response\":{\"status_code\":").append(random.nextInt(100) < 95 ? 200 : 404)
                    .append("}}");
        }
        json.append(",\"message\":\"").append(message).append("\"}");
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    private String message(int dataset) {
        return switch (dataset) {
            case 0 -> "10.0." + random.nextInt(256) + "." + random.nextInt(256) + " - - \\\"GET "
                    + URLS.get(random.nextInt(URLS.size())) + " HTTP/1.1\\\" 200 " + random.nextInt(50_000);
            case 1 -> "upstream timed out (110: Connection timed out) while reading response header, request "
                    + random.nextInt(1_000_000);
            case 2 -> "Accepted publickey for deploy from 10.1." + random.nextInt(256) + "." + random.nextInt(256)
                    + " port " + (1024 + random.nextInt(60_000)) + " ssh2";
            case 3 -> "systemd[1]: Started Session " + random.nextInt(100_000) + " of user deploy.";
            default -> "{\\\"level\\\":\\\"info\\\",\\\"msg\\\":\\\"order placed\\\",\\\"order\\\":"
                    + random.nextInt(10_000_000) + "}";
        };
    }
}
