package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.keying.mapping.StoredColumns;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Numeric substitution backed by an HBase lookup table (seed 002, 1.11.1.4, the {@code LOG_TYPES}
 * table; OpenTSDB's {@code tsdb-uid}). Thread-safe; many processes may share one table.
 *
 * <h2>Table layout (family {@code u})</h2>
 * <pre>
 * row                                  cell     value
 * [kind]                               u:max    the last id handed out for the kind (HBase counter)
 * [kind] 0x00 [name, UTF-8]            u:i      the name's id, 8 bytes big-endian
 * [kind] 0x01 [id, 8 bytes]            u:n      the id's name, UTF-8 (the reverse map)
 * </pre>
 * Example: the first hostname {@code web-01} gets id 1: rows {@code 'hostname'} (max=1),
 * {@code 'hostname' 00 'web-01'} (i=00..01) and {@code 'hostname' 01 00 00 00 00 00 00 00 01}
 * (n='web-01').
 *
 * <h2>First assignment without a race</h2>
 * A new name takes the next id from the atomic counter, writes the reverse row (the id is unique to
 * this caller), then writes the forward row only if it does not exist ({@code checkAndMutate}).
 * If another process won, its id is read back and used; the id this caller drew is simply never
 * used for a key (its reverse row still names the same name, so it stays truthful). Every process
 * therefore agrees on one id per name, forever. Ids start at 1 and are never reused.
 *
 * <p>Both directions are cached in memory; entries never change, so the cache never goes stale.
 */
public final class HBaseUidStore implements UidResolver {
    /** DO NOT modify: these bytes are on disk. */
    private static final byte[] FAMILY = Bytes.toBytes("u");
    private static final byte[] ID = Bytes.toBytes("i");
    private static final byte[] NAME = Bytes.toBytes("n");
    private static final byte[] MAX = Bytes.toBytes("max");
    private static final byte FORWARD = 0x00;
    private static final byte REVERSE = 0x01;

    private final Connection connection;
    private final TableName table;
    private final Map<String, Map<String, Long>> ids = new ConcurrentHashMap<>();
    private final Map<String, Map<Long, String>> names = new ConcurrentHashMap<>();

    public HBaseUidStore(Connection connection, TableName table) {
        this.connection = connection;
        this.table = table;
    }

    /**
     * The table as a SQL view reads it: a name's row {@code [kind] 0x00 [name]} is the key
     * {@code kind:text, name:text} (the direction byte 0x00 ends the kind as a text part's
     * terminator does); a kind's counter row is its kind alone. The reverse rows
     * ({@code [kind] 0x01 [id]}) have no such reading: a view's rows with {@code u:i} are the names.
     */
    public static final String NAME_ROW_LAYOUT = "kind:text, name:text";

    /** The cells of the table: a name's id, an id's name, a kind's last id. */
    public static List<StoredColumns.StoredColumn> storedColumns() {
        String family = Bytes.toString(FAMILY);
        return List.of(
                new StoredColumns.StoredColumn(family, Bytes.toString(ID), false, StoredColumns.Storage.INT64,
                        "the name's id"),
                new StoredColumns.StoredColumn(family, Bytes.toString(NAME), false, StoredColumns.Storage.TEXT,
                        "the id's name (reverse rows)"),
                new StoredColumns.StoredColumn(family, Bytes.toString(MAX), false, StoredColumns.Storage.INT64,
                        "the kind's last id (counter rows)"));
    }

    /** Creates the lookup table unless it exists (one version per cell: entries never change). */
    public static void createIfAbsent(Admin admin, TableName table) throws IOException {
        if (admin.tableExists(table)) {
            return;
        }
        try {
            admin.createTable(TableDescriptorBuilder.newBuilder(table)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).setMaxVersions(1).build())
                    .build());
        } catch (TableExistsException e) {
            // created by another instance meanwhile
        }
    }

    /**
     * This store for reads: names resolve to their ids and back, and a name without an id throws
     * {@link dev.rowflow.keying.layout.UnknownNameException} instead of being assigned one.
     */
    public UidResolver lookupOnly() {
        HBaseUidStore store = this;
        return new UidResolver() {
            @Override
            public long idOf(String kind, String name) {
                return store.find(kind, name).orElseThrow(
                        () -> new dev.rowflow.keying.layout.UnknownNameException(kind, name));
            }

            @Override
            public Optional<String> nameOf(String kind, long id) {
                return store.nameOf(kind, id);
            }
        };
    }

    /** The id of {@code name}, if it has one; never assigns. */
    public java.util.OptionalLong find(String kind, String name) {
        Long cached = ids.computeIfAbsent(kind, k -> new ConcurrentHashMap<>()).get(name);
        if (cached != null) {
            return java.util.OptionalLong.of(cached);
        }
        try (Table t = connection.getTable(table)) {
            byte[] existing = t.get(new Get(row(kind, FORWARD, Bytes.toBytes(name))).addColumn(FAMILY, ID))
                    .getValue(FAMILY, ID);
            return existing == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(Bytes.toLong(existing));
        } catch (IOException e) {
            throw new UncheckedIOException("UID table " + table + ": cannot look up " + kind + " '" + name + "'", e);
        }
    }

    @Override
    public long idOf(String kind, String name) {
        Map<String, Long> cache = ids.computeIfAbsent(kind, k -> new ConcurrentHashMap<>());
        Long cached = cache.get(name);
        if (cached != null) {
            return cached;
        }
        try (Table t = connection.getTable(table)) {
            byte[] forward = row(kind, FORWARD, Bytes.toBytes(name));
            byte[] existing = t.get(new Get(forward).addColumn(FAMILY, ID)).getValue(FAMILY, ID);
            long id = existing != null ? Bytes.toLong(existing) : assign(t, kind, name, forward);
            cache.put(name, id);
            names.computeIfAbsent(kind, k -> new ConcurrentHashMap<>()).put(id, name);
            return id;
        } catch (IOException e) {
            throw new UncheckedIOException("UID table " + table + ": cannot get the id of " + kind + " '" + name + "'", e);
        }
    }

    private long assign(Table t, String kind, String name, byte[] forward) throws IOException {
        long drawn = t.incrementColumnValue(Bytes.toBytes(kind), FAMILY, MAX, 1);
        byte[] id = Bytes.toBytes(drawn);
        t.put(new Put(row(kind, REVERSE, id)).addColumn(FAMILY, NAME, Bytes.toBytes(name)));
        boolean won = putIfAbsent(t, forward, new Put(forward).addColumn(FAMILY, ID, id));
        if (won) {
            return drawn;
        }
        byte[] winner = t.get(new Get(forward).addColumn(FAMILY, ID)).getValue(FAMILY, ID);
        if (winner == null) {
            throw new IllegalStateException("UID table " + table + ": " + kind + " '" + name
                    + "' lost the race for an id but no id is stored");
        }
        return Bytes.toLong(winner);
    }

    @Override
    public Optional<String> nameOf(String kind, long id) {
        Map<Long, String> cache = names.computeIfAbsent(kind, k -> new ConcurrentHashMap<>());
        String cached = cache.get(id);
        if (cached != null) {
            return Optional.of(cached);
        }
        try (Table t = connection.getTable(table)) {
            Result result = t.get(new Get(row(kind, REVERSE, Bytes.toBytes(id))).addColumn(FAMILY, NAME));
            byte[] name = result.getValue(FAMILY, NAME);
            if (name == null) {
                return Optional.empty();
            }
            String value = Bytes.toString(name);
            cache.put(id, value);
            return Optional.of(value);
        } catch (IOException e) {
            throw new UncheckedIOException("UID table " + table + ": cannot get the name of " + kind + " id " + id, e);
        }
    }

    /**
     * The forward row's conditional put, through the checkAndMutate builder: HBase 2.4's
     * {@code checkAndMutate(CheckAndMutate)} would do, but Google's Bigtable adapter implements
     * only the builder (deprecated in HBase, not removed before 4.0).
     */
    @SuppressWarnings("deprecation")
    private static boolean putIfAbsent(Table t, byte[] row, Put put) throws IOException {
        return t.checkAndMutate(row, FAMILY).qualifier(ID).ifNotExists().thenPut(put);
    }

    private static byte[] row(String kind, byte direction, byte[] tail) {
        byte[] kindBytes = Bytes.toBytes(kind);
        if (KeyBytes.indexOfTerminator(kindBytes, 0) >= 0) {
            throw new IllegalArgumentException("UID kind must not contain NUL: " + kind);
        }
        byte[] row = Arrays.copyOf(kindBytes, kindBytes.length + 1 + tail.length);
        row[kindBytes.length] = direction;
        System.arraycopy(tail, 0, row, kindBytes.length + 1, tail.length);
        return row;
    }
}
