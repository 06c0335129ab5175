package dev.rowflow.demo;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.sinks.hbase.TableDefinition;
import dev.rowflow.sinks.hbase.HBaseRowSink;
import dev.rowflow.sinks.hbase.SinkMetrics;
import dev.rowflow.sinks.hbase.SinkSettings;
import dev.rowflow.pipeline.runtime.HBaseConnections;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The raw client of {@code rowflow bench --external}, in a JVM of its own: the rows rowflow makes
 * of the bench's events (same keying, same tables' layouts, under a prefix of its own) written by
 * {@code threads} threads through one {@link BufferedMutator} per table -- what a hand-written
 * HBase client does, without Kafka. The events are generated before the clock starts.
 *
 * <p>With {@code MODE} {@code sink} each thread writes the same rows through an
 * {@link HBaseRowSink} of its own instead, as a stream thread does (rows checked, then written,
 * flushed at the end): rowflow's sink alone, without Kafka, against the raw client.
 * <pre>
 * java -cp ... dev.rowflow.demo.RawWriter CONFIG EVENTS START_MS THREADS TABLE_PREFIX [mutator|sink]
 * </pre>
 * prints {@code RESULT rows=... seconds=... cpuSeconds=... jitSeconds=... gcSeconds=... hbaseClientSeconds=...
 * allocatedBytes=... peakRssMb=... secondHalfRows=... secondHalfCpuSeconds=...}: CPU (and of it the JIT
 * compiler's, the collector's and the HBase client's, {@link ThreadCpu}), allocation and time of the
 * writing alone, and the CPU of its
 * second half (from half the rows written to the end).
 */
final class RawWriter {
    private RawWriter() {
    }

    /**
     * The connection rowflow opens, for its sink; for the hand-written client the same but with
     * HBase's own client defaults (one request in flight per region), as such a client has them.
     */
    private static Connection connect(RowflowConfig config, String mode) throws java.io.IOException {
        if (!mode.equals("mutator")) {
            return HBaseConnections.connect(config);
        }
        org.apache.hadoop.conf.Configuration conf = HBaseConnections.configuration(config);
        conf.setInt(HBaseConnections.PER_REGION_TASKS, HConstants.DEFAULT_HBASE_CLIENT_MAX_PERREGION_TASKS);
        return ConnectionFactory.createConnection(conf);
    }

    public static void main(String[] args) throws Exception {
        RowflowConfig config = new RowflowConfig(ConfigSources.load(Path.of(args[0]), Map.of()));
        int events = Integer.parseInt(args[1]);
        long start = Long.parseLong(args[2]);
        int threads = Integer.parseInt(args[3]);
        String mode = args.length > 5 ? args[5] : "mutator";
        LogEventRows rows = dev.rowflow.pipeline.ingest.LogIngest.rows(config, null);
        List<LogEvent> generated = ExternalBench.events(events, start);
        try (Connection connection = connect(config, mode)) {
            Map<TableRole, TableDefinition> tables = ClientBaselines.tablesLike(config, rows, args[4], generated, connection);
            Map<TableRole, BufferedMutator> mutators = new HashMap<>();
            for (Map.Entry<TableRole, TableDefinition> table : tables.entrySet()) {
                if (mode.equals("mutator")) {
                    mutators.put(table.getKey(), connection.getBufferedMutator(table.getValue().name()));
                }
            }
            long expected = (long) generated.size() * rows.rowsOf(generated.get(0)).size();
            System.out.println("STARTED");
            System.out.flush();
            ThreadCpu cpu0 = ThreadCpu.self();
            long allocated0 = allocatedBytes();
            long t0 = System.nanoTime();
            // Each thread's rows so far, read by this thread for the half-way mark.
            AtomicLongArray written = new AtomicLongArray(threads);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int slice = t;
                Thread worker = new Thread(() -> {
                    try {
                        if (mode.equals("mutator")) {
                            for (int i = slice; i < generated.size(); i += threads) {
                                for (Row row : rows.rowsOf(generated.get(i))) {
                                    Put put = new Put(row.key(), row.timestamp());
                                    for (Cell cell : row.cells()) {
                                        put.addColumn(cell.family(), cell.qualifier(), row.timestamp(), cell.value());
                                    }
                                    mutators.get(row.table()).mutate(put);
                                    written.lazySet(slice, written.get(slice) + 1);
                                }
                            }
                            return;
                        }
                        // As a stream thread: a sink of its own, rows checked then written, one flush at the end.
                        try (HBaseRowSink sink = new HBaseRowSink(connection, tables, new SinkSettings(
                                config.getLong(RowflowConfig.WRITE_BUFFER_BYTES_CONFIG),
                                config.getLong(RowflowConfig.PERIODIC_FLUSH_MS_CONFIG)), SinkMetrics.none(tables))) {
                            for (int i = slice; i < generated.size(); i += threads) {
                                List<Row> made = rows.rowsOf(generated.get(i));
                                made.forEach(sink::check);
                                for (Row row : made) {
                                    sink.write(row);
                                    written.lazySet(slice, written.get(slice) + 1);
                                }
                            }
                            sink.flush();
                        }
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }, "raw-writer-" + t);
                worker.start();
                workers.add(worker);
            }
            // Half-way by rows written.
            ThreadCpu.HalfWay halfWay = ThreadCpu.awaitHalfWay(workers, () -> sum(written), expected / 2, () -> sum(written));
            ThreadCpu half = halfWay == null ? null : halfWay.cpu();
            long halfRows = halfWay == null ? 0 : halfWay.rows();
            for (BufferedMutator mutator : mutators.values()) {
                mutator.flush();
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            ThreadCpu cpu = ThreadCpu.self().since(cpu0);
            long allocated = allocatedBytes() - allocated0;
            ThreadCpu secondHalf = half == null ? cpu : ThreadCpu.self().since(half);
            for (BufferedMutator mutator : mutators.values()) {
                mutator.close();
            }
            long total = sum(written);
            System.out.printf("RESULT rows=%d seconds=%.3f cpuSeconds=%.3f jitSeconds=%.3f gcSeconds=%.3f "
                    + "hbaseClientSeconds=%.3f allocatedBytes=%d peakRssMb=%d secondHalfRows=%d secondHalfCpuSeconds=%.3f%n",
                    total, seconds, cpu.total(), cpu.jit(), cpu.gc(), cpu.hbaseClient(), allocated, peakRssMb(),
                    total - halfRows, secondHalf.total());
            System.out.flush();
        }
        System.exit(0);
    }


    private static long sum(AtomicLongArray counts) {
        long sum = 0;
        for (int i = 0; i < counts.length(); i++) {
            sum += counts.get(i);
        }
        return sum;
    }

    /** Bytes every thread of the JVM allocated so far, ended ones included. */
    static long allocatedBytes() {
        return ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads
                ? threads.getTotalThreadAllocatedBytes() : 0;
    }

    static long peakRssMb() throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) >> 10;
            }
        }
        return 0;
    }
}
