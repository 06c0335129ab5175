package dev.rowflow.demo;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's first command, in-process: `rowflow demo --events N --json` on the embedded stack; the
 * Filebeat JSON and the change-history demos. The other formats and the second store: {@link DemoFormatsIT}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DemoIT {

    @Test
    void shouldReportEveryEventAsADataRowAndAnIndexRowInItsJsonSummary() throws Exception {
        DemoRun run = DemoRun.of("--events", "20000", "--data-layout",
                "bucket(4) | timestamp:ts, hostname:text, eventType:text");
        JsonNode summary = run.summary();
        assertThat(summary.get("events").asLong()).isEqualTo(20_000);
        assertThat(summary.get("dataRows").asLong()).isEqualTo(20_000);
        assertThat(summary.get("indexRows").asLong()).isEqualTo(20_000);
        assertThat(summary.get("deadLetters").asLong()).isZero();
        assertThat(summary.get("rowsPerSecond").asDouble()).isPositive();
        assertThat(summary.get("rowsPerBucket")).hasSize(4);
        long perBucketTotal = 0;
        for (JsonNode n : summary.get("rowsPerBucket")) {
            perBucketTotal += n.asLong();
        }
        assertThat(perBucketTotal).isEqualTo(20_000);
        // Sequential timestamps spread over the buckets: none holds more than 1.2 x its fair share.
        assertThat(summary.get("largestBucketShare").asDouble()).isBetween(1.0, 1.2);
        JsonNode sample = summary.get("sample");
        assertThat(sample.size()).isEqualTo(5);
        String host = sample.get(0).get("hostname").asText();
        String type = sample.get(0).get("eventType").asText();
        // The two rows found through the index are the first row's host and type, newest first.
        assertThat(sample.get(3).get("hostname").asText()).isEqualTo(host);
        assertThat(sample.get(4).get("eventType").asText()).isEqualTo(type);
        assertThat(sample.get(3).get("time").asText()).isGreaterThan(sample.get(4).get("time").asText());
        assertThat(run.err()).contains("in HBase (committed) 20,000");
        // The summary table counted every event once.
        assertThat(summary.get("summaryCount").asLong()).isEqualTo(20_000);
        // One order per 20 events, each with its index row; 10% of the customers came after their orders.
        assertThat(summary.get("orders").asLong()).isEqualTo(1_000);
        assertThat(summary.get("orderIndexRows").asLong()).isEqualTo(1_000);
        JsonNode scan = summary.get("customerScan");
        JsonNode scanned = scan.get("rows");
        assertThat(scanned.get(0).get("recordType").asText()).isEqualTo("customer");
        List<String> types = new java.util.ArrayList<>();
        for (JsonNode row : scanned) {
            assertThat(row.get("rowKey").asText()).startsWith(scan.get("startRow").asText());
            types.add(row.get("recordType").asText());
        }
        assertThat(types).contains("order", "shipping location", "line item");
        assertThat(types.stream().filter("customer"::equals)).hasSize(1);
        // Every order of the customer carries its name, denormalized (completed if it came first).
        for (JsonNode row : scanned) {
            if (row.get("recordType").asText().equals("order")) {
                assertThat(row.get("content").asText()).contains("for " + scan.get("name").asText());
            }
        }
    }

    @Test
    void shouldIngestFilebeatJsonThroughTheDeclaredInputItPrints() throws Exception {
        DemoRun run = DemoRun.of("--format", "json", "--events", "10000");
        JsonNode summary = run.summary();
        assertThat(summary.get("events").asLong()).isEqualTo(10_000);
        assertThat(summary.get("dataRows").asLong()).isEqualTo(10_000);
        assertThat(summary.get("indexRows").asLong()).isEqualTo(10_000);
        assertThat(summary.get("deadLetters").asLong()).isZero();
        assertThat(summary.get("summaryCount").asLong()).isEqualTo(10_000);
        assertThat(summary.get("mapping").get("input.filebeat.key").asText())
                .isEqualTo(InputDemo.JSON_MAPPING.get("input.filebeat.key"));
        // The mapping is printed as the properties lines a user would write.
        assertThat(run.err()).contains("  input.filebeat.time=@timestamp")
                .contains("  input.filebeat.index.host.key=" + InputDemo.JSON_MAPPING.get("input.filebeat.index.host.key"));
        JsonNode row = summary.get("sample").get(0).get("columns");
        assertThat(row.get("h").asText()).endsWith(".prod.example.com");
        assertThat(row.get("x.ecs.version").asText()).isEqualTo("8.11.0");
        assertThat(row.get("l").asText()).isIn("info", "warn", "error");
        // The key's parts decoded: the bucket, the time as an instant, the host as it was sent.
        JsonNode key = summary.get("sample").get(0).get("key");
        assertThat(key.get("salt").asInt()).isBetween(0, 7);
        assertThat(java.time.Instant.parse(key.get("@timestamp").asText())).isNotNull();
        assertThat(key.get("host.name").asText()).isEqualTo(row.get("h").asText());
        assertThat(key.get("log.file.path").asText()).startsWith("md5:");
    }

    @Test
    void shouldApplyADatabasesChangeHistoryWithOrdersJoinedToTheirCustomers() throws Exception {
        DemoRun run = DemoRun.of("--format", "debezium", "--events", "3000");
        JsonNode summary = run.summary();
        // Where PostgreSQL is installed (as .ci/run installs it), the history is the database's, captured by Debezium.
        if (dev.rowflow.embedded.EmbeddedPostgres.binaries().isPresent()) {
            assertThat(summary.get("source").asText()).startsWith("PostgreSQL 1")
                    .endsWith("through Debezium's PostgreSQL connector");
            assertThat(run.err()).contains("the connector stopped after").contains("  input.orders.types=total:decimal(10,2)");
        } else {
            assertThat(run.err()).contains("PostgreSQL is not installed (apt-get install postgresql)");
        }
        assertThat(summary.get("changes").asLong()).isEqualTo(3_000);
        assertThat(summary.get("tombstones").asLong()).isPositive();
        assertThat(summary.get("differences").asLong()).isZero();
        assertThat(summary.get("deadLetters").asLong()).isZero();
        assertThat(summary.get("orderRows").asLong()).isEqualTo(summary.get("orders").asLong());
        assertThat(summary.get("indexRows").asLong()).isEqualTo(summary.get("orders").asLong());
        assertThat(summary.get("customerRows").asLong()).isEqualTo(summary.get("customers").asLong());
        assertThat(run.err()).contains("  input.orders.join.input=customers");
        // One scan of the orders table: the customer's orders, each with its customer's present name.
        String name = summary.get("shownCustomer").asText().replaceFirst("^\\d+ \\((.*)\\)$", "$1");
        assertThat(summary.get("shown")).isNotEmpty().allSatisfy(row ->
                assertThat(row.get("columns").get("cn").asText()).isEqualTo(name));
    }
}
