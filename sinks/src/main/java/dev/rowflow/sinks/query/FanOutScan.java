package dev.rowflow.sinks.query;

import dev.rowflow.keying.layout.KeyRange;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.TableName;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;

/**
 * One scan per key range, run in parallel, and their rows merged back into one sequence in a
 * given order: the read of a salted or bucketed layout (seed 003: "a range scan becomes one scan
 * per bucket"). Each range's rows come in key order, which within one salt prefix is the merge
 * order, so a k-way merge is enough; with a limit, each scan stops after {@code limit} rows,
 * since no more than that can come from one range.
 */
final class FanOutScan {
    private FanOutScan() {
    }

    /**
     * @param ranges      key ranges, {@code [start, stop)}
     * @param mergeOrder  the order of the result (e.g. {@code RowKeyLayout.mergeOrder()}); reversed
     *                    when {@code reversed}
     * @param reversed    scan each range from its end (newest first on a {@code ts} part)
     * @param limit       most rows returned; 0 for all
     * @return the merged rows
     */
    static List<Result> scan(Connection connection, TableName table, List<KeyRange> ranges,
                             Comparator<byte[]> mergeOrder, boolean reversed, int limit, ExecutorService pool) {
        return scan(connection, table, ranges, mergeOrder, reversed, limit, 0, Long.MAX_VALUE, pool);
    }

    /**
     * The same, keeping only cells whose timestamp (the event time) is in {@code [from, to)}: a
     * server-side filter for a time range the keys cannot narrow.
     */
    static List<Result> scan(Connection connection, TableName table, List<KeyRange> ranges,
                             Comparator<byte[]> mergeOrder, boolean reversed, int limit, long from, long to,
                             ExecutorService pool) {
        List<CompletableFuture<List<Result>>> scans = new ArrayList<>(ranges.size());
        for (KeyRange range : ranges) {
            scans.add(CompletableFuture.supplyAsync(() -> scanOne(connection, table, range, reversed, limit, from, to),
                    pool));
        }
        List<List<Result>> perRange = new ArrayList<>(ranges.size());
        try {
            for (CompletableFuture<List<Result>> scan : scans) {
                perRange.add(scan.join());
            }
        } catch (CompletionException e) {
            if (e.getCause() instanceof UncheckedIOException io) {
                throw io;
            }
            throw e;
        }
        Comparator<byte[]> order = reversed ? mergeOrder.reversed() : mergeOrder;
        return merge(perRange, order, limit);
    }

    /** The k-way merge of lists each sorted by {@code order}; ties keep the earlier list's row first. */
    static List<Result> merge(List<List<Result>> sorted, Comparator<byte[]> order, int limit) {
        record Head(int list, int position, byte[] key) {
        }
        PriorityQueue<Head> heads = new PriorityQueue<>((a, b) -> {
            int c = order.compare(a.key(), b.key());
            return c != 0 ? c : Integer.compare(a.list(), b.list());
        });
        for (int i = 0; i < sorted.size(); i++) {
            if (!sorted.get(i).isEmpty()) {
                heads.add(new Head(i, 0, sorted.get(i).get(0).getRow()));
            }
        }
        List<Result> merged = new ArrayList<>();
        while (!heads.isEmpty() && (limit <= 0 || merged.size() < limit)) {
            Head head = heads.poll();
            List<Result> list = sorted.get(head.list());
            merged.add(list.get(head.position()));
            int next = head.position() + 1;
            if (next < list.size()) {
                heads.add(new Head(head.list(), next, list.get(next).getRow()));
            }
        }
        return merged;
    }

    private static List<Result> scanOne(Connection connection, TableName table, KeyRange range, boolean reversed,
                                        int limit, long from, long to) {
        Scan scan = new Scan().setCaching(limit > 0 ? Math.min(limit, 1_000) : 1_000);
        if (from > 0 || to < Long.MAX_VALUE) {
            try {
                scan.setTimeRange(from, to);
            } catch (IOException e) {
                throw new IllegalArgumentException("time range [" + from + ", " + to + "): " + e.getMessage(), e);
            }
        }
        if (reversed) {
            // A reversed scan starts at its larger key: [start, stop) read from stop down.
            scan.setReversed(true).withStartRow(range.stop(), false).withStopRow(range.start(), true);
            if (range.stop().length == 0) {
                scan.withStartRow(new byte[0]);
            }
        } else {
            scan.withStartRow(range.start()).withStopRow(range.stop());
        }
        if (limit > 0) {
            scan.setLimit(limit);
        }
        List<Result> rows = new ArrayList<>();
        try (Table t = connection.getTable(table); ResultScanner scanner = t.getScanner(scan)) {
            for (Result row : scanner) {
                rows.add(row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("scan of " + table + " " + range + " failed", e);
        }
        return rows;
    }
}
