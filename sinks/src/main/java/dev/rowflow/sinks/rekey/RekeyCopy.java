package dev.rowflow.sinks.rekey;

import dev.rowflow.keying.mapping.KeyTranslation;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Copies every row of a table into another under new keys ({@link KeyTranslation}): each cell as
 * it is -- family, qualifier, timestamp, value, every version kept -- so a row copied twice is the
 * same row. The source is read one key range (a region when the copy began) per task, several in
 * parallel; progress is checkpointed per range ({@link RekeyCheckpoints}) after each flushed batch,
 * so a copy killed at any point resumes from where it stopped.
 *
 * <p>A row whose key cannot be translated (it lacks a cell a part of the new layout needs) is not
 * written; it is counted and the first few are named, for the verification to account for.
 */
public final class RekeyCopy {
    /** Rows per checkpoint: what a resumed copy writes again at most per range. */
    static final int BATCH = 1000;
    private static final int UNKEYABLE_NAMED = 5;

    /** How far a copy is: rows copied by this run so far, ranges done of all (by earlier runs too). */
    public record Progress(long rows, int rangesDone, int ranges) {
    }

    /** What a run of a copy did: rows written, rows it could not key (the first few, each with why). */
    public record Copied(long rows, long unkeyable, List<String> firstUnkeyable, int ranges) {
    }

    private final Connection connection;
    private final TableName source;
    private final TableName target;
    private final KeyTranslation translation;
    private final int threads;

    public RekeyCopy(Connection connection, TableName source, TableName target, KeyTranslation translation, int threads) {
        this.connection = connection;
        this.source = source;
        this.target = target;
        this.translation = translation;
        this.threads = threads;
    }

    /** The source's key ranges of a copy: those recorded by a copy begun before, else its regions now. */
    public List<RekeyCheckpoints.Range> ranges(RekeyCheckpoints checkpoints) throws IOException {
        var begun = checkpoints.ranges(translation.to().spec());
        if (begun.isPresent()) {
            return begun.get();
        }
        List<RekeyCheckpoints.Range> ranges = new ArrayList<>();
        try (RegionLocator regions = connection.getRegionLocator(source)) {
            for (HRegionLocation region : regions.getAllRegionLocations()) {
                ranges.add(new RekeyCheckpoints.Range(region.getRegion().getStartKey(), region.getRegion().getEndKey()));
            }
        }
        ranges.sort((a, b) -> Bytes.compareTo(a.start(), b.start()));
        checkpoints.begin(ranges, translation.to().spec());
        return ranges;
    }

    /**
     * Copies what is left to copy.
     *
     * @param progress told how far the copy is, about once a second and at the end
     */
    public Copied run(Consumer<Progress> progress) throws IOException, InterruptedException {
        RekeyCheckpoints checkpoints = RekeyCheckpoints.open(connection, source, target);
        List<RekeyCheckpoints.Range> ranges = ranges(checkpoints);
        Map<Integer, RekeyCheckpoints.RangeState> states = checkpoints.states(ranges.size());
        AtomicLong rows = new AtomicLong();
        AtomicLong unkeyable = new AtomicLong();
        List<String> firstUnkeyable = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicInteger done = new AtomicInteger((int) states.values().stream().filter(RekeyCheckpoints.RangeState::done).count());
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "rowflow-rekey-copy");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> tasks = new ArrayList<>();
            for (int i = 0; i < ranges.size(); i++) {
                if (states.get(i).done()) {
                    continue;
                }
                int index = i;
                tasks.add(pool.submit(() -> {
                    copyRange(index, ranges.get(index), states.get(index).lastCopied(), checkpoints, rows, unkeyable,
                            firstUnkeyable);
                    done.incrementAndGet();
                    return null;
                }));
            }
            for (Future<?> task : tasks) {
                while (true) {
                    try {
                        task.get(1, TimeUnit.SECONDS);
                        break;
                    } catch (java.util.concurrent.TimeoutException notYet) {
                        progress.accept(new Progress(rows.get(), done.get(), ranges.size()));
                    } catch (ExecutionException e) {
                        throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
                    }
                }
            }
        } finally {
            pool.shutdownNow();
            checkpoints.close();
        }
        progress.accept(new Progress(rows.get(), done.get(), ranges.size()));
        return new Copied(rows.get(), unkeyable.get(), List.copyOf(firstUnkeyable), ranges.size());
    }

    private void copyRange(int index, RekeyCheckpoints.Range range, byte[] lastCopied, RekeyCheckpoints checkpoints,
                           AtomicLong rows, AtomicLong unkeyable, List<String> firstUnkeyable) throws IOException {
        Scan scan = new Scan().withStartRow(lastCopied == null ? range.start() : lastCopied, lastCopied == null)
                .withStopRow(range.end(), false).readAllVersions().setCaching(500).setCacheBlocks(false);
        long copied = 0;
        try (Table from = connection.getTable(source); ResultScanner scanner = from.getScanner(scan);
             BufferedMutator to = connection.getBufferedMutator(target)) {
            int inBatch = 0;
            byte[] last = null;
            for (Result row : scanner) {
                Put put = rekeyed(row, unkeyable, firstUnkeyable);
                if (put != null) {
                    to.mutate(put);
                    copied++;
                    rows.incrementAndGet();
                }
                last = row.getRow();
                if (++inBatch == BATCH) {
                    to.flush();
                    checkpoints.copiedUpTo(index, last);
                    inBatch = 0;
                }
            }
            to.flush();
            if (last != null) {
                checkpoints.copiedUpTo(index, last);
            }
        }
        checkpoints.done(index, copied);
    }

    /** The row under its new key, or null (counted, the first few named) if it cannot be keyed. */
    private Put rekeyed(Result row, AtomicLong unkeyable, List<String> firstUnkeyable) {
        Cell[] cells = row.rawCells();
        byte[] key;
        try {
            key = translate(translation, row);
        } catch (IllegalArgumentException e) {
            unkeyable.incrementAndGet();
            if (firstUnkeyable.size() < UNKEYABLE_NAMED) {
                firstUnkeyable.add(Bytes.toStringBinary(row.getRow()) + ": " + e.getMessage());
            }
            return null;
        }
        Put put = new Put(key);
        for (Cell cell : cells) {
            put.addColumn(CellUtil.cloneFamily(cell), CellUtil.cloneQualifier(cell), cell.getTimestamp(),
                    CellUtil.cloneValue(cell));
        }
        return put;
    }

    /**
     * The key {@code translation} gives {@code row}: its key, the time of its newest cell, its cells
     * (the newest version of each).
     *
     * @throws IllegalArgumentException as {@link KeyTranslation#translate} does
     */
    public static byte[] translate(KeyTranslation translation, Result row) {
        return translation.translate(row.getRow(), row.rawCells()[0].getTimestamp(), (family, qualifier) -> {
            Cell cell = row.getColumnLatestCell(Bytes.toBytes(family), Bytes.toBytes(qualifier));
            return cell == null ? null : CellUtil.cloneValue(cell);
        });
    }
}
