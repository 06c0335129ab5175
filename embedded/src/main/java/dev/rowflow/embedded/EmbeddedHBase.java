package dev.rowflow.embedded;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.JVMClusterUtil;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A ZooKeeper, an HMaster and one RegionServer in this JVM, on the local filesystem (no HDFS).
 * Clients reach it through {@link #clientProperties()} like any external cluster.
 */
public final class EmbeddedHBase implements AutoCloseable {
    private final HBaseTestingUtility util;
    private Connection connection;

    private EmbeddedHBase(HBaseTestingUtility util) {
        this.util = util;
    }

    /** Starts the mini cluster with all its files under {@code dir}. */
    public static EmbeddedHBase start(Path dir) {
        // HBaseTestingUtility places its data dir by this system property (default ./target/test-data).
        System.setProperty("test.build.data.basedirectory", dir.resolve("test-data").toString());
        Configuration conf = HBaseConfiguration.create();
        conf.set("hbase.tmp.dir", dir.resolve("hbase-tmp").toString());
        // No web UIs: they would need more ports and serve nothing here.
        conf.setInt(HConstants.MASTER_INFO_PORT, -1);
        conf.setInt(HConstants.REGIONSERVER_INFO_PORT, -1);
        // The region server's buffers on the heap: requests (Netty's, unpooled) and HFile blocks (its
        // own allocator's pool off). With off-heap buffers, HBase's default, an RPC handler of this
        // in-process region server now and then read cells from a buffer already freed -- a SIGSEGV
        // in Unsafe.copyMemory (a 46-byte row key slice of a released direct buffer) that killed
        // about one demo run in five. Memory on the heap is never freed under a reader.
        conf.set("hbase.netty.rpcserver.allocator", "heap");
        conf.setBoolean("hbase.server.allocator.pool.enabled", false);
        // No memstore-local allocation buffers: each pins a 2 MB chunk per written store of every
        // region until its flush. rowflow pre-splits every table it creates into up to 16 regions,
        // and the tests of a JVM share one cluster whose tables accumulate: hundreds of regions
        // pinned a gigabyte of a 2 GB test heap (an OutOfMemoryError). A mini cluster's memstores
        // are small; MSLAB's aim, less old-generation fragmentation on a big region server heap,
        // is not this one's.
        conf.setBoolean("hbase.hregion.memstore.mslab.enabled", false);
        HBaseTestingUtility util = new HBaseTestingUtility(conf);
        try {
            util.startMiniZKCluster();
            util.startMiniHBaseCluster(StartMiniClusterOption.builder().numMasters(1).numRegionServers(1).build());
        } catch (Exception e) {
            EmbeddedHBase half = new EmbeddedHBase(util);
            half.close();
            throw new IllegalStateException("HBase mini cluster did not start", e);
        }
        return new EmbeddedHBase(util);
    }

    /** What an HBase client needs to reach this cluster, as hbase-site.xml keys. */
    public Map<String, String> clientProperties() {
        Configuration conf = util.getConfiguration();
        return Map.of(
                HConstants.ZOOKEEPER_QUORUM, conf.get(HConstants.ZOOKEEPER_QUORUM),
                HConstants.ZOOKEEPER_CLIENT_PORT, conf.get(HConstants.ZOOKEEPER_CLIENT_PORT),
                HConstants.ZOOKEEPER_ZNODE_PARENT, conf.get(HConstants.ZOOKEEPER_ZNODE_PARENT, "/hbase"));
    }

    /**
     * A client connection for tests to read and write with plain hbase-client, shared and closed
     * with the cluster.
     */
    public synchronized Connection connection() {
        if (connection == null) {
            try {
                connection = ConnectionFactory.createConnection(util.getConfiguration());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot connect to the mini cluster", e);
            }
        }
        return connection;
    }

    /**
     * Stops the (only) region server and returns once it is gone: from now on HBase holds no
     * region and every write waits in the client's retries, as fault tests need. Pair with
     * {@link #startRegionServer()}.
     */
    public void stopRegionServer() throws InterruptedException {
        MiniHBaseCluster cluster = util.getMiniHBaseCluster();
        JVMClusterUtil.RegionServerThread live = cluster.getLiveRegionServerThreads().get(0);
        live.getRegionServer().stop("fault test: HBase unavailable");
        live.join();
    }

    /**
     * Starts a new region server, which takes over every region once the master has processed
     * the old one's crash. Returns when no region is in transition any more.
     */
    public void startRegionServer() throws Exception {
        util.getMiniHBaseCluster().startRegionServer();
        util.waitUntilNoRegionsInTransition(180_000);
    }

    /**
     * Installs {@link WriteFaults} on {@code table} (reopening its regions), so a test can slow
     * or hold its writes. Idempotent.
     */
    public void injectWriteFaults(TableName table) throws IOException {
        try (Admin admin = connection().getAdmin()) {
            TableDescriptor current = admin.getDescriptor(table);
            if (!current.hasCoprocessor(WriteFaults.class.getName())) {
                admin.modifyTable(TableDescriptorBuilder.newBuilder(current)
                        .setCoprocessor(WriteFaults.class.getName()).build());
            }
        }
    }

    /** The cluster's own configuration, for tests that inspect it beyond a client's view. */
    public HBaseTestingUtility testingUtility() {
        return util;
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (java.io.IOException e) {
                // the cluster goes down next anyway
            }
        }
        try {
            util.shutdownMiniHBaseCluster();
        } catch (Exception e) {
            // keep going: ZooKeeper must stop too
        }
        try {
            util.shutdownMiniZKCluster();
        } catch (Exception e) {
            // nothing left to stop
        }
    }
}
