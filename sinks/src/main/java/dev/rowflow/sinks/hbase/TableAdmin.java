package dev.rowflow.sinks.hbase;

import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
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
 * <p>DO NOT modify the key names: they are in the descriptors of existing tables.
 */
public final class TableAdmin {
    public static final String LAYOUT_KEY = "rowflow.layout";
    public static final String LAYOUT_VERSION_KEY = "rowflow.layout.version";
    public static final String LAYOUT_VERSION = "1";

    private final Admin admin;

    public TableAdmin(Admin admin) {
        this.admin = admin;
    }

    /**
     * Creates the table with its family and pre-split (the layout's default split points) unless
     * it exists; either way checks that the stored layout is the configured one.
     *
     * @return whether the table was created
     * @throws LayoutMismatchException naming both layouts if they differ
     */
    public boolean createOrCheck(TableDefinition table) throws IOException {
        boolean created = false;
        if (!admin.tableExists(table.name())) {
            List<byte[]> splits = table.layout().defaultSplitPoints();
            TableDescriptor descriptor = TableDescriptorBuilder.newBuilder(table.name())
                    .setValue(LAYOUT_KEY, table.layout().spec())
                    .setValue(LAYOUT_VERSION_KEY, LAYOUT_VERSION)
                    .setColumnFamily(family(table.family(), table.settings()))
                    .build();
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

    /** Throws unless the table's stored layout (and layout version) is the configured one. */
    public void checkLayout(TableDefinition table) throws IOException {
        TableDescriptor descriptor = admin.getDescriptor(table.name());
        String stored = descriptor.getValue(LAYOUT_KEY);
        String configured = table.layout().spec();
        if (stored == null) {
            throw new LayoutMismatchException("table " + table.name() + " records no rowflow key layout (it was not "
                    + "created by rowflow); refusing to write rows with layout '" + configured + "' into it. Record it "
                    + "with `alter '" + table.name() + "', METADATA => {'" + LAYOUT_KEY + "' => '" + configured + "'}` "
                    + "in the HBase shell if its rows really are keyed so.");
        }
        if (!stored.equals(configured) || !LAYOUT_VERSION.equals(descriptor.getValue(LAYOUT_VERSION_KEY))) {
            throw new LayoutMismatchException("table " + table.name() + " was written with key layout '" + stored
                    + "' (version " + descriptor.getValue(LAYOUT_VERSION_KEY) + "), but this pipeline is configured with '"
                    + configured + "' (version " + LAYOUT_VERSION + "); refusing to write: its rows could not be found "
                    + "with either layout. Configure the stored layout, or write to a new table.");
        }
    }

    /**
     * Applies the family settings to an existing table online (TTL, versions, bloom filter,
     * compression, block size); the layout cannot change.
     *
     * @return whether anything changed
     */
    public boolean update(TableDefinition table) throws IOException {
        checkLayout(table);
        ColumnFamilyDescriptor current = admin.getDescriptor(table.name()).getColumnFamily(table.family());
        ColumnFamilyDescriptor wanted = family(table.family(), table.settings());
        if (current != null && ColumnFamilyDescriptor.COMPARATOR.compare(current, wanted) == 0) {
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
        StringBuilder out = new StringBuilder("table ").append(name).append('\n')
                .append("  key layout: ").append(descriptor.getValue(LAYOUT_KEY))
                .append(" (version ").append(descriptor.getValue(LAYOUT_VERSION_KEY)).append(")\n");
        for (ColumnFamilyDescriptor family : descriptor.getColumnFamilies()) {
            out.append("  family ").append(family.getNameAsString())
                    .append(": ttl ").append(family.getTimeToLive() == org.apache.hadoop.hbase.HConstants.FOREVER
                            ? "forever" : family.getTimeToLive() + " s")
                    .append(", max versions ").append(family.getMaxVersions())
                    .append(", min versions ").append(family.getMinVersions())
                    .append(", bloom ").append(family.getBloomFilterType())
                    .append(", compression ").append(family.getCompressionType())
                    .append(", block size ").append(family.getBlocksize()).append('\n');
        }
        List<RegionInfo> regions = new java.util.ArrayList<>(admin.getRegions(name));
        regions.sort((a, b) -> Bytes.compareTo(a.getStartKey(), b.getStartKey()));
        out.append("  regions: ").append(regions.size()).append(", split at");
        regions.stream().skip(1).forEach(r -> out.append(' ').append(Bytes.toStringBinary(r.getStartKey())));
        return out.append('\n').toString();
    }

    private static ColumnFamilyDescriptor family(byte[] name, FamilySettings settings) {
        return ColumnFamilyDescriptorBuilder.newBuilder(name)
                // Cells carry the event time, which is older than any Delete issued later; with the
                // classic behaviour that Delete would mask the event's replay until a major compaction
                // (a repaired or re-ingested row stays invisible). New version behaviour orders
                // deletes and puts by when they were written (HBASE-15968).
                .setNewVersionBehavior(true)
                .setTimeToLive(settings.hbaseTtl())
                .setMaxVersions(settings.maxVersions())
                .setMinVersions(settings.minVersions())
                .setBloomFilterType(settings.bloom())
                .setCompressionType(settings.compression())
                .setBlocksize(settings.blockSize())
                .build();
    }
}
