package dev.rowflow.demo;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.log.LogColumns;
import dev.rowflow.embedded.load.LogEventGenerator;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The seeds' hotspot experiment (seed 003, 002 1.3): events with sequential timestamps written
 * into tables pre-split into the same number of regions, under an unsalted time-led key, a salted
 * one, and one salted by a part of the key (the hostname); each region's share of the writes is
 * read from HBase's own region metrics (write request counts), not computed from the keys.
 */
final class HotspotExperiment {
    static final int REGIONS = 8;

    /** One layout's outcome: each region's share of the writes, in region order. */
    record Result(String name, String layout, String split, List<Double> shares, double largestOverFair) {
    }

    private HotspotExperiment() {
    }

    static List<Result> run(Connection connection, int events, PrintWriter err) throws Exception {
        long start = System.currentTimeMillis();
        List<Result> results = new ArrayList<>();
        results.add(one(connection, "unsalted", "timestamp:ts, hostname:text, eventType:text", events, start, err));
        results.add(one(connection, "salted", "bucket(" + REGIONS + ") | timestamp:ts, hostname:text, eventType:text",
                events, start, err));
        results.add(one(connection, "partial-key salted",
                "bucket(" + REGIONS + ",hash=hostname) | hostname:text, eventType:text, timestamp:ts", events, start, err));
        return results;
    }

    private static Result one(Connection connection, String name, String spec, int events, long start, PrintWriter err)
            throws Exception {
        RowKeyLayout layout = RowKeyLayout.parse(spec, null);
        TableName table = TableName.valueOf("hotspot_" + name.replaceAll("[^a-z]", "_"));
        List<byte[]> splits;
        String split;
        if (layout.salt().width() > 0) {
            splits = layout.splitPoints(REGIONS);
            split = "one region per bucket";
        } else {
            // The best an unsalted time-led table can do: split at the quantiles of yesterday's
            // keys. Today's sequential keys all sort after them.
            List<byte[]> yesterday = new ArrayList<>();
            LogEventGenerator past = new LogEventGenerator(3, 200, start - 86_400_000L);
            for (int i = 0; i < events; i++) {
                yesterday.add(layout.encode(past.next()));
            }
            splits = RowKeyLayout.splitPoints(REGIONS, yesterday);
            split = "quantiles of the previous day's keys";
        }
        try (Admin admin = connection.getAdmin()) {
            if (admin.tableExists(table)) {
                admin.disableTable(table);
                admin.deleteTable(table);
            }
            admin.createTable(TableDescriptorBuilder.newBuilder(table)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(LogColumns.DATA_FAMILY)).build(),
                    splits.toArray(new byte[0][]));
        }
        LogEventGenerator generator = new LogEventGenerator(4, 200, start);
        try (BufferedMutator mutator = connection.getBufferedMutator(table)) {
            for (int i = 0; i < events; i++) {
                LogEvent event = generator.next();
                mutator.mutate(new Put(layout.encode(event)).addColumn(LogColumns.DATA_FAMILY, LogColumns.MESSAGE,
                        Bytes.toBytes(event.getMessage())));
            }
        }
        Map<byte[], Long> writes = new TreeMap<>(Bytes.BYTES_COMPARATOR);
        try (Admin admin = connection.getAdmin()) {
            for (RegionInfo region : admin.getRegions(table)) {
                writes.put(region.getStartKey(), 0L);
            }
            for (ServerName server : admin.getRegionServers()) {
                for (RegionMetrics metrics : admin.getRegionMetrics(server, table)) {
                    writes.merge(RegionInfo.getStartKey(metrics.getRegionName()), metrics.getWriteRequestCount(),
                            Long::sum);
                }
            }
        }
        long total = writes.values().stream().mapToLong(Long::longValue).sum();
        List<Double> shares = writes.values().stream().map(w -> total == 0 ? 0.0 : (double) w / total).toList();
        double largest = shares.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        double overFair = Math.round(largest * shares.size() * 100) / 100.0;
        err.printf("hotspot %-19s largest region %.1f%% of %,d writes (%.2f x fair share over %d regions)%n", name,
                largest * 100, total, overFair, shares.size());
        err.flush();
        return new Result(name, spec, split, shares.stream().map(s -> Math.round(s * 1000) / 1000.0).toList(), overFair);
    }

    static String describe(List<Double> shares) {
        return Arrays.toString(shares.stream().mapToLong(s -> Math.round(s * 100)).toArray());
    }
}
