package dev.rowflow.embedded.load;

import dev.rowflow.events.LogEvent;
import dev.rowflow.events.Severity;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Realistic log events for the demo, load tests and benchmarks: many hosts in a few roles and
 * regions, a handful of event types with their own messages, severities and attributes, and
 * timestamps that increase by one millisecond per event -- the monotonically increasing key of
 * seed 002 section 1.3.1, the case salting exists for.
 *
 * <p>Deterministic: the same seed and start time give the same events, so a test can regenerate
 * what it sent. Because times are strictly increasing, no two events share a row key.
 */
public final class LogEventGenerator {
    private static final List<String> ROLES = List.of("web", "api", "db", "cache", "worker", "gateway");
    private static final List<String> REGIONS = List.of("eu-west-1", "us-east-1", "ap-south-1");
    private static final List<String> PATHS = List.of("/", "/api/orders", "/api/customers", "/login", "/search",
            "/api/items", "/checkout", "/static/app.js");

    private final SplittableRandom random;
    private final List<String> hosts;
    private long nextTimestamp;

    /**
     * @param seed           seed of the pseudo-random choices
     * @param hostCount      number of distinct hosts
     * @param startTimestamp event time of the first event, ms since the epoch
     */
    public LogEventGenerator(long seed, int hostCount, long startTimestamp) {
        if (hostCount < 1) {
            throw new IllegalArgumentException("hostCount must be >= 1, got " + hostCount);
        }
        this.random = new SplittableRandom(seed);
        this.hosts = new ArrayList<>(hostCount);
        for (int i = 0; i < hostCount; i++) {
            hosts.add(String.format("%s-%03d.%s.example.com",
                    ROLES.get(i % ROLES.size()), i / ROLES.size() + 1, REGIONS.get(i % REGIONS.size())));
        }
        this.nextTimestamp = startTimestamp;
    }

    public LogEvent next() {
        String host = hosts.get(random.nextInt(hosts.size()));
        long timestamp = nextTimestamp++;
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("pid", Integer.toString(1000 + random.nextInt(30000)));
        LogEvent.Builder event = LogEvent.newBuilder()
                .setHostname(host)
                .setTimestamp(Instant.ofEpochMilli(timestamp));
        int kind = random.nextInt(100);
        if (kind < 55) {
            int status = random.nextInt(100) < 95 ? 200 : 404;
            event.setEventType("http.request").setSeverity(Severity.INFO)
                    .setMessage(String.format("GET %s %d %dms", PATHS.get(random.nextInt(PATHS.size())), status,
                            1 + random.nextInt(400)));
            attributes.put("status", Integer.toString(status));
        } else if (kind < 65) {
            event.setEventType("http.error").setSeverity(Severity.ERROR)
                    .setMessage(String.format("POST %s 500 upstream timeout after %dms",
                            PATHS.get(random.nextInt(PATHS.size())), 1000 + random.nextInt(9000)));
            attributes.put("status", "500");
        } else if (kind < 75) {
            event.setEventType("auth.login").setSeverity(Severity.INFO)
                    .setMessage("user u" + random.nextInt(50_000) + " logged in");
        } else if (kind < 80) {
            event.setEventType("auth.failure").setSeverity(Severity.WARN)
                    .setMessage("bad password for user u" + random.nextInt(50_000) + " from 10."
                            + random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(256));
        } else if (kind < 92) {
            event.setEventType("gc.pause").setSeverity(Severity.DEBUG)
                    .setMessage(String.format("G1 Young Generation pause %dms", 1 + random.nextInt(120)));
        } else if (kind < 98) {
            int used = 40 + random.nextInt(60);
            event.setEventType("disk.usage").setSeverity(used > 90 ? Severity.WARN : Severity.INFO)
                    .setMessage(String.format("/var at %d%%", used));
            attributes.put("mount", "/var");
        } else {
            event.setEventType("deploy.finished").setSeverity(Severity.INFO)
                    .setMessage("release r" + (100 + random.nextInt(50)) + " rolled out");
        }
        return event.setAttributes(attributes).build();
    }
}
