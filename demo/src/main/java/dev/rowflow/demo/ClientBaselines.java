package dev.rowflow.demo;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.TableSplits;
import dev.rowflow.sinks.hbase.TableAdmin;
import dev.rowflow.sinks.hbase.TableDefinition;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The hand-written clients {@code rowflow bench} compares the pipeline with: the same rows as
 * Puts, written with a synchronous {@code Table.put} each (a sink without buffering) and through
 * one {@code BufferedMutator} per table (what HBase takes here: the ceiling).
 */
final class ClientBaselines {
    private ClientBaselines() {
    }

    /** The Puts of the events' rows, by table role, as the sink builds them. */
    static Map<TableRole, List<Put>> puts(LogEventRows rows, List<LogEvent> events) {
        Map<TableRole, List<Put>> puts = new java.util.TreeMap<>();
        for (LogEvent event : events) {
            for (Row row : rows.rowsOf(event)) {
                Put put = new Put(row.key(), row.timestamp());
                for (Cell cell : row.cells()) {
                    put.addColumn(cell.family(), cell.qualifier(), row.timestamp(), cell.value());
                }
                puts.computeIfAbsent(row.table(), t -> new ArrayList<>()).add(put);
            }
        }
        return puts;
    }

    /**
     * Tables like the pipeline's, under another prefix, created empty and split as rowflow splits
     * them: a table whose layout is not spread by design at the quantiles of the keys of the last
     * {@code tables.split.sample.records} of {@code events} (what rowflow samples of its topic).
     */
    static Map<TableRole, TableDefinition> tablesLike(RowflowConfig config, LogEventRows rows, String prefix,
                                                      List<LogEvent> events, Connection connection) throws Exception {
        Map<TableRole, TableDefinition> tables = new java.util.TreeMap<>();
        dev.rowflow.pipeline.ingest.LogIngest.of(config, null).tables().forEach(logTable -> {
            TableDefinition table = logTable.definition();
            tables.put(logTable.role(), new TableDefinition(TableName.valueOf(prefix + table.name().getNameAsString()),
                    table.family(), table.settings(), table.layout()));
        });
        int sample = config.getInt(RowflowConfig.TABLES_SPLIT_SAMPLE_RECORDS_CONFIG);
        Map<TableRole, List<byte[]>> keys = new java.util.HashMap<>();
        for (LogEvent event : events.subList(Math.max(0, events.size() - sample), events.size())) {
            for (Row row : rows.rowsOf(event)) {
                keys.computeIfAbsent(row.table(), t -> new ArrayList<>()).add(row.key());
            }
        }
        try (org.apache.hadoop.hbase.client.Admin admin = connection.getAdmin()) {
            for (Map.Entry<TableRole, TableDefinition> table : tables.entrySet()) {
                RowKeyLayout layout = table.getValue().layout();
                new TableAdmin(admin).createOrCheck(table.getValue(), layout.spreadByDesign() ? layout.defaultSplitPoints()
                        : TableSplits.fromSample(config.getInt(RowflowConfig.TABLES_SPLIT_REGIONS_CONFIG),
                        keys.getOrDefault(table.getKey(), List.of())));
            }
        }
        return tables;
    }

    /**
     * (c) The same rows, data then index row of each event, each with its own synchronous
     * {@code Table.put}: what a sink without buffering gets. A sample of the rows.
     */
    static double naivePuts(RowflowConfig config, LogEventRows rows, List<LogEvent> events,
                            Map<TableRole, List<Put>> puts, int count, PrintWriter err) throws Exception {
        try (Connection connection = dev.rowflow.pipeline.runtime.HBaseConnections.connect(config)) {
            Map<TableRole, TableDefinition> tables = tablesLike(config, rows, "naive_", events, connection);
            List<Put> dataPuts = puts.get(TableRole.LOG_DATA);
            List<Put> indexPuts = puts.get(TableRole.LOG_INDEX);
            int written = 0;
            long start = System.nanoTime();
            try (org.apache.hadoop.hbase.client.Table data = connection.getTable(tables.get(TableRole.LOG_DATA).name());
                 org.apache.hadoop.hbase.client.Table index = connection.getTable(tables.get(TableRole.LOG_INDEX).name())) {
                for (int i = 0; written < count && i < dataPuts.size(); i++) {
                    data.put(dataPuts.get(i));
                    index.put(indexPuts.get(i));
                    written += 2;
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double rowsPerSecond = written / seconds;
            err.printf("naive Table.put:     %,d rows in %.1f s, %,.0f rows/s%n", written, seconds, rowsPerSecond);
            err.flush();
            return rowsPerSecond;
        }
    }

    /** The same rows written straight through one BufferedMutator per table: what HBase takes here. */
    static BenchCommand.Phase rawCeiling(RowflowConfig config, LogEventRows rows, List<LogEvent> events,
                                         Map<TableRole, List<Put>> puts, PrintWriter err)
            throws Exception {
        try (Connection connection = dev.rowflow.pipeline.runtime.HBaseConnections.connect(config)) {
            Map<TableRole, TableDefinition> tables = tablesLike(config, rows, "raw_", events, connection);
            CpuMeter cpu = new CpuMeter();
            long start = System.nanoTime();
            try (BufferedMutator data = connection.getBufferedMutator(tables.get(TableRole.LOG_DATA).name());
                 BufferedMutator index = connection.getBufferedMutator(tables.get(TableRole.LOG_INDEX).name())) {
                List<Put> dataPuts = puts.get(TableRole.LOG_DATA);
                List<Put> indexPuts = puts.get(TableRole.LOG_INDEX);
                for (int i = 0; i < dataPuts.size(); i++) {
                    data.mutate(dataPuts.get(i));
                    index.mutate(indexPuts.get(i));
                }
                data.flush();
                index.flush();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long written = 2L * puts.get(TableRole.LOG_DATA).size();
            double rowsPerSecond = written / seconds;
            CpuMeter.Usage usage = cpu.stop();
            err.printf("raw BufferedMutator: %,d rows in %.1f s, %,.0f rows/s; %.1f us CPU per row, machine %.0f%% busy%n",
                    written, seconds, rowsPerSecond, usage.microsPerRow(written), usage.machineBusy() * 100);
            err.flush();
            return new BenchCommand.Phase(rowsPerSecond, usage.microsPerRow(written), usage.machineBusy());
        }
    }
}
