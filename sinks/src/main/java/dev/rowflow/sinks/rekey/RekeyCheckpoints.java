package dev.rowflow.sinks.rekey;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * Where a re-keying copy keeps its progress, so a copy killed at any point resumes where it
 * stopped: one row per copy ({@code <source>><target>}) of the table {@value #TABLE}, holding the
 * key ranges it copies (the source's regions when it began, fixed from then on) and, per range,
 * the last source row copied and whether the range is done. A range's progress is written only
 * after the rows up to it were flushed to the target, so a resumed copy writes again at most the
 * rows since (the same cells at the same timestamps: no change).
 *
 * <p>Cells: {@code c:ranges} the ranges ({@link #encodeRanges}); {@code c:at/<i>} the last row
 * copied of range i; {@code c:done/<i>} its rows copied, once done; {@code c:layout} the target's
 * layout spec (a resumed copy must be of the same layout); for the running pipelines, {@code
 * c:state} ({@link State}) and {@code c:since} (ms), and {@code c:ack/<consumer client id>} of each
 * stream thread that writes both tables.
 */
public final class RekeyCheckpoints implements java.io.Closeable {
    public static final String TABLE = "rowflow_rekey";
    private static final byte[] FAMILY = Bytes.toBytes("c");
    private static final byte[] RANGES = Bytes.toBytes("ranges");
    private static final byte[] LAYOUT = Bytes.toBytes("layout");

    /** A key range of the source: start inclusive, end exclusive, empty for the table's first or last. */
    public record Range(byte[] start, byte[] end) {
    }

    /** Where a range stands: its last row copied (null: none yet), and whether it is done. */
    public record RangeState(byte[] lastCopied, boolean done) {
    }

    private final Table table;
    private final byte[] row;

    private RekeyCheckpoints(Table table, byte[] row) {
        this.table = table;
        this.row = row;
    }

    /** The checkpoints of copying {@code source} into {@code target}, creating their table on first use. */
    public static RekeyCheckpoints open(Connection connection, TableName source, TableName target) throws IOException {
        TableName name = TableName.valueOf(TABLE);
        try (Admin admin = connection.getAdmin()) {
            if (!admin.tableExists(name)) {
                try {
                    admin.createTable(TableDescriptorBuilder.newBuilder(name)
                            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY)).build());
                } catch (org.apache.hadoop.hbase.TableExistsException raced) {
                    // another copy created it first
                }
            }
        }
        return new RekeyCheckpoints(connection.getTable(name),
                Bytes.toBytes(source.getNameAsString() + ">" + target.getNameAsString()));
    }

    /** The ranges and layout of a copy begun before, if there is one. */
    public java.util.Optional<List<Range>> ranges(String layout) throws IOException {
        Result result = table.get(new Get(row).addFamily(FAMILY));
        if (result.isEmpty() || result.getValue(FAMILY, RANGES) == null) {
            return java.util.Optional.empty();
        }
        String recorded = Bytes.toString(result.getValue(FAMILY, LAYOUT));
        if (!layout.equals(recorded)) {
            throw new IllegalStateException("a copy into layout '" + recorded + "' was begun; resume it with that layout, "
                    + "or drop the target table and delete row " + Bytes.toString(row) + " of " + TABLE);
        }
        return java.util.Optional.of(decodeRanges(result.getValue(FAMILY, RANGES)));
    }

    /** Records the ranges of a new copy into {@code layout}. */
    public void begin(List<Range> ranges, String layout) throws IOException {
        table.put(new Put(row).addColumn(FAMILY, RANGES, encodeRanges(ranges)).addColumn(FAMILY, LAYOUT,
                Bytes.toBytes(layout)));
    }

    /** Where each range stands, by index. */
    public Map<Integer, RangeState> states(int ranges) throws IOException {
        NavigableMap<byte[], byte[]> cells = table.get(new Get(row).addFamily(FAMILY)).getFamilyMap(FAMILY);
        Map<Integer, RangeState> states = new HashMap<>();
        for (int i = 0; i < ranges; i++) {
            byte[] at = cells == null ? null : cells.get(Bytes.toBytes("at/" + i));
            byte[] done = cells == null ? null : cells.get(Bytes.toBytes("done/" + i));
            states.put(i, new RangeState(at, done != null));
        }
        return states;
    }

    /** Range {@code i} is copied up to and including source row {@code key}. */
    public void copiedUpTo(int i, byte[] key) throws IOException {
        table.put(new Put(row).addColumn(FAMILY, Bytes.toBytes("at/" + i), key));
    }

    /** Range {@code i} is copied; the run that finished it wrote {@code rows} rows. */
    public void done(int i, long rows) throws IOException {
        table.put(new Put(row).addColumn(FAMILY, Bytes.toBytes("done/" + i), Bytes.toBytes(rows)));
    }

    @Override
    public void close() throws IOException {
        table.close();
    }

    /** Where a re-key stands for the pipelines: they write both tables, or the new one only. */
    public enum State {
        /** From {@code since} on, the running pipelines write the old table and the new one. */
        BOTH,
        /** The new table has taken over: the pipelines write it only. */
        SWITCHED
    }

    /** A re-key the running pipelines take part in: source, target, new layout, state and since when. */
    public record Live(TableName source, TableName target, String layout, State state, long since) {
    }

    private static final byte[] STATE = Bytes.toBytes("state");
    private static final byte[] SINCE = Bytes.toBytes("since");

    /** The re-key's state, if the pipelines were told of it. */
    public java.util.Optional<State> state() throws IOException {
        byte[] state = table.get(new Get(row).addColumn(FAMILY, STATE)).getValue(FAMILY, STATE);
        return state == null ? java.util.Optional.empty() : java.util.Optional.of(State.valueOf(Bytes.toString(state)));
    }

    /** Tells the pipelines: {@code state} of the copy into {@code layout} from {@code since} (ms) on. */
    public void state(State state, long since, String layout) throws IOException {
        table.put(new Put(row).addColumn(FAMILY, STATE, Bytes.toBytes(state.name())).addColumn(FAMILY, SINCE,
                Bytes.toBytes(since)).addColumn(FAMILY, LAYOUT, Bytes.toBytes(layout)));
    }

    /** When the pipelines were told to write both tables (ms), if they were. */
    public java.util.Optional<Long> since() throws IOException {
        byte[] since = table.get(new Get(row).addColumn(FAMILY, SINCE)).getValue(FAMILY, SINCE);
        return since == null ? java.util.Optional.empty() : java.util.Optional.of(Bytes.toLong(since));
    }

    /** The consumers (client ids) that confirmed they write both tables, flushed since. */
    public java.util.Set<String> acks() throws IOException {
        java.util.Set<String> acks = new java.util.TreeSet<>();
        NavigableMap<byte[], byte[]> cells = table.get(new Get(row).addFamily(FAMILY)).getFamilyMap(FAMILY);
        if (cells != null) {
            cells.keySet().stream().map(Bytes::toString).filter(q -> q.startsWith("ack/"))
                    .forEach(q -> acks.add(q.substring(4)));
        }
        return acks;
    }

    /**
     * The re-keys the running pipelines take part in, of every table: empty if there is no
     * {@value #TABLE} yet.
     */
    public static List<Live> live(Connection connection) throws IOException {
        TableName name = TableName.valueOf(TABLE);
        List<Live> live = new ArrayList<>();
        try (Admin admin = connection.getAdmin()) {
            if (!admin.tableExists(name)) {
                return live;
            }
        }
        try (Table t = connection.getTable(name);
             org.apache.hadoop.hbase.client.ResultScanner rows = t.getScanner(new org.apache.hadoop.hbase.client.Scan()
                     .addColumn(FAMILY, STATE).addColumn(FAMILY, SINCE).addColumn(FAMILY, LAYOUT))) {
            for (Result r : rows) {
                byte[] state = r.getValue(FAMILY, STATE);
                String[] tables = Bytes.toString(r.getRow()).split(">", 2);
                if (state != null && tables.length == 2) {
                    live.add(new Live(TableName.valueOf(tables[0]), TableName.valueOf(tables[1]),
                            Bytes.toString(r.getValue(FAMILY, LAYOUT)), State.valueOf(Bytes.toString(state)),
                            Bytes.toLong(r.getValue(FAMILY, SINCE))));
                }
            }
        }
        return live;
    }

    /** Records that the consumers {@code clients} write both tables of the copy of {@code source} into {@code target}. */
    public static void ack(Connection connection, TableName source, TableName target, java.util.Collection<String> clients)
            throws IOException {
        Put put = new Put(Bytes.toBytes(source.getNameAsString() + ">" + target.getNameAsString()));
        long now = System.currentTimeMillis();
        clients.forEach(client -> put.addColumn(FAMILY, Bytes.toBytes("ack/" + client), Bytes.toBytes(now)));
        try (Table t = connection.getTable(TableName.valueOf(TABLE))) {
            t.put(put);
        }
    }

    /** Forgets the copy (after it was verified and switched, or to start over). */
    public void clear() throws IOException {
        table.delete(new Delete(row));
    }

    static byte[] encodeRanges(List<Range> ranges) {
        List<byte[]> parts = new ArrayList<>();
        int length = 4;
        for (Range range : ranges) {
            parts.add(range.start());
            parts.add(range.end());
            length += 8 + range.start().length + range.end().length;
        }
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(length).putInt(ranges.size());
        for (byte[] part : parts) {
            buffer.putInt(part.length).put(part);
        }
        return buffer.array();
    }

    static List<Range> decodeRanges(byte[] bytes) {
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes);
        int count = buffer.getInt();
        List<Range> ranges = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] start = new byte[buffer.getInt()];
            buffer.get(start);
            byte[] end = new byte[buffer.getInt()];
            buffer.get(end);
            ranges.add(new Range(start, end));
        }
        return ranges;
    }
}
