package dev.rowflow.pipeline.runtime;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.embedded.load.TopicProducer;
import dev.rowflow.pipeline.cli.Rowflow;
import dev.rowflow.pipeline.config.RowflowConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every table rowflow creates is spread from its first row: salted tables at their buckets, the
 * others -- the host-led index of the log pipeline and of a declared input, the log summary -- at
 * the quantiles of the keys made of the input topic's records, at a first start and by
 * {@code tables create --sample-topic}; a table that stays one region is warned about.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class TableSplitsIT {
    private static final int EVENTS = 2_000;
    private static final String LOGS_TOPIC = "splits-logs";
    private static final String WEB_TOPIC = "splits-web";
    private static final String EMPTY_TOPIC = "splits-empty";
    private static final String EMPTY_WEB_TOPIC = "splits-empty-web";
    private static EmbeddedStack stack;

    @BeforeAll
    static void produce(EmbeddedStack shared) throws Exception {
        stack = shared;
        Map<String, Object> kafka = new RowflowConfig(stack.rowflowProperties()).kafkaProperties();
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(kafka)) {
            admin.createTopics(List.of(new NewTopic(LOGS_TOPIC, 4, (short) 1), new NewTopic(WEB_TOPIC, 3, (short) 1),
                    new NewTopic(EMPTY_TOPIC, 2, (short) 1), new NewTopic(EMPTY_WEB_TOPIC, 2, (short) 1))).all().get();
            for (String topic : List.of(LOGS_TOPIC, WEB_TOPIC, EMPTY_TOPIC, EMPTY_WEB_TOPIC)) {
                KafkaTopics.awaitLeaders(admin, topic, Duration.ofSeconds(30));
            }
        }
        LogEventGenerator generator = new LogEventGenerator(32, 200, 1_700_000_000_000L);
        try (LogEventProducer producer = LogEventProducer.open(kafka, LOGS_TOPIC)) {
            for (int i = 0; i < EVENTS; i++) {
                producer.send(generator.next());
            }
            producer.flush();
        }
        try (TopicProducer producer = TopicProducer.open(kafka, WEB_TOPIC)) {
            for (int i = 0; i < EVENTS; i++) {
                String json = "{\"@timestamp\":" + (1_700_000_000_000L + i * 1000L) + ",\"seq\":" + i
                        + ",\"host\":\"web-" + (i * 7919 % 97) + ".example.org\",\"message\":\"GET /item/" + i + "\"}";
                producer.send(null, null, json.getBytes(StandardCharsets.UTF_8));
            }
            producer.flush();
        }
    }

    /** The log pipeline and a declared JSON input, each table under {@code prefix}, reading {@code logsTopic}. */
    private static Map<String, String> config(String prefix, String logsTopic, String webTopic) {
        Map<String, String> props = new LinkedHashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, prefix + "-app");
        props.put(RowflowConfig.PIPELINES_CONFIG, "logs");
        props.put(RowflowConfig.LOGS_TOPIC_CONFIG, logsTopic);
        props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, prefix + "_log_data");
        props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, prefix + "_log_index");
        props.put(RowflowConfig.LOG_SUMMARY_TABLE_CONFIG, prefix + "_log_summary");
        props.put(RowflowConfig.INPUTS_CONFIG, "web");
        props.put("input.web.topic", webTopic);
        props.put("input.web.time", "@timestamp");
        props.put("input.web.time.format", "epoch-ms");
        props.put("input.web.key", "bucket(4) | @timestamp:ts, seq:long");
        props.put("input.web.table", prefix + "_web");
        props.put("input.web.columns", "message=m, host=h, seq=s");
        props.put("input.web.indexes", "host");
        props.put("input.web.index.host.key", "host:text, @timestamp:rts, seq:long");
        props.put("input.web.index.host.table", prefix + "_web_host");
        return props;
    }

    @Test
    void shouldCreateEveryTableOfAFreshStartPreSplitAndGiveEachRegionItsShare() throws Exception {
        RowflowConfig config = new RowflowConfig(config("splits_start", LOGS_TOPIC, WEB_TOPIC));

        try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry());
             org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                     config.kafkaProperties())) {
            PipelineRuns.awaitCommitted(pipeline, admin, config, LOGS_TOPIC, EVENTS);
            PipelineRuns.awaitCommitted(pipeline, admin, config, WEB_TOPIC, EVENTS);
        }

        Connection connection = stack.connection("hbase");
        // By the salt: one region per bucket.
        assertThat(regions(connection, "splits_start_log_data")).hasSize(16);
        assertThat(regions(connection, "splits_start_web")).hasSize(4);
        // By sampled keys: tables.split.regions (16), each region about its share of the rows.
        for (String table : List.of("splits_start_log_index", "splits_start_web_host")) {
            List<Long> rows = rowsPerRegion(connection, table);
            assertThat(rows).as("rows per region of %s", table).hasSize(16);
            assertThat(rows.stream().mapToLong(Long::longValue).sum()).isEqualTo(EVENTS);
            assertThat(rows).as("rows per region of %s", table).allSatisfy(count ->
                    assertThat(count).isBetween((long) EVENTS / 16 / 2, (long) EVENTS / 16 * 2));
        }
        List<Long> summary = rowsPerRegion(connection, "splits_start_log_summary");
        assertThat(summary).as("rows per region of the summary").hasSize(16).allSatisfy(count ->
                assertThat(count).isPositive());
    }

    @Test
    void shouldWarnOfTablesLeftOneRegionAndSplitThemFromAnotherTopicsRecords(@TempDir Path dir) throws Exception {
        Run empty = tablesCreate(dir, config("splits_empty", EMPTY_TOPIC, EMPTY_WEB_TOPIC));

        assertThat(empty.exitCode()).as("stderr: %s", empty.err()).isZero();
        assertThat(empty.err().lines().toList()).containsExactly(
                "warning: table splits_empty_log_summary (table.log.summary) has one region: every write goes to one "
                        + "region server until the table grows to its split size; topic splits-empty gave 0 distinct "
                        + "keys of it to split at (4 per region needed); its keys (led by hostname:text) are not "
                        + "spread by design; with records in topic splits-empty, `rowflow tables create --sample-topic` "
                        + "creates it split at sampled keys (an existing table: split it in the HBase shell at the "
                        + "points of `rowflow keys splits --samples`), or salt the layout (bucket(N,hash=hostname) | "
                        + "hostname:text, eventType:text, timestamp:ts)",
                "warning: table splits_empty_log_index (table.log.index) has one region: every write goes to one region "
                        + "server until the table grows to its split size; topic splits-empty gave 0 distinct keys of "
                        + "it to split at (4 per region needed); its keys (led by hostname:text) are not spread by "
                        + "design; with records in topic splits-empty, `rowflow tables create --sample-topic` creates it "
                        + "split at sampled keys (an existing table: split it in the HBase shell at the points of "
                        + "`rowflow keys splits --samples`), or salt the layout (bucket(N,hash=hostname) | hostname:text, "
                        + "eventType:text, timestamp:rts)",
                "warning: table splits_empty_web_host (input.web.index.host.table) has one region: every write goes "
                        + "to one region server until the table grows to its split size; topic splits-empty-web gave 0 "
                        + "distinct keys of it to split at (4 per region needed); its keys (led by host:text) are not "
                        + "spread by design; with records in topic splits-empty-web, `rowflow tables create "
                        + "--sample-topic` "
                        + "creates it split at sampled keys (an existing table: split it in the HBase shell at the "
                        + "points of `rowflow keys splits --samples`), or salt the layout (bucket(N,hash=host) | "
                        + "host:text, @timestamp:rts, seq:long)");
        assertThat(empty.out()).contains("table splits_empty_log_index (hbase)").contains("  regions: 1, split at\n");

        // Started again on the existing tables: still one region, said without reading the topic again.
        Run again = tablesCreate(dir, config("splits_empty", EMPTY_TOPIC, EMPTY_WEB_TOPIC));
        assertThat(again.err()).contains("warning: table splits_empty_log_index (table.log.index) has one region: "
                + "every write goes to one region server until the table grows to its split size; its keys (led by "
                + "hostname:text) are not spread by design;");

        Run sampled = tablesCreate(dir, config("splits_other", EMPTY_TOPIC, EMPTY_WEB_TOPIC), "--sample-topic", LOGS_TOPIC);
        assertThat(sampled.exitCode()).as("stderr: %s", sampled.err()).isZero();
        assertThat(sampled.err()).as("the web input's records are not log events: its index stays one region")
                .doesNotContain("splits_other_log_index").doesNotContain("splits_other_log_summary")
                .contains("warning: table splits_other_web_host (input.web.index.host.table) has one region");
        Connection connection = stack.connection("hbase");
        assertThat(regions(connection, "splits_other_log_index")).hasSize(16);
        assertThat(regions(connection, "splits_other_log_summary")).hasSize(16);
        assertThat(regions(connection, "splits_other_web_host")).hasSize(1);
    }

    private record Run(int exitCode, String out, String err) {
    }

    private static Run tablesCreate(Path dir, Map<String, String> settings, String... more) throws Exception {
        Properties props = new Properties();
        props.putAll(settings);
        Path file = Files.createTempFile(dir, "rowflow", ".properties");
        try (OutputStream out = Files.newOutputStream(file)) {
            props.store(out, null);
        }
        List<String> args = new ArrayList<>(List.of("tables", "create", "-c", file.toString()));
        args.addAll(List.of(more));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Rowflow.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exitCode = cli.execute(args.toArray(String[]::new));
        return new Run(exitCode, out.toString(), err.toString());
    }

    private static List<RegionInfo> regions(Connection connection, String table) throws Exception {
        try (Admin admin = connection.getAdmin()) {
            List<RegionInfo> regions = new ArrayList<>(admin.getRegions(TableName.valueOf(table)));
            regions.sort((a, b) -> Bytes.compareTo(a.getStartKey(), b.getStartKey()));
            return regions;
        }
    }

    private static List<Long> rowsPerRegion(Connection connection, String table) throws Exception {
        List<Long> counts = new ArrayList<>();
        try (Table t = connection.getTable(TableName.valueOf(table))) {
            for (RegionInfo region : regions(connection, table)) {
                long rows = 0;
                try (ResultScanner scanner = t.getScanner(new Scan().withStartRow(region.getStartKey())
                        .withStopRow(region.getEndKey()).setFilter(new FirstKeyOnlyFilter()))) {
                    for (var ignored : scanner) {
                        rows++;
                    }
                }
                counts.add(rows);
            }
        }
        return counts;
    }
}
