package dev.rowflow.sinks.rekey;

import dev.rowflow.keying.mapping.KeyTranslation;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Checks a re-keyed copy against its source, per key range of the source: the rows and a checksum
 * over each row's decoded fields and cells. A source row counts with its key; a target row with
 * the key it translates back to ({@link KeyTranslation} with the layouts swapped), which is the
 * source key exactly when the copy decoded and encoded every field right, so the two sides agree
 * only if every source row is in the target once, with the same cells, and nothing else is. The
 * checksum of a range is the sum of its rows' digests (MD5 of the key and of every cell's family,
 * qualifier, timestamp and value, first 8 bytes): the order rows are read in does not matter.
 */
public final class RekeyVerification {
    /** One source range: its rows and checksum on each side. */
    public record RangeCheck(RekeyCheckpoints.Range range, long sourceRows, long targetRows, long sourceSum,
                             long targetSum) {
        public boolean matches() {
            return sourceRows == targetRows && sourceSum == targetSum;
        }
    }

    /** The ranges, and target rows whose keys do not translate back (the first few, each with why). */
    public record Report(List<RangeCheck> ranges, long strays, List<String> firstStrays) {
        public boolean ok() {
            return strays == 0 && ranges.stream().allMatch(RangeCheck::matches);
        }

        public long sourceRows() {
            return ranges.stream().mapToLong(RangeCheck::sourceRows).sum();
        }

        public long targetRows() {
            return ranges.stream().mapToLong(RangeCheck::targetRows).sum() + strays;
        }
    }

    private RekeyVerification() {
    }

    /**
     * Verifies {@code target} against {@code source}.
     *
     * @param back   the translation from the target's layout to the source's
     * @param ranges the source's key ranges to check by (those of the copy)
     */
    public static Report verify(Connection connection, TableName source, TableName target, KeyTranslation back,
                                List<RekeyCheckpoints.Range> ranges, int threads) throws IOException, InterruptedException {
        int n = ranges.size();
        AtomicLongArray sourceRows = new AtomicLongArray(n);
        AtomicLongArray sourceSums = new AtomicLongArray(n);
        AtomicLongArray targetRows = new AtomicLongArray(n);
        AtomicLongArray targetSums = new AtomicLongArray(n);
        AtomicLong strays = new AtomicLong();
        List<String> firstStrays = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "rowflow-rekey-verify");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> tasks = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                RekeyCheckpoints.Range range = ranges.get(i);
                tasks.add(pool.submit(() -> {
                    scan(connection, source, range.start(), range.end(), row -> {
                        sourceRows.incrementAndGet(index);
                        sourceSums.addAndGet(index, digest(row.getRow(), row.rawCells()));
                    });
                    return null;
                }));
            }
            try (RegionLocator regions = connection.getRegionLocator(target)) {
                for (HRegionLocation region : regions.getAllRegionLocations()) {
                    tasks.add(pool.submit(() -> {
                        scan(connection, target, region.getRegion().getStartKey(), region.getRegion().getEndKey(), row -> {
                            byte[] key;
                            try {
                                key = RekeyCopy.translate(back, row);
                            } catch (IllegalArgumentException e) {
                                strays.incrementAndGet();
                                if (firstStrays.size() < 5) {
                                    firstStrays.add(Bytes.toStringBinary(row.getRow()) + ": " + e.getMessage());
                                }
                                return;
                            }
                            int index = rangeOf(ranges, key);
                            targetRows.incrementAndGet(index);
                            targetSums.addAndGet(index, digest(key, row.rawCells()));
                        });
                        return null;
                    }));
                }
            }
            for (Future<?> task : tasks) {
                try {
                    task.get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        List<RangeCheck> checks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            checks.add(new RangeCheck(ranges.get(i), sourceRows.get(i), targetRows.get(i), sourceSums.get(i),
                    targetSums.get(i)));
        }
        return new Report(checks, strays.get(), List.copyOf(firstStrays));
    }

    private interface RowVisitor {
        void visit(Result row);
    }

    private static void scan(Connection connection, TableName table, byte[] start, byte[] end, RowVisitor visitor)
            throws IOException {
        Scan scan = new Scan().withStartRow(start, true).withStopRow(end, false).readAllVersions().setCaching(500)
                .setCacheBlocks(false);
        try (Table t = connection.getTable(table); ResultScanner scanner = t.getScanner(scan)) {
            for (Result row : scanner) {
                visitor.visit(row);
            }
        }
    }

    /** The range holding {@code key}: the last whose start is not after it. */
    static int rangeOf(List<RekeyCheckpoints.Range> ranges, byte[] key) {
        int low = 0;
        int high = ranges.size() - 1;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (Bytes.compareTo(ranges.get(mid).start(), key) <= 0) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return low;
    }

    /** The first 8 bytes of the MD5 of a row's key and cells (family, qualifier, timestamp, value each). */
    static long digest(byte[] key, Cell[] cells) {
        MessageDigest md5 = md5();
        md5.update(Bytes.toBytes(key.length));
        md5.update(key);
        for (Cell cell : cells) {
            byte[] family = CellUtil.cloneFamily(cell);
            byte[] qualifier = CellUtil.cloneQualifier(cell);
            md5.update(Bytes.toBytes(family.length));
            md5.update(family);
            md5.update(Bytes.toBytes(qualifier.length));
            md5.update(qualifier);
            md5.update(Bytes.toBytes(cell.getTimestamp()));
            byte[] value = CellUtil.cloneValue(cell);
            md5.update(Bytes.toBytes(value.length));
            md5.update(value);
        }
        return Bytes.toLong(md5.digest(), 0);
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
