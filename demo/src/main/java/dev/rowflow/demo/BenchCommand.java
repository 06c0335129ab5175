package dev.rowflow.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.load.LogEventGenerator;
import dev.rowflow.pipeline.load.LogEventProducer;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import dev.rowflow.sinks.hbase.TableAdmin;
import dev.rowflow.sinks.hbase.TableDefinition;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code rowflow bench}: rowflow end to end against the raw BufferedMutator ceiling, measured in one
 * run on the same machine with the same rows (the data and index rows of the same events), so the
 * ratio means something on a shared, noisy box.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Measure rowflow end to end (topic -> HBase, data + index rows) against the raw "
                + "BufferedMutator ceiling with the same rows, on the embedded stack, and print rows/s and the ratio."})
final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--events", defaultValue = "200000", description = "Events (default: ${DEFAULT-VALUE}).")
    int events;

    @Option(names = "--json", description = "Print the result as one JSON object on the last line of stdout.")
    boolean json;

    /** The result; rows are data plus index rows. */
    record BenchResult(int events, long rows, double rawRowsPerSecond, double rowflowRowsPerSecond, double ratio,
                       String dataLayout, String machine) {
    }

    @picocli.CommandLine.Option(names = "--summary",
            description = "Let rowflow also keep the log summary table (the raw ceiling does not write it).")
    boolean summary;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        err.println("rowflow bench: starting the embedded stack ...");
        err.flush();
        try (EmbeddedStack stack = EmbeddedStack.start()) {
            Map<String, Object> props = new LinkedHashMap<>(stack.rowflowProperties());
            props.put(RowflowConfig.APPLICATION_ID_CONFIG, "rowflow-bench");
            props.put(RowflowConfig.LOGS_TOPIC_CONFIG, "bench-logs");
            props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, "bench_data");
            props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, "bench_index");
            props.put(RowflowConfig.LOG_DATA_LAYOUT_CONFIG, "bucket(8) | timestamp:ts, hostname:text, eventType:text");
            // Completion is measured by committed offsets, so commit (and flush) every second;
            // with Kafka Streams' default 30 s the run would end at a commit, not when the rows are in.
            props.put("kafka.commit.interval.ms", "1000");
            // The raw ceiling writes data and index rows only; the summary counters are extra work
            // measured on request.
            props.put(RowflowConfig.LOG_SUMMARY_ENABLED_CONFIG, String.valueOf(summary));
            RowflowConfig config = new RowflowConfig(props);
            LogEventRows rows = config.logEventRows(null);

            List<LogEvent> generated = new ArrayList<>(events);
            LogEventGenerator generator = new LogEventGenerator(8, 200, System.currentTimeMillis() - events);
            for (int i = 0; i < events; i++) {
                generated.add(generator.next());
            }
            double raw = rawCeiling(config, rows, generated, err);
            double rowflow = endToEnd(config, generated, err);
            long totalRows = 2L * events;
            BenchResult result = new BenchResult(events, totalRows, Math.round(raw), Math.round(rowflow),
                    Math.round(rowflow / raw * 100) / 100.0, rows.dataLayout().spec(),
                    Runtime.getRuntime().availableProcessors() + " cores, Java " + System.getProperty("java.version"));
            print(result);
        }
        return 0;
    }

    /** The same rows written straight through one BufferedMutator per table: what HBase takes here. */
    private static double rawCeiling(RowflowConfig config, LogEventRows rows, List<LogEvent> events, PrintWriter err)
            throws Exception {
        Map<TableRole, TableDefinition> tables = new EnumMap<>(TableRole.class);
        config.logTables(rows).forEach((role, table) -> tables.put(role, new TableDefinition(
                TableName.valueOf("raw_" + table.name().getNameAsString()), table.family(), table.settings(),
                table.layout())));
        List<List<Put>> puts = List.of(new ArrayList<>(), new ArrayList<>());
        for (LogEvent event : events) {
            for (Row row : rows.rowsOf(event)) {
                Put put = new Put(row.key(), row.timestamp());
                for (Cell cell : row.cells()) {
                    put.addColumn(cell.family(), cell.qualifier(), row.timestamp(), cell.value());
                }
                puts.get(row.table().ordinal()).add(put);
            }
        }
        try (Connection connection = ConnectionFactory.createConnection(RowflowPipeline.hbaseConfiguration(config))) {
            try (org.apache.hadoop.hbase.client.Admin admin = connection.getAdmin()) {
                for (TableDefinition table : tables.values()) {
                    new TableAdmin(admin).createOrCheck(table);
                }
            }
            long start = System.nanoTime();
            try (BufferedMutator data = connection.getBufferedMutator(tables.get(TableRole.LOG_DATA).name());
                 BufferedMutator index = connection.getBufferedMutator(tables.get(TableRole.LOG_INDEX).name())) {
                List<Put> dataPuts = puts.get(TableRole.LOG_DATA.ordinal());
                List<Put> indexPuts = puts.get(TableRole.LOG_INDEX.ordinal());
                for (int i = 0; i < dataPuts.size(); i++) {
                    data.mutate(dataPuts.get(i));
                    index.mutate(indexPuts.get(i));
                }
                data.flush();
                index.flush();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double rowsPerSecond = 2.0 * events.size() / seconds;
            err.printf("raw BufferedMutator: %,d rows in %.1f s, %,.0f rows/s%n", 2L * events.size(), seconds, rowsPerSecond);
            err.flush();
            return rowsPerSecond;
        }
    }

    /** The same events through the topic and the production pipeline, timed from RUNNING to all committed. */
    private static double endToEnd(RowflowConfig config, List<LogEvent> events, PrintWriter err) throws Exception {
        String topic = config.getString(RowflowConfig.LOGS_TOPIC_CONFIG);
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, topic, Optional.of(4), Duration.ofSeconds(30));
            try (LogEventProducer producer = LogEventProducer.open(config.kafkaProperties(), topic)) {
                events.forEach(producer::send);
            }
            try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry())) {
                while (pipeline.state() != KafkaStreams.State.RUNNING) {
                    Thread.sleep(10);
                }
                long start = System.nanoTime();
                while (KafkaTopics.uncommitted(admin, config.getString(RowflowConfig.APPLICATION_ID_CONFIG), topic) > 0) {
                    if (System.nanoTime() - start > TimeUnit.MINUTES.toNanos(10)) {
                        throw new IllegalStateException("the pipeline did not finish within 10 minutes");
                    }
                    Thread.sleep(50);
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                double rowsPerSecond = 2.0 * events.size() / seconds;
                err.printf("rowflow end to end:  %,d rows in %.1f s, %,.0f rows/s (RUNNING -> last offset committed)%n",
                        2L * events.size(), seconds, rowsPerSecond);
                err.flush();
                return rowsPerSecond;
            }
        }
    }

    private void print(BenchResult result) throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(new ObjectMapper().writeValueAsString(result));
        } else {
            out.printf("%n| measure | rows/s |%n|---|---|%n");
            out.printf("| raw BufferedMutator ceiling (a) | %,.0f |%n", result.rawRowsPerSecond());
            out.printf("| rowflow end to end (b) | %,.0f |%n", result.rowflowRowsPerSecond());
            out.printf("| b / a | %.2f |%n", result.ratio());
            out.printf("%n%,d events, %,d rows (data + index), layout %s, %s%n", result.events(), result.rows(),
                    result.dataLayout(), result.machine());
        }
        out.flush();
    }
}
