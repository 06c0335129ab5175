package dev.rowflow.sinks.hbase;

import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.List;

/**
 * Creates, checks, describes and updates rowflow's tables.
 *
 * <p>The key layout a table is written with is stored in its descriptor, under
 * {@value #LAYOUT_KEY} (the canonical spec, e.g. {@code bucket(16) | timestamp:ts, hostname:text,
 * eventType:text}) and {@value #LAYOUT_VERSION_KEY} ({@value #LAYOUT_VERSION}, the version of the
 * encodings' byte formats). A pipeline whose configured layout differs refuses to write
 * ({@link LayoutMismatchException}): salting that cannot be read back later is what hurts users of
 * schemes that keep the layout nowhere.
 *
 * <p>A store without table metadata (Bigtable, see {@link Store.Capabilities#tableMetadata()})
 * keeps the same two values in the table {@value #LAYOUTS_TABLE}: row = the table's name,
 * family {@code l}, qualifiers {@value #LAYOUT_KEY} and {@value #LAYOUT_VERSION_KEY}. The row is
 * written before the table is created, so a table rowflow created always has its layout.
 *
 * <p>Family settings a store cannot honour are refused ({@link UnsupportedSettingException}),
 * never dropped: on Bigtable the family TTL and versions become garbage-collection rules (max
 * age, max versions; Google's adapter maps them), and a cell TTL, a bloom filter, compression or
 * a block size other than the defaults is refused.
 *
 * <p>DO NOT modify the key names: they are in the descriptors of existing tables.
 */
public final class TableAdmin {
    public static final String LAYOUT_KEY = "rowflow.layout";
    public static final String LAYOUT_VERSION_KEY = "rowflow.layout.version";
    public static final String LAYOUT_VERSION = "1";
    /** Where stores without table metadata keep each table's layout. */
    public static final String LAYOUTS_TABLE = "rowflow_layouts";
    private static final byte[] LAYOUTS_FAMILY = Bytes.toBytes("l");

    private final Admin admin;
    private final Store store;

    public TableAdmin(Admin admin) {
        this.admin = admin;
        this.store = Store.of(admin.getConnection());
    }

    /** The store this admin talks to. */
    public Store store() {
        return store;
    }

    /**
     * Throws unless the store can honour every family setting of the table.
     *
     * @throws UnsupportedSettingException naming the setting, the table and the store
     */
    public static void checkSupported(Store store, TableName table, FamilySettings settings) {
        Store.Capabilities can = store.capabilities();
        if (!can.cellTtl() && settings.cellTtlMillis() > 0) {
            throw new UnsupportedSettingException("cell TTL", table, store, settings.cellTtlMillis() + " ms",
                    store.token() + " expires cells only by the family's garbage-collection rule; set the family TTL "
                            + "instead, which becomes a max-age rule");
        }
        if (!can.familyTuning()) {
            FamilySettings d = FamilySettings.DEFAULT;
            if (settings.bloom() != d.bloom()) {
                throw new UnsupportedSettingException("bloom filter", table, store, settings.bloom().name(),
                        store.token() + " chooses its storage format itself");
            }
            if (settings.compression() != d.compression()) {
                throw new UnsupportedSettingException("compression", table, store, settings.compression().name(),
                        store.token() + " compresses data itself");
            }
            if (settings.blockSize() != d.blockSize()) {
                throw new UnsupportedSettingException("block size", table, store, Integer.toString(settings.blockSize()),
                        store.token() + " chooses its storage format itself");
            }
            if (settings.minVersions() > 0 && settings.minVersions() >= settings.maxVersions()) {
                // The adapter's rule is (max age AND more than min versions) OR more than max versions.
                throw new UnsupportedSettingException("min versions", table, store,
                        Integer.toString(settings.minVersions()), "a garbage-collection rule needs min versions "
                                + "below max versions (" + settings.maxVersions() + ")");
            }
        }
    }

    /**
     * Creates the table with its family and pre-split (the layout's default split points) unless
     * it exists; either way checks that the stored layout is the configured one.
     *
     * @return whether the table was created
     * @throws LayoutMismatchException naming both layouts if they differ
     */
    public boolean createOrCheck(TableDefinition table) throws IOException {
        return createOrCheck(table, table.layout().defaultSplitPoints());
    }

    /**
     * {@link #createOrCheck(TableDefinition)} with the split points a new table gets (none: one
     * region).
     */
    public boolean createOrCheck(TableDefinition table, List<byte[]> splits) throws IOException {
        checkSupported(store, table.name(), table.settings());
        boolean created = false;
        if (!admin.tableExists(table.name())) {
            TableDescriptorBuilder builder = TableDescriptorBuilder.newBuilder(table.name())
                    .setColumnFamily(family(table.family(), table.settings()));
            if (store.capabilities().tableMetadata()) {
                builder.setValue(LAYOUT_KEY, table.layout().spec()).setValue(LAYOUT_VERSION_KEY, LAYOUT_VERSION);
            } else {
                recordLayout(table);
            }
            TableDescriptor descriptor = builder.build();
            try {
                if (splits.isEmpty()) {
                    admin.createTable(descriptor);
                } else {
                    admin.createTable(descriptor, splits.toArray(new byte[0][]));
                }
                created = true;
            } catch (TableExistsException e) {
                // Another instance created it between the check and the create: check it like any other.
            }
        }
        checkLayout(table);
        return created;
    }

    /** Whether the table exists. */
    public boolean exists(TableName name) throws IOException {
        return admin.tableExists(name);
    }

    /** The table's regions now (a store that moves tablets by load reports what it has). */
    public int regionCount(TableName name) throws IOException {
        return admin.getRegions(name).size();
    }

    /** Throws unless the table's stored layout (and layout version) is the configured one. */
    public void checkLayout(TableDefinition table) throws IOException {
        String[] recorded = recordedLayout(table.name());
        String stored = recorded[0];
        String configured = table.layout().spec();
        if (stored == null) {
            throw new LayoutMismatchException("table " + table.name() + " records no rowflow key layout (it was not "
                    + "created by rowflow); refusing to write rows with layout '" + configured + "' into it. Record it "
                    + (store.capabilities().tableMetadata()
                    ? "with `alter '" + table.name() + "', METADATA => {'" + LAYOUT_KEY + "' => '" + configured + "', '"
                            + LAYOUT_VERSION_KEY + "' => '" + LAYOUT_VERSION + "'}` in the HBase shell"
                    : "in table " + LAYOUTS_TABLE + ", row '" + table.name() + "', columns l:" + LAYOUT_KEY + "='"
                            + configured + "' and l:" + LAYOUT_VERSION_KEY + "='" + LAYOUT_VERSION + "'")
                    + " if its rows really are keyed so.");
        }
        if (!stored.equals(configured) || !LAYOUT_VERSION.equals(recorded[1])) {
            throw new LayoutMismatchException("table " + table.name() + " was written with key layout '" + stored
                    + "' (version " + recorded[1] + "), but this pipeline is configured with '"
                    + configured + "' (version " + LAYOUT_VERSION + "); refusing to write: its rows could not be found "
                    + "with either layout. Configure the stored layout, or write to a new table.");
        }
    }

    /**
     * Throws unless a Delete in the table masks only the cells written before it, as a pipeline
     * that deletes needs (see {@link HBaseRowSink#delete}): on HBase, the family keeps new version
     * behaviour, which rowflow sets on every table it creates; Bigtable has no delete markers.
     *
     * @throws IllegalStateException naming the table and the HBase shell command that sets it
     */
    public void checkDeletes(TableDefinition table) throws IOException {
        if (!store.capabilities().deleteMarkers()) {
            return;
        }
        ColumnFamilyDescriptor family = admin.getDescriptor(table.name()).getColumnFamily(table.family());
        if (family != null && !family.isNewVersionBehavior()) {
            throw new IllegalStateException("table " + table.name() + ", family " + family.getNameAsString()
                    + ", orders deletes and writes by timestamp alone: a delete would hide every later re-insert "
                    + "of its row with an older or equal event time until a major compaction. Records of this input "
                    + "delete rows; set `alter '" + table.name() + "', {NAME => '" + family.getNameAsString()
                    + "', NEW_VERSION_BEHAVIOR => 'true'}` in the HBase shell (as rowflow sets on the tables it "
                    + "creates)");
        }
    }

    /**
     * Applies the family settings to an existing table online (TTL, versions, bloom filter,
     * compression, block size); the layout cannot change.
     *
     * @return whether anything changed
     */
    public boolean update(TableDefinition table) throws IOException {
        checkSupported(store, table.name(), table.settings());
        checkLayout(table);
        ColumnFamilyDescriptor current = admin.getDescriptor(table.name()).getColumnFamily(table.family());
        ColumnFamilyDescriptor wanted = family(table.family(), table.settings());
        if (current != null && (store.capabilities().familyTuning()
                ? ColumnFamilyDescriptor.COMPARATOR.compare(current, wanted) == 0
                // The store reports only what its garbage-collection rule holds.
                : current.getTimeToLive() == wanted.getTimeToLive() && current.getMaxVersions() == wanted.getMaxVersions()
                        && current.getMinVersions() == wanted.getMinVersions())) {
            return false;
        }
        if (current == null) {
            admin.addColumnFamily(table.name(), wanted);
        } else {
            admin.modifyColumnFamily(table.name(), wanted);
        }
        return true;
    }

    /** What {@code rowflow tables describe} prints of a table. */
    public String describe(TableName name) throws IOException {
        if (!admin.tableExists(name)) {
            return "table " + name + ": does not exist\n";
        }
        TableDescriptor descriptor = admin.getDescriptor(name);
        String[] layout = recordedLayout(name);
        StringBuilder out = new StringBuilder("table ").append(name).append(" (").append(store.token()).append(")\n")
                .append("  key layout: ").append(layout[0])
                .append(" (version ").append(layout[1]).append(")\n");
        for (ColumnFamilyDescriptor family : descriptor.getColumnFamilies()) {
            out.append("  family ").append(family.getNameAsString())
                    .append(": ttl ").append(family.getTimeToLive() == HConstants.FOREVER
                            ? "forever" : family.getTimeToLive() + " s")
                    .append(", max versions ").append(family.getMaxVersions())
                    .append(", min versions ").append(family.getMinVersions());
            if (store.capabilities().familyTuning()) {
                out.append(", bloom ").append(family.getBloomFilterType())
                        .append(", compression ").append(family.getCompressionType())
                        .append(", block size ").append(family.getBlocksize());
            } else {
                out.append(", gc rule ").append(gcRule(family));
            }
            out.append('\n');
        }
        List<RegionInfo> regions = new java.util.ArrayList<>(admin.getRegions(name));
        regions.sort((a, b) -> Bytes.compareTo(a.getStartKey(), b.getStartKey()));
        out.append("  regions: ").append(regions.size()).append(", split at");
        regions.stream().skip(1).forEach(r -> out.append(' ').append(Bytes.toStringBinary(r.getStartKey())));
        return out.append('\n').toString();
    }

    /**
     * The garbage-collection rule a family's settings stand for on a store that keeps cells by
     * such rules, in {@code cbt}'s notation: a cell goes when it is older than the max age (and,
     * with min versions, beyond that many newer versions) or beyond max versions. This is the
     * rule Google's adapter writes and reads back into the descriptor's TTL and versions.
     */
    static String gcRule(ColumnFamilyDescriptor family) {
        List<String> rules = new java.util.ArrayList<>();
        if (family.getTimeToLive() != HConstants.FOREVER) {
            String age = "maxage=" + family.getTimeToLive() + "s";
            rules.add(family.getMinVersions() > 0 ? "(" + age + " && maxversions=" + family.getMinVersions() + ")" : age);
        }
        if (family.getMaxVersions() != Integer.MAX_VALUE) {
            rules.add("maxversions=" + family.getMaxVersions());
        }
        return rules.isEmpty() ? "never" : String.join(" || ", rules);
    }

    /**
     * The key layout spec {@code name} records, empty if the table does not exist or records none
     * (it was not created by rowflow).
     */
    public java.util.Optional<String> layoutOf(TableName name) throws IOException {
        return admin.tableExists(name) ? java.util.Optional.ofNullable(recordedLayout(name)[0])
                : java.util.Optional.empty();
    }

    /** The recorded layout and layout version of a table, {@code null}s where none is. */
    private String[] recordedLayout(TableName name) throws IOException {
        if (store.capabilities().tableMetadata()) {
            TableDescriptor descriptor = admin.getDescriptor(name);
            return new String[] {descriptor.getValue(LAYOUT_KEY), descriptor.getValue(LAYOUT_VERSION_KEY)};
        }
        TableName layouts = TableName.valueOf(LAYOUTS_TABLE);
        if (!admin.tableExists(layouts)) {
            return new String[2];
        }
        try (Table t = admin.getConnection().getTable(layouts)) {
            Result row = t.get(new Get(Bytes.toBytes(name.getNameAsString())).addFamily(LAYOUTS_FAMILY));
            return new String[] {
                    Bytes.toString(row.getValue(LAYOUTS_FAMILY, Bytes.toBytes(LAYOUT_KEY))),
                    Bytes.toString(row.getValue(LAYOUTS_FAMILY, Bytes.toBytes(LAYOUT_VERSION_KEY)))};
        }
    }

    /** Records a table's layout in {@value #LAYOUTS_TABLE}, creating that table on first use. */
    private void recordLayout(TableDefinition table) throws IOException {
        TableName layouts = TableName.valueOf(LAYOUTS_TABLE);
        if (!admin.tableExists(layouts)) {
            try {
                admin.createTable(TableDescriptorBuilder.newBuilder(layouts)
                        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(LAYOUTS_FAMILY).setMaxVersions(1).build())
                        .build());
            } catch (TableExistsException e) {
                // another instance was first
            }
        }
        try (Table t = admin.getConnection().getTable(layouts)) {
            t.put(new Put(Bytes.toBytes(table.name().getNameAsString()))
                    .addColumn(LAYOUTS_FAMILY, Bytes.toBytes(LAYOUT_KEY), Bytes.toBytes(table.layout().spec()))
                    .addColumn(LAYOUTS_FAMILY, Bytes.toBytes(LAYOUT_VERSION_KEY), Bytes.toBytes(LAYOUT_VERSION)));
        }
    }

    private ColumnFamilyDescriptor family(byte[] name, FamilySettings settings) {
        ColumnFamilyDescriptorBuilder family = ColumnFamilyDescriptorBuilder.newBuilder(name)
                .setTimeToLive(settings.hbaseTtl())
                .setMaxVersions(settings.maxVersions())
                .setMinVersions(settings.minVersions());
        if (store.capabilities().familyTuning()) {
            family
                    // Cells carry the event time, which is older than any Delete issued later; with the
                    // classic behaviour that Delete would mask the event's replay until a major compaction
                    // (a repaired or re-ingested row stays invisible). New version behaviour orders
                    // deletes and puts by when they were written (HBASE-15968). Bigtable has no delete
                    // markers to mask anything, and its adapter refuses the setting.
                    .setNewVersionBehavior(true)
                    .setBloomFilterType(settings.bloom())
                    .setCompressionType(settings.compression())
                    .setBlocksize(settings.blockSize());
        }
        return family.build();
    }
}
