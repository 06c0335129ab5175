package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.Counter;
import dev.rowflow.keying.TableRole;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * HBase counters that count each source record once, however often it is replayed.
 *
 * <p>An {@code Increment} is not idempotent: replaying a record after a crash would count it
 * twice. So every counter row also keeps, per source (a topic partition), a watermark: the
 * highest offset already counted from that source, qualifier {@code w.<source>}, 8 bytes. Records
 * of one source arrive in offset order, so "counted" is exactly "offset at or below the mark".
 * {@link #apply} adds the amounts of the records above the mark and moves the mark in one atomic
 * {@code checkAndMutate} (an {@code Increment} and a {@code Put} in one {@code RowMutations},
 * conditional on the mark being what was read). If the condition fails -- another writer, such as
 * a stream thread that lost the partition but had not noticed yet, moved the mark -- the mark is
 * read again and only what is still above it is added.
 *
 * <p>A store without an increment inside a conditional mutation (Bigtable: its conditional
 * mutations take only set-cell and delete) keeps a count per source instead, qualifier
 * {@code <counter qualifier>@<source>}, 8 bytes, written as an absolute value (the count read
 * with the mark plus the amount) in the same conditional mutation as the mark: only the writer
 * that holds the mark can move that source's count, so no update is lost. The counter's value is
 * then the sum of its per-source cells ({@link CounterCells#total}); its own cell stays unwritten.
 *
 * <p>Cost: one batched {@code checkAndMutate} per counter cell and source per flush (on Bigtable
 * one per counter cell and source: its adapter takes them one at a time), one batched
 * {@code Get} for marks not cached (after a start or a lost race). Not thread-safe.
 */
final class IdempotentCounters {
    private static final String MARK_PREFIX = "w.";
    private static final int MAX_ATTEMPTS = 10;

    /** The records not yet applied of one counter cell and one source: offsets ascending, amounts. */
    private static final class Pending {
        final Counter counter;
        final byte[] mark;
        long[] offsets = new long[8];
        long[] amounts = new long[8];
        int size;

        Pending(Counter counter, byte[] mark) {
            this.counter = counter;
            this.mark = mark;
        }

        void add(long offset, long amount) {
            if (size == offsets.length) {
                offsets = Arrays.copyOf(offsets, size * 2);
                amounts = Arrays.copyOf(amounts, size * 2);
            }
            offsets[size] = offset;
            amounts[size] = amount;
            size++;
        }

        /** The amount of the records above {@code watermark}. */
        long amountAbove(long watermark) {
            long sum = 0;
            for (int i = size - 1; i >= 0 && offsets[i] > watermark; i--) {
                sum += amounts[i];
            }
            return sum;
        }

        long lastOffset() {
            return offsets[size - 1];
        }
    }

    private final Connection connection;
    private final Map<TableRole, TableName> tables;
    /** Whether the store counts with an Increment in the conditional mutation, or per source. */
    private final boolean increments;
    /** One counter cell of one source. */
    private record Key(TableRole table, ByteBuffer row, ByteBuffer family, ByteBuffer qualifier, String source) {
    }

    /** Watermarks cached at most, so a long run does not keep one per counter row ever touched. */
    private static final int MAX_CACHED_WATERMARKS = 100_000;

    private final Map<Key, Pending> pending = new LinkedHashMap<>();
    /** Known watermarks; -1 = no mark (nothing counted yet). */
    private final Map<Key, Long> watermarks = new HashMap<>();
    /** Known per-source counts, read with the watermarks (per-source stores only). */
    private final Map<Key, Long> sourceCounts = new HashMap<>();

    IdempotentCounters(Connection connection, Map<TableRole, TableName> tables) {
        this.connection = connection;
        this.tables = tables;
        this.increments = Store.of(connection).capabilities().conditionalIncrement();
    }

    /** Remembers that record {@code offset} of {@code source} adds to {@code counter}. */
    void add(Counter counter, String source, long offset) {
        if (!tables.containsKey(counter.table())) {
            throw new IllegalStateException("no table configured for " + counter.table() + " (counter " + counter + ")");
        }
        byte[] mark = (MARK_PREFIX + source).getBytes(StandardCharsets.UTF_8);
        Key key = new Key(counter.table(), ByteBuffer.wrap(counter.row()), ByteBuffer.wrap(counter.family()),
                ByteBuffer.wrap(counter.qualifier()), source);
        Pending p = pending.computeIfAbsent(key, k -> new Pending(counter, mark));
        if (p.size > 0 && offset <= p.lastOffset()) {
            // A replay within the same flush interval (the task restarted): counted already here.
            return;
        }
        p.add(offset, counter.amount());
    }

    boolean isEmpty() {
        return pending.isEmpty();
    }

    /**
     * Applies every pending amount exactly once; on return all of them are durable in HBase.
     *
     * @return counter cells incremented, by table
     */
    Map<TableRole, Long> apply() throws IOException {
        Map<TableRole, Long> applied = new java.util.TreeMap<>();
        if (watermarks.size() > MAX_CACHED_WATERMARKS) {
            watermarks.clear();
            sourceCounts.clear();
        }
        for (int attempt = 1; !pending.isEmpty(); attempt++) {
            if (attempt > MAX_ATTEMPTS) {
                throw new IOException("counter watermarks kept moving under " + pending.size()
                        + " counters after " + MAX_ATTEMPTS + " attempts: is another writer counting the same sources?");
            }
            readMissingWatermarks();
            Map<TableRole, List<Key>> keysByTable = new HashMap<>();
            Map<TableRole, List<CheckAndMutate>> mutations = new HashMap<>();
            for (Map.Entry<Key, Pending> entry : new ArrayList<>(pending.entrySet())) {
                Pending p = entry.getValue();
                long watermark = watermarks.get(entry.getKey());
                long amount = p.amountAbove(watermark);
                if (p.lastOffset() <= watermark) {
                    pending.remove(entry.getKey()); // all counted before (a replay)
                    continue;
                }
                Counter c = p.counter;
                RowMutations row = new RowMutations(c.row(), 2);
                Put markAndCount = new Put(c.row()).addColumn(c.family(), p.mark, Bytes.toBytes(p.lastOffset()));
                if (increments) {
                    // No result wanted: of a counter cell that does not exist yet, HBase 2.6 returns
                    // the request's own delta cell, and encodes it into the response after the
                    // request's buffer went back to its pool (HRegion.reckonDelta, CallRunner) --
                    // another request's bytes, or a region server crash if the pool freed the memory.
                    row.add(new Increment(c.row()).addColumn(c.family(), c.qualifier(), amount).setReturnResults(false));
                } else {
                    markAndCount.addColumn(c.family(), CounterCells.sourceQualifier(c.qualifier(), entry.getKey().source()),
                            Bytes.toBytes(sourceCounts.getOrDefault(entry.getKey(), 0L) + amount));
                }
                row.add(markAndCount);
                CheckAndMutate.Builder check = CheckAndMutate.newBuilder(c.row());
                CheckAndMutate mutate = watermark < 0 ? check.ifNotExists(c.family(), p.mark).build(row)
                        : check.ifEquals(c.family(), p.mark, Bytes.toBytes(watermark)).build(row);
                keysByTable.computeIfAbsent(c.table(), t -> new ArrayList<>()).add(entry.getKey());
                mutations.computeIfAbsent(c.table(), t -> new ArrayList<>()).add(mutate);
            }
            for (Map.Entry<TableRole, List<CheckAndMutate>> table : mutations.entrySet()) {
                List<Key> keys = keysByTable.get(table.getKey());
                List<Boolean> results;
                try (Table t = connection.getTable(tables.get(table.getKey()))) {
                    results = checkAndMutate(t, table.getValue());
                }
                for (int i = 0; i < results.size(); i++) {
                    Key key = keys.get(i);
                    if (results.get(i)) {
                        Pending done = pending.remove(key);
                        if (!increments) {
                            sourceCounts.merge(key, done.amountAbove(watermarks.get(key)), Long::sum);
                        }
                        watermarks.put(key, done.lastOffset());
                        applied.merge(table.getKey(), 1L, Long::sum);
                    } else {
                        watermarks.remove(key); // moved by someone else: read it again
                        sourceCounts.remove(key);
                    }
                }
            }
        }
        return applied;
    }

    /**
     * The conditional mutations' outcomes, in order: one batch on HBase; one at a time through the
     * checkAndMutate builder elsewhere, the only form Google's Bigtable adapter implements.
     */
    @SuppressWarnings("deprecation")
    private List<Boolean> checkAndMutate(Table t, List<CheckAndMutate> mutations) throws IOException {
        List<Boolean> results = new ArrayList<>(mutations.size());
        if (increments) {
            for (CheckAndMutateResult result : t.checkAndMutate(mutations)) {
                results.add(result.isSuccess());
            }
            return results;
        }
        for (CheckAndMutate m : mutations) {
            Table.CheckAndMutateBuilder check = t.checkAndMutate(m.getRow(), m.getFamily()).qualifier(m.getQualifier());
            check = m.getValue() == null ? check.ifNotExists() : check.ifEquals(m.getValue());
            results.add(check.thenMutate((RowMutations) m.getAction()));
        }
        return results;
    }

    private void readMissingWatermarks() throws IOException {
        Map<TableRole, List<Key>> missing = new HashMap<>();
        for (Key key : pending.keySet()) {
            if (!watermarks.containsKey(key)) {
                missing.computeIfAbsent(pending.get(key).counter.table(), t -> new ArrayList<>()).add(key);
            }
        }
        for (Map.Entry<TableRole, List<Key>> table : missing.entrySet()) {
            List<Get> gets = new ArrayList<>();
            for (Key key : table.getValue()) {
                Pending p = pending.get(key);
                Get get = new Get(p.counter.row()).addColumn(p.counter.family(), p.mark);
                if (!increments) {
                    get.addColumn(p.counter.family(), CounterCells.sourceQualifier(p.counter.qualifier(), key.source()));
                }
                gets.add(get);
            }
            try (Table t = connection.getTable(tables.get(table.getKey()))) {
                Result[] results = t.get(gets);
                for (int i = 0; i < results.length; i++) {
                    Key key = table.getValue().get(i);
                    Pending p = pending.get(key);
                    byte[] mark = results[i].getValue(p.counter.family(), p.mark);
                    watermarks.put(key, mark == null ? -1L : ByteBuffer.wrap(mark).getLong());
                    if (!increments) {
                        byte[] count = results[i].getValue(p.counter.family(),
                                CounterCells.sourceQualifier(p.counter.qualifier(), key.source()));
                        sourceCounts.put(key, count == null ? 0L : Bytes.toLong(count));
                    }
                }
            }
        }
    }
}
