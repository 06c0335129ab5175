package dev.rowflow.demo;

import dev.rowflow.pipeline.config.RowflowConfig;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The servers of {@code rowflow bench --external} and {@code --scale}: Kafka and HBase each in a
 * JVM of its own ({@code ServerProcess}), and the rowflow settings that reach them (the summary
 * table off, as the raw client writes none; the streams' state under {@code dir});
 * {@code rowflowSettings} are the bench's {@code --set}, for rowflow's runs alone. Between runs it
 * drops the last writer's tables and has the region server collect its garbage, so that no run
 * pays for the one before it.
 */
record BenchServers(ChildJvm kafka, ChildJvm hbase, Map<String, Object> base, Map<String, String> rowflowSettings)
        implements AutoCloseable {
    static BenchServers start(Path dir, Map<String, String> rowflowSettings, PrintWriter err) throws Exception {
        Files.createDirectories(dir.resolve("kafka"));
        Files.createDirectories(dir.resolve("hbase"));
        err.println("bench --external: starting Kafka and HBase, each in a JVM of its own ...");
        err.flush();
        ChildJvm kafka = ChildJvm.start("kafka", List.of("-Xmx768m"), "dev.rowflow.embedded.ServerProcess",
                List.of("kafka", dir.resolve("kafka").toString()), null);
        try {
            // A region server's heap large enough for its memstores: one writer's run holds about
            // 360 MB of them until its tables are dropped, a latency run more. With 1 GB (a global
            // memstore limit of 410 MB) the collector ran concurrent cycles through every run and
            // the latency runs flushed memstores under pressure: HBase's CPU per row and rowflow's
            // latency then measured the region server's heap, not the writers. Fixed (-Xms), so the
            // full collection between runs (settle) does not shrink it: over a growable heap the runs
            // after one paid 19-25 us of HBase CPU per row, 3.5-6.3 of it collecting.
            ChildJvm hbase = ChildJvm.start("hbase", List.of("-Xms3g", "-Xmx3g"), "dev.rowflow.embedded.ServerProcess",
                    List.of("hbase", dir.resolve("hbase").toString()), null);
            try {
                Map<String, Object> base = new LinkedHashMap<>();
                base.putAll(ExternalBench.settings(kafka.awaitLine("READY")));
                base.putAll(ExternalBench.settings(hbase.awaitLine("READY")));
                // The raw client writes data and index rows; so does rowflow here (its summary table is extra work).
                base.put(RowflowConfig.LOG_SUMMARY_ENABLED_CONFIG, "false");
                base.put("kafka.state.dir", dir.resolve("streams-state").toString());
                return new BenchServers(kafka, hbase, base, Map.copyOf(rowflowSettings));
            } catch (Exception | Error e) {
                hbase.close();
                throw e;
            }
        } catch (Exception | Error e) {
            kafka.close();
            throw e;
        }
    }

    /** The configuration every rowflow run starts from: {@link #base} and the bench's settings. */
    Map<String, Object> rowflow() {
        Map<String, Object> rowflow = new LinkedHashMap<>(base);
        rowflow.putAll(rowflowSettings);
        return rowflow;
    }

    /**
     * Drops the tables whose names start with {@code prefix}, then has the region server's JVM
     * collect its garbage: the next writer starts on a region server that holds neither the
     * last one's regions nor the dead memstore cells of them (a few hundred MB a run), which its
     * collector would otherwise clear at whatever moment of the next writer's run it chose.
     */
    void settle(String prefix) throws Exception {
        dropTables(base, prefix);
        hbase.collectGarbage();
    }

    @Override
    public void close() throws InterruptedException {
        try {
            hbase.close();
        } finally {
            kafka.close();
        }
    }

    /**
     * Deletes the tables whose names start with {@code prefix}: each writer of each round starts on
     * a region server that holds no other writer's regions and memstores.
     */
    private static void dropTables(Map<String, Object> base, String prefix) throws Exception {
        try (org.apache.hadoop.hbase.client.Connection connection =
                     dev.rowflow.pipeline.runtime.HBaseConnections.connect(new RowflowConfig(base));
             org.apache.hadoop.hbase.client.Admin admin = connection.getAdmin()) {
            for (org.apache.hadoop.hbase.TableName table : admin.listTableNames(
                    java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(prefix) + ".*"))) {
                admin.disableTable(table);
                admin.deleteTable(table);
            }
        }
    }
}
