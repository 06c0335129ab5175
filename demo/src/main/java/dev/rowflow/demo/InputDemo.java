package dev.rowflow.demo;

import dev.rowflow.embedded.load.Offsets;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.pipeline.cli.RowTable;
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
 * {@code rowflow demo --format json|avro-registry}: records of a {@link Source} on a topic,
 * ingested through the declared input the source declares -- printed -- on the embedded stack,
 * and read back with plain hbase-client.
 */
final class InputDemo {
    /**
     * What a declared-input demo ingests: its declaration (one input with a {@code host} index and
     * a summary table) and its records.
     */
    interface Source {
        /** What the records are, for the progress lines: "Filebeat-shaped JSON". */
        String describe();

        /** The input's name in the declaration. */
        String input();

        /** The declaration: {@code pipelines}, {@code inputs} and the {@code input.<name>.*} keys. */
        Map<String, String> mapping();

        /** The records, the first of them at {@code start} (ms), from {@code hosts} hosts. */
        java.util.function.Supplier<byte[]> records(long start, int hosts);
    }

    /** Filebeat-shaped ECS JSON ({@link EcsEvents}) through docs/inputs.md's Filebeat recipe, 8 salt buckets. */
    static final Source JSON = new Source() {
        @Override
        public String describe() {
            return "Filebeat-shaped JSON";
        }

        @Override
        public String input() {
            return "filebeat";
        }

        @Override
        public Map<String, String> mapping() {
            return JSON_MAPPING;
        }

        @Override
        public java.util.function.Supplier<byte[]> records(long start, int hosts) {
            return new EcsEvents(20_130_325L, hosts, start)::next;
        }
    };

    static final Map<String, String> JSON_MAPPING = jsonMapping();

    private static Map<String, String> jsonMapping() {
        Map<String, String> mapping = new LinkedHashMap<>();
        mapping.put("inputs", "filebeat");
        mapping.put("input.filebeat.topic", "filebeat");
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
     * What the demo did; the first four are what the Avro demo's summary has too.
     *
     * @param summaryRows  rows of the summary table (host, dataset, hour)
     * @param summaryCount the sum of its counters: every event counted once
     * @param sample       a few data rows read back: key decoded, cells
     */
    record Summary(long events, long dataRows, long indexRows, long deadLetters, double seconds,
                   double eventsPerSecond, double rowsPerSecond, Map<String, String> mapping, long summaryRows,
                   long summaryCount, List<SampleRow> sample) {
    }

    /** A data row read back: its key as the shell prints it, the key's parts decoded, the cell time, the cells. */
    record SampleRow(String rowKey, Map<String, String> key, String time, Map<String, String> columns) {
    }

    private InputDemo() {
    }

    static Summary run(Source source, EmbeddedStack stack, String store, MetricsServer metrics, Long events, int hosts,
                       int rate, int partitions, AtomicBoolean stop, PrintWriter err) throws Exception {
        Map<String, Object> props = new LinkedHashMap<>(stack.rowflowProperties(store));
        props.putAll(source.mapping());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "rowflow-demo-" + source.input());
        props.put(RowflowConfig.METRICS_PORT_CONFIG, metrics.port());
        props.put("kafka.commit.interval.ms", "1000");
        RowflowConfig config = new RowflowConfig(props);
        err.println("rowflow demo: ingesting " + source.describe() + " through this declared input:");
        source.mapping().forEach((key, value) -> err.println("  " + key + "=" + value));
        err.flush();
        InputConfig input = config.inputs().get(0);
        String topic = input.topic();
        String group = config.getString(RowflowConfig.APPLICATION_ID_CONFIG);
        long produced = 0;
        double seconds;
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, topic, Optional.of(partitions), Duration.ofSeconds(60));
            try (RowflowPipeline pipeline = RowflowPipeline.start(config, metrics.registry())) {
                pipeline.serveOn(metrics);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (pipeline.state() != KafkaStreams.State.RUNNING && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                long start = System.currentTimeMillis() - (events == null ? 0 : events);
                java.util.function.Supplier<byte[]> records = source.records(start, hosts);
                long t0 = System.nanoTime();
                long lastReport = 0;
                try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), topic)) {
                    while ((events == null || produced < events) && !stop.get()) {
                        long batch = events == null ? Math.max(1, rate / 10) : Math.min(10_000, events - produced);
                        for (long i = 0; i < batch; i++) {
                            producer.send(null, null, records.get());
                        }
                        produced += batch;
                        if (events == null) {
                            Thread.sleep(100);
                        }
                        lastReport = report(admin, group, topic, produced, events, t0, lastReport, err);
                    }
                    producer.flush();
                }
                while (Offsets.uncommitted(admin, group, topic) != 0) {
                    if (pipeline.state() == KafkaStreams.State.ERROR) {
                        throw new IllegalStateException("the pipeline failed; see rowflow-demo.log");
                    }
                    lastReport = report(admin, group, topic, produced, events, t0, lastReport, err);
                    Thread.sleep(200);
                }
                seconds = (System.nanoTime() - t0) / 1e9;
                report(admin, group, topic, produced, events, t0, 0, err);
            }
            return readBack(source, config, input, admin, produced, seconds);
        }
    }

    private static long report(Admin admin, String group, String topic, long produced, Long events, long t0,
                               long lastReport, PrintWriter err) throws Exception {
        long now = System.nanoTime();
        if (now - lastReport < TimeUnit.SECONDS.toNanos(2)) {
            return lastReport;
        }
        long committed = produced - Offsets.uncommitted(admin, group, topic);
        double seconds = Math.max((now - t0) / 1e9, 0.001);
        err.printf("[%6.1f s] produced %,d%s  in the store (committed) %,d  %,.0f events/s%n", seconds, produced,
                events == null ? "" : String.format("/%,d", events), committed, committed / seconds);
        err.flush();
        return now;
    }

    private static Summary readBack(Source source, RowflowConfig config, InputConfig input, Admin admin,
                                    long produced, double seconds) throws Exception {
        try (Connection connection = dev.rowflow.pipeline.runtime.HBaseConnections.connect(config)) {
            String dataTable = input.tableName(InputConfig.TABLE);
            long dataRows = count(connection, dataTable);
            long indexRows = count(connection, input.tableName("index." + input.indexes().get(0) + "." + InputConfig.TABLE));
            long summaryRows = 0;
            long summaryCount = 0;
            try (Table summary = connection.getTable(TableName.valueOf(input.tableName(InputConfig.SUMMARY_TABLE)));
                 ResultScanner rows = summary.getScanner(new Scan())) {
                for (Result row : rows) {
                    summaryRows++;
                    summaryCount += dev.rowflow.sinks.hbase.CounterCells.total(row, Bytes.toBytes("s"), Bytes.toBytes("n"));
                }
            }
            RowKeyLayout layout = RowKeyLayout.parse(input.getString(InputConfig.KEY), null);
            List<SampleRow> sample = new ArrayList<>();
            try (Table data = connection.getTable(TableName.valueOf(dataTable));
                 ResultScanner rows = data.getScanner(new Scan().setLimit(3))) {
                for (Result row : rows) {
                    Map<String, String> cells = new LinkedHashMap<>();
                    for (var cell : row.rawCells()) {
                        cells.put(Bytes.toString(org.apache.hadoop.hbase.CellUtil.cloneQualifier(cell)),
                                new String(org.apache.hadoop.hbase.CellUtil.cloneValue(cell), StandardCharsets.UTF_8));
                    }
                    sample.add(new SampleRow(Bytes.toStringBinary(row.getRow()), RowTable.keyFields(layout, row.getRow()),
                            java.time.Instant.ofEpochMilli(row.rawCells()[0].getTimestamp()).toString(), cells));
                }
            }
            long deadLetters = KafkaTopics.endOffsets(admin, input.deadLetterTopic()).values().stream()
                    .mapToLong(Long::longValue).sum();
            return new Summary(produced, dataRows, indexRows, deadLetters, round(seconds), round(produced / seconds),
                    round((dataRows + indexRows) / seconds), source.mapping(), summaryRows, summaryCount, sample);
        }
    }

    static void print(Summary summary, boolean json, PrintWriter out) throws Exception {
        if (json) {
            out.println(new ObjectMapper().writeValueAsString(summary));
        } else {
            out.printf("%nrowflow demo summary (--format %s)%n", summary.mapping().get("input." + summary.mapping()
                    .get("inputs") + ".format"));
            out.printf("  events produced   %,d%n", summary.events());
            out.printf("  data rows         %,d%n", summary.dataRows());
            out.printf("  index rows        %,d%n", summary.indexRows());
            out.printf("  dead letters      %,d%n", summary.deadLetters());
            out.printf("  time              %.1f s (first event produced -> last offset committed)%n", summary.seconds());
            out.printf("  throughput        %,.0f events/s, %,.0f rows/s%n", summary.eventsPerSecond(),
                    summary.rowsPerSecond());
            out.printf("  summary table     %,d rows (%s per hour), counting %,d events%n", summary.summaryRows(),
                    summary.mapping().get("input." + summary.mapping().get("inputs") + ".summary.key"),
                    summary.summaryCount());
            out.printf("  rows read back, a scan of the data table:%n");
            String input = summary.mapping().get("inputs");
            RowTable table = new RowTable(RowKeyLayout.parse(summary.mapping().get("input." + input + ".key"), null));
            for (SampleRow row : summary.sample()) {
                table.add(Bytes.toBytesBinary(row.rowKey()), java.time.Instant.parse(row.time()).toEpochMilli(),
                        row.columns());
            }
            table.print(out, "    ");
        }
        out.flush();
    }

    private static long count(Connection connection, String table) throws Exception {
        return dev.rowflow.embedded.load.TableRows.count(connection, table);
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
