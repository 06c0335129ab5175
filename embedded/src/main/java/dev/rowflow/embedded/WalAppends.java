package dev.rowflow.embedded;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.wal.WALActionsListener;
import org.apache.hadoop.hbase.wal.WALEdit;
import org.apache.hadoop.hbase.wal.WALKey;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the entries a region server appends to its WAL, per table: one per region per batch of
 * rows the region takes (a mini-batch), so a table's rows over its appends is how many rows its
 * regions' batches held on average -- what its writer's batching is worth to the region server,
 * which spends per batch on its WAL, row locks and handlers. Read live, unlike HBase's own WAL
 * metrics, whose JMX values are snapshots refreshed every few seconds. Registered as the MBean
 * {@value #OBJECT_NAME} by {@link #register}.
 */
public final class WalAppends implements WALActionsListener, WalAppendsMBean {
    /** Its JMX name. */
    public static final String OBJECT_NAME = "dev.rowflow.embedded:type=WalAppends";
    private final Map<TableName, LongAdder> appends = new ConcurrentHashMap<>();

    private WalAppends() {
    }

    /**
     * Counts the appends of {@code server}'s WAL from now on and registers the counts as
     * {@value #OBJECT_NAME} in this JVM. For a single-WAL provider ({@code filesystem} or
     * {@code asyncfs}, HBase's default): every user table's regions write to that one WAL.
     */
    public static WalAppends register(HRegionServer server) throws IOException {
        WalAppends counts = new WalAppends();
        server.getWAL(RegionInfoBuilder.newBuilder(TableName.valueOf("any")).build()).registerWALActionsListener(counts);
        try {
            ManagementFactory.getPlatformMBeanServer().registerMBean(counts,
                    new javax.management.ObjectName(OBJECT_NAME));
        } catch (javax.management.JMException e) {
            throw new IOException("cannot register " + OBJECT_NAME, e);
        }
        return counts;
    }

    @Override
    public void postAppend(long entryLen, long elapsedTimeMillis, WALKey logKey, WALEdit logEdit) {
        appends.computeIfAbsent(logKey.getTableName(), table -> new LongAdder()).increment();
    }

    @Override
    public long appendsOf(String tablePrefix) {
        long sum = 0;
        for (Map.Entry<TableName, LongAdder> table : appends.entrySet()) {
            if (table.getKey().getNameAsString().startsWith(tablePrefix)) {
                sum += table.getValue().sum();
            }
        }
        return sum;
    }
}
