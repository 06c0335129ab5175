package dev.rowflow.sinks.rekey;

import dev.rowflow.keying.mapping.KeyTranslation;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
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
 * Checks a re-keyed copy against its source, per key range of the source: its rows, the rows of
 * the target equal to them, and a checksum of each side -- the sum of the rows' digests (MD5 of
 * the source key and of every cell's family, qualifier, timestamp and value, first 8 bytes), a
 * target row digested under the key it translates back to ({@link KeyTranslation} with the
 * layouts swapped). Every source row is looked up in the target by its translated key, and every
 * target row in the source by the key it translates back to, so the two sides agree only if each
 * source row is in the target once with the same cells and nothing else is.
 *
 * <p>While the running pipelines write both tables, a row can be read in one table a moment
 * before the same flush reaches the other: a row that differs is read again from both, up to
 * {@link #RECHECKS} times a second apart, before it counts as a difference.
 */
public final class RekeyVerification {
    static final int RECHECKS = 3;
    private static final int BATCH = 500;

    /** One source range: its rows, the target's rows equal to them, and the checksum of each side. */
    public record RangeCheck(RekeyCheckpoints.Range range, long sourceRows, long equalRows, long sourceSum,
                             long targetSum) {
        public boolean matches() {
            return sourceRows == equalRows && sourceSum == targetSum;
        }
    }

    /** The ranges, and target rows with no source row (the first few, each with why). */
    public record Report(List<RangeCheck> ranges, long targetRows, long strays, List<String> firstStrays) {
        public boolean ok() {
            return strays == 0 && ranges.stream().allMatch(RangeCheck::matches);
        }

        public long sourceRows() {
            return ranges.stream().mapToLong(RangeCheck::sourceRows).sum();
        }
    }

    private RekeyVerification() {
    }

    /**
     * Verifies {@code target} against {@code source}.
     *
     * @param forward the translation from the source's layout to the target's
     * @param back    the translation from the target's layout to the source's
     * @param ranges  the source's key ranges to report by (those of the copy)
     */
    public static Report verify(Connection connection, TableName source, TableName target, KeyTranslation forward,
                                KeyTranslation back, List<RekeyCheckpoints.Range> ranges, int threads)
            throws IOException, InterruptedException {
        int n = ranges.size();
        AtomicLongArray sourceRows = new AtomicLongArray(n);
        AtomicLongArray equalRows = new AtomicLongArray(n);
        AtomicLongArray sourceSums = new AtomicLongArray(n);
        AtomicLongArray targetSums = new AtomicLongArray(n);
        AtomicLong targetRows = new AtomicLong();
        AtomicLong strays = new AtomicLong();
        List<String> firstStrays = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "rowflow-rekey-verify");
            t.setDaemon(true);
            return t;
        });
        try (Table from = connection.getTable(source); Table to = connection.getTable(target)) {
            List<Future<?>> tasks = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                RekeyCheckpoints.Range range = ranges.get(i);
                tasks.add(pool.submit(() -> {
                    scanInBatches(connection, source, range.start(), range.end(), batch -> {
                        List<byte[]> newKeys = new ArrayList<>();
                        List<Get> gets = new ArrayList<>();
                        for (Result row : batch) {
                            byte[] newKey = translated(forward, row);
                            newKeys.add(newKey);
                            gets.add(new Get(newKey == null ? row.getRow() : newKey).readAllVersions());
                        }
                        Result[] copies = to.get(gets);
                        for (int r = 0; r < batch.size(); r++) {
                            Result row = batch.get(r);
                            long digest = digest(row.getRow(), row.rawCells());
                            sourceRows.incrementAndGet(index);
                            sourceSums.addAndGet(index, digest);
                            byte[] newKey = newKeys.get(r);
                            Long found = newKey == null ? null : !copies[r].isEmpty()
                                    && digest(row.getRow(), copies[r].rawCells()) == digest ? Long.valueOf(digest)
                                    : recheck(to, from, newKey, row.getRow(), digest);
                            if (found != null) {
                                equalRows.incrementAndGet(index);
                                targetSums.addAndGet(index, found);
                            }
                        }
                    });
                    return null;
                }));
            }
            try (RegionLocator regions = connection.getRegionLocator(target)) {
                for (HRegionLocation region : regions.getAllRegionLocations()) {
                    tasks.add(pool.submit(() -> {
                        scanInBatches(connection, target, region.getRegion().getStartKey(), region.getRegion().getEndKey(),
                                batch -> {
                                    targetRows.addAndGet(batch.size());
                                    List<Get> gets = new ArrayList<>();
                                    for (Result row : batch) {
                                        byte[] oldKey = translated(back, row);
                                        gets.add(new Get(oldKey == null ? row.getRow() : oldKey));
                                    }
                                    boolean[] there = from.exists(gets);
                                    for (int r = 0; r < batch.size(); r++) {
                                        if (there[r] && translated(back, batch.get(r)) != null) {
                                            continue;
                                        }
                                        String stray = stray(from, back, batch.get(r));
                                        if (stray != null) {
                                            strays.incrementAndGet();
                                            if (firstStrays.size() < 5) {
                                                firstStrays.add(stray);
                                            }
                                        }
                                    }
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
            checks.add(new RangeCheck(ranges.get(i), sourceRows.get(i), equalRows.get(i), sourceSums.get(i),
                    targetSums.get(i)));
        }
        return new Report(checks, targetRows.get(), strays.get(), List.copyOf(firstStrays));
    }

    /**
     * The digest of the target row at {@code newKey} if it equals the source row of digest {@code
     * digest}, reading both again (a second apart) while they differ; null if they never agree.
     */
    private static Long recheck(Table to, Table from, byte[] newKey, byte[] oldKey, long digest)
            throws IOException, InterruptedException {
        long expected = digest;
        for (int attempt = 0; ; attempt++) {
            Result copy = to.get(new Get(newKey).readAllVersions());
            if (!copy.isEmpty()) {
                long found = digest(oldKey, copy.rawCells());
                if (found == expected) {
                    return found;
                }
            }
            if (attempt == RECHECKS) {
                return null;
            }
            Thread.sleep(1000);
            Result original = from.get(new Get(oldKey).readAllVersions());
            expected = original.isEmpty() ? expected : digest(oldKey, original.rawCells());
        }
    }

    /** Why a target row is a stray (no source row under the key it translates back to), or null. */
    private static String stray(Table from, KeyTranslation back, Result row) throws IOException, InterruptedException {
        byte[] oldKey = translated(back, row);
        if (oldKey == null) {
            return Bytes.toStringBinary(row.getRow()) + ": its key does not translate back";
        }
        for (int attempt = 0; attempt <= RECHECKS; attempt++) {
            if (from.exists(new Get(oldKey))) {
                return null;
            }
            Thread.sleep(1000);
        }
        return Bytes.toStringBinary(row.getRow()) + ": no row " + Bytes.toStringBinary(oldKey) + " in the source";
    }

    private static byte[] translated(KeyTranslation translation, Result row) {
        try {
            return RekeyCopy.translate(translation, row);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private interface BatchVisitor {
        void visit(List<Result> batch) throws IOException, InterruptedException;
    }

    private static void scanInBatches(Connection connection, TableName table, byte[] start, byte[] end,
                                      BatchVisitor visitor) throws IOException, InterruptedException {
        Scan scan = new Scan().withStartRow(start, true).withStopRow(end, false).readAllVersions().setCaching(BATCH)
                .setCacheBlocks(false);
        try (Table t = connection.getTable(table); ResultScanner scanner = t.getScanner(scan)) {
            List<Result> batch = new ArrayList<>(BATCH);
            for (Result row : scanner) {
                batch.add(row);
                if (batch.size() == BATCH) {
                    visitor.visit(batch);
                    batch = new ArrayList<>(BATCH);
                }
            }
            if (!batch.isEmpty()) {
                visitor.visit(batch);
            }
        }
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
