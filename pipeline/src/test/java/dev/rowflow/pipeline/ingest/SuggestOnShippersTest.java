package dev.rowflow.pipeline.ingest;

import dev.rowflow.keying.mapping.MappingSuggestion;
import dev.rowflow.keying.mapping.RecordTree;
import dev.rowflow.keying.mapping.Suggestion;
import dev.rowflow.pipeline.runtime.ShipperShapes;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mapping suggest} on each shipper's topic as users have it -- 300 records of the shipper's
 * shapes, a minority shape of an older version where there is one, and ten bad records among them,
 * malformed ones of the shipper's own shape too -- gives a declaration that, run unchanged, writes
 * every good record and sets aside exactly the bad ones: judged by the pipeline's decision
 * ({@link SuggestionCheck}). On the real stack: {@code MappingSuggestIT}.
 */
class SuggestOnShippersTest {
    private static final int GOOD = 300;

    @Test
    void shouldWriteEveryGoodRecordAndSetAsideExactlyTheBadOnesOfEveryShipper() {
        for (ShipperShapes.Shipper shipper : List.of(ShipperShapes.filebeat(), ShipperShapes.logstash(),
                ShipperShapes.fluentBit(), ShipperShapes.vector())) {
            List<String> good = new ArrayList<>();
            for (int i = 0; i < GOOD; i++) {
                good.add(shipper.json().apply(i));
            }
            good.addAll(minority(shipper.recipe()));
            List<String> bad = new ArrayList<>(shipper.bad().keySet());
            bad.addAll(bad(shipper.recipe()));

            List<MappingCheck.Sampled> sampled = new ArrayList<>();
            MappingSuggestion suggestion = new MappingSuggestion();
            int badEvery = good.size() / bad.size();
            int g = 0;
            int b = 0;
            while (g < good.size() || b < bad.size()) { // the bad ones spread among the good
                String json = b < bad.size() && (g % badEvery == badEvery / 2 || g == good.size()) ? bad.get(b++)
                        : good.get(g++);
                byte[] value = json.getBytes(StandardCharsets.UTF_8);
                sampled.add(new MappingCheck.Sampled(0, sampled.size(), ShipperShapes.BASE, null, value));
                try {
                    suggestion.add(RecordTree.parseJson(value), "0@" + (sampled.size() - 1));
                } catch (IllegalArgumentException e) {
                    suggestion.addRefused("value: not JSON", "0@" + (sampled.size() - 1));
                }
            }
            Suggestion suggested = suggestion.suggest(shipper.recipe().replace("-", ""), shipper.recipe(), 4);
            String declaration = suggested.properties();

            SuggestionCheck.Verified verified = SuggestionCheck.verify(Map.of("kafka.bootstrap.servers",
                    "unused:9092", "pipelines", ""), declaration, shipper.recipe(), sampled, null);

            assertThat(verified.written()).as("%s good records written by%n%s%n%s", shipper.recipe(), declaration,
                    verified.report()).isEqualTo(good.size());
            assertThat(verified.setAside()).as("%s bad records set aside", shipper.recipe()).isEqualTo(bad.size());
            assertThat(verified.report().collisions()).as("%s collisions", shipper.recipe()).isZero();
        }
    }

    /** An older version's records, a minority of the topic where the shipper changed its shape. */
    private static List<String> minority(String shipper) {
        List<String> records = new ArrayList<>();
        if (shipper.equals("filebeat")) {
            // Filebeat 6.8: the file and offset at the top (source, offset), the agent under beat.
            for (int i = 0; i < 30; i++) {
                records.add("{\"@timestamp\":\"" + Instant.ofEpochMilli(ShipperShapes.BASE + 7 + i * 9_001L)
                        + "\",\"beat\":{\"name\":\"old-" + (i % 2) + "\",\"hostname\":\"old-" + (i % 2)
                        + "\",\"version\":\"6.8.0\"},\"host\":{\"name\":\"old-" + (i % 2) + "\"},\"source\":"
                        + "\"/var/log/old.log\",\"offset\":" + (1_000_000 + i * 64) + ",\"prospector\":{\"type\":"
                        + "\"log\"},\"message\":\"old line " + i + "\"}");
            }
        }
        return records;
    }

    /** Bad records any shipper's topic has, and malformed ones of the shipper's own shape. */
    private static List<String> bad(String shipper) {
        Map<String, String> fields = Map.of("filebeat", "@timestamp message", "logstash", "@timestamp message",
                "fluent-bit", "@timestamp log", "vector", "timestamp message");
        String time = fields.get(shipper).split(" ")[0];
        String message = fields.get(shipper).split(" ")[1];
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("{\"" + message + "\":\"truncated", "not JSON");
        bad.put("[\"an\",\"array\"]", "not an object");
        bad.put("{\"" + message + "\":\"no time\"}", "no time");
        bad.put("{\"" + time + "\":\"yesterday\",\"" + message + "\":\"when?\"}", "a time no format reads");
        switch (shipper) {
            // A record of another agent's shape: host.hostname without ECS's host.name.
            case "filebeat" -> bad.put("{\"@timestamp\":\"2026-11-22T08:00:00.000Z\",\"host\":{\"hostname\":\"odd\"},"
                    + "\"log\":{\"file\":{\"path\":\"/x\"},\"offset\":5},\"message\":\"malformed\"}", "no host.name");
            // A host object where the topic's records have text.
            case "vector" -> bad.put("{\"host\":{\"name\":\"odd\"},\"message\":\"malformed\",\"timestamp\":"
                    + "\"2026-11-22T08:00:00Z\"}", "a host object");
            default -> {
            }
        }
        return new ArrayList<>(bad.keySet());
    }
}
