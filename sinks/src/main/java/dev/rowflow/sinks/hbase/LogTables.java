package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.log.LogColumns;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.BloomType;

import java.io.IOException;
import java.util.List;

/**
 * Creates the log data and log index tables, idempotently.
 *
 * <p>The data table is pre-split at the split points of its key layout (for a salted layout, one
 * region per bucket from the first write on; seed 002, section 1.3.6). Both
 * tables keep one version per cell: a replay rewrites the cell at the same timestamp instead of
 * adding one.
 */
public final class LogTables {
    private final TableName data;
    private final TableName index;

    public LogTables(TableName data, TableName index) {
        this.data = data;
        this.index = index;
    }

    public TableName data() {
        return data;
    }

    public TableName index() {
        return index;
    }

    /**
     * Creates whichever of the two tables does not exist yet, the data table pre-split at
     * {@code dataSplits}; returns how many it created.
     */
    public int createIfAbsent(Admin admin, List<byte[]> dataSplits) throws IOException {
        int created = 0;
        if (createIfAbsent(admin, descriptor(data, LogColumns.DATA_FAMILY), dataSplits)) {
            created++;
        }
        // Host-led keys spread by themselves once there are many hosts; without knowing the hosts
        // there is no good split point, so the index table starts as one region and splits by size.
        if (createIfAbsent(admin, descriptor(index, LogColumns.INDEX_FAMILY), List.of())) {
            created++;
        }
        return created;
    }

    private static TableDescriptor descriptor(TableName name, byte[] family) {
        return TableDescriptorBuilder.newBuilder(name)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(family)
                        .setMaxVersions(1)
                        .setBloomFilterType(BloomType.ROW)
                        .build())
                .build();
    }

    private static boolean createIfAbsent(Admin admin, TableDescriptor descriptor, List<byte[]> splits)
            throws IOException {
        if (admin.tableExists(descriptor.getTableName())) {
            return false;
        }
        try {
            if (splits.isEmpty()) {
                admin.createTable(descriptor);
            } else {
                admin.createTable(descriptor, splits.toArray(new byte[0][]));
            }
            return true;
        } catch (TableExistsException e) {
            // Another instance created it between our check and our create: the outcome we wanted.
            return false;
        }
    }
}
