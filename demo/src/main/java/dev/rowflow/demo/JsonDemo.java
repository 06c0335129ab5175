package dev.rowflow.demo;

import dev.rowflow.embedded.load.Offsets;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.pipeline.config.InputConfig;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.embedded.load.TopicProducer;
import dev.rowflow.pipeline.metrics.MetricsServer;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code rowflow demo --format json}: Filebeat-shaped ECS JSON ({@link EcsEvents}) on a topic,
 * ingested through a declared input -- the mapping below, printed -- on the embedded stack, and
 * read back with plain hbase-client.
 */
final class JsonDemo {
    static final String TOPIC = "filebeat";
    private static final String INPUT = "filebeat";

    /** The declaration the demo runs: the Filebeat recipe of the README, 8 salt buckets. */
    static final Map<String, String> MAPPING = mapping();

    private static Map<String, String> mapping() {
        Map<String, String> mapping = new LinkedHashMap<>();
        mapping.put("pipelines", "");
        mapping.put("inputs", INPUT);
        mapping.put("input.filebeat.topic", TOPIC);
        mapping.put("input.filebeat.format", "json");
        mapping.put("input.filebeat.time", "@timestamp");
        mapping.put("input.filebeat.time.format", "iso8601");
        mapping.put("input.filebeat.key", "bucket(8) | @timestamp:ts, host.name:text, log.file.path:md5, log.offset:long");
        mapping.put("input.filebeat.columns",
                "message=m, host.name=h, event.dataset=e, log.level=l, log.file.path=f, log.offset=o, *=x.*");
        mapping.put("input.filebeat.indexes", "host");
        mapping.put("input.filebeat.index.host.key",
                "host.name:text, event.dataset:text, @timestamp:rts, log.file.path:md5, log.offset:long");
        mapping.put("input.filebeat.summary.key", "host.name:text, event.dataset:text, @timestamp:ts");
        return java.util.Collections.unmodifiableMap(mapping);
    }

    /**
     * What the JSON demo did; the first four are what the Avro demo's summary has too.
     *
     * @param summaryRows  rows of the summary table (host, dataset, hour)
     * @param summaryCount the sum of its counters: every event counted once
     * @param sample       a few data rows read back: key decoded, cells
     */
    record Summary(long events, long dataRows, long indexRows, long deadLetters, double seconds,
                   double eventsPerSecond, double rowsPerSecond, Map<String, String> mapping, long summaryRows,
                   long summaryCount, List<Map<String, String>> sample) {
    }

    private JsonDemo() {
    }

    static Summary run(EmbeddedStack stack, String store, MetricsServer metrics, Long events, int hosts, int rate,
                       int partitions, AtomicBoolean stop, PrintWriter err) throws Exception {
        Map<String, Object> props = new LinkedHashMap<>(stack.rowflowProperties(store));
        props.putAll(MAPPING);
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "rowflow-demo-json");
        props.put(RowflowConfig.METRICS_PORT_CONFIG, metrics.port());
        props.put("kafka.commit.interval.ms", "1000");
        RowflowConfig config = new RowflowConfig(props);
        err.println("rowflow demo: ingesting Filebeat-shaped JSON through this declared input:");
        MAPPING.forEach((key, value) -> err.println("  " + key + "=" + value));
        err.flush();
        InputConfig input = config.inputs().get(0);
        String group = config.getString(RowflowConfig.APPLICATION_ID_CONFIG);
        long produced = 0;
        double seconds;
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, TOPIC, Optional.of(partitions), Duration.ofSeconds(60));
            try (RowflowPipeline pipeline = RowflowPipeline.start(config, metrics.registry())) {
                metrics.readiness(pipeline::ready);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (pipeline.state() != KafkaStreams.State.RUNNING && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                long start = System.currentTimeMillis() - (events == null ? 0 : events);
                EcsEvents generator = new EcsEvents(20_130_325L, hosts, start);
                long t0 = System.nanoTime();
                long lastReport = 0;
                try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), TOPIC)) {
                    while ((events == null || produced < events) && !stop.get()) {
                        long batch = events == null ? Math.max(1, rate / 10) : Math.min(10_000, events - produced);
                        for (long i = 0; i < batch; i++) {
                            producer.send(null, null, generator.next());
                        }
                        produced += batch;
                        if (events == null) {
                            Thread.sleep(100);
                        }
                        lastReport = report(admin, group, produced, events, t0, lastReport, err);
                    }
                    producer.flush();
                }
                while (Offsets.uncommitted(admin, group, TOPIC) != 0) {
                    if (pipeline.state() == KafkaStreams.State.ERROR) {
                        throw new IllegalStateException("the pipeline failed; see rowflow-demo.log");
                    }
                    lastReport = report(admin, group, produced, events, t0, lastReport, err);
                    Thread.sleep(200);
                }
                seconds = (System.nanoTime() - t0) / 1e9;
                report(admin, group, produced, events, t0, 0, err);
            }
            return readBack(config, input, admin, produced, seconds);
        }
    }

    private static long report(Admin admin, String group, long produced, Long events, long t0, long lastReport,
                               PrintWriter err) throws Exception {
        long now = System.nanoTime();
        if (now - lastReport < TimeUnit.SECONDS.toNanos(2)) {
            return lastReport;
        }
        long committed = produced - Offsets.uncommitted(admin, group, TOPIC);
        double seconds = Math.max((now - t0) / 1e9, 0.001);
        err.printf("[%6.1f s] produced %,d%s  in the store (committed) %,d  %,.0f events/s%n", seconds, produced,
                events == null ? "" : String.format("/%,d", events), committed, committed / seconds);
        err.flush();
        return now;
    }

    private static Summary readBack(RowflowConfig config, InputConfig input, Admin admin, long produced,
                                    double seconds) throws Exception {
        try (Connection connection = RowflowPipeline.connect(config)) {
            String dataTable = input.tableName(InputConfig.TABLE);
            long dataRows = count(connection, dataTable);
            long indexRows = count(connection, input.tableName("index.host." + InputConfig.TABLE));
            long summaryRows = 0;
            long summaryCount = 0;
            try (Table summary = connection.getTable(TableName.valueOf(input.tableName(InputConfig.SUMMARY_TABLE)));
                 ResultScanner rows = summary.getScanner(new Scan())) {
                for (Result row : rows) {
                    summaryRows++;
                    summaryCount += dev.rowflow.sinks.hbase.CounterCells.total(row, Bytes.toBytes("s"), Bytes.toBytes("n"));
                }
            }
            RowKeyLayout layout = RowKeyLayout.parse(MAPPING.get("input.filebeat.key"), null);
            List<Map<String, String>> sample = new ArrayList<>();
            try (Table data = connection.getTable(TableName.valueOf(dataTable));
                 ResultScanner rows = data.getScanner(new Scan().setLimit(3))) {
                for (Result row : rows) {
                    Map<String, String> cells = new LinkedHashMap<>();
                    cells.put("rowKey", Bytes.toStringBinary(row.getRow()));
                    cells.put("decodedKey", layout.decode(row.getRow()).toString());
                    for (var cell : row.rawCells()) {
                        cells.put(Bytes.toString(org.apache.hadoop.hbase.CellUtil.cloneQualifier(cell)),
                                new String(org.apache.hadoop.hbase.CellUtil.cloneValue(cell), StandardCharsets.UTF_8));
                    }
                    sample.add(cells);
                }
            }
            long deadLetters = KafkaTopics.endOffsets(admin, input.deadLetterTopic()).values().stream()
                    .mapToLong(Long::longValue).sum();
            return new Summary(produced, dataRows, indexRows, deadLetters, round(seconds), round(produced / seconds),
                    round((dataRows + indexRows) / seconds), MAPPING, summaryRows, summaryCount, sample);
        }
    }

    static void print(Summary summary, boolean json, PrintWriter out) throws Exception {
        if (json) {
            out.println(new ObjectMapper().writeValueAsString(summary));
        } else {
            out.printf("%nrowflow demo summary (--format json)%n");
            out.printf("  events produced   %,d%n", summary.events());
            out.printf("  data rows         %,d%n", summary.dataRows());
            out.printf("  index rows        %,d%n", summary.indexRows());
            out.printf("  dead letters      %,d%n", summary.deadLetters());
            out.printf("  time              %.1f s (first event produced -> last offset committed)%n", summary.seconds());
            out.printf("  throughput        %,.0f events/s, %,.0f rows/s%n", summary.eventsPerSecond(),
                    summary.rowsPerSecond());
            out.printf("  summary table     %,d rows (host, dataset, hour), counting %,d events%n", summary.summaryRows(),
                    summary.summaryCount());
            out.printf("  rows read back:%n");
            for (Map<String, String> row : summary.sample()) {
                out.printf("    %s%n", row);
            }
        }
        out.flush();
    }

    private static long count(Connection connection, String table) throws Exception {
        long rows = 0;
        try (Table t = connection.getTable(TableName.valueOf(table));
             ResultScanner scanner = t.getScanner(new Scan().setFilter(new FirstKeyOnlyFilter()).setCaching(5_000))) {
            for (Result ignored : scanner) {
                rows++;
            }
        }
        return rows;
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
