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
import org.apache.hadoop.hbase.security.access.AccessController;
import org.apache.hadoop.hbase.util.JVMClusterUtil;
import org.apache.hadoop.security.UserGroupInformation;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A ZooKeeper, an HMaster and one RegionServer in this JVM, on the local filesystem (no HDFS).
 * Clients reach it through {@link #clientProperties()} like any external cluster.
 *
 * <p>{@link #startSecured} starts it Kerberos-secured (RPC only, as HBase's own TestSecureIPC: no
 * secure HDFS, ZooKeeper unauthenticated) with the AccessController: the JVM's Hadoop login user
 * becomes the service principal, which is HBase's superuser.
 */
public final class EmbeddedHBase implements AutoCloseable {
    /** HBase's ACL table, which the AccessController creates when the master starts. */
    private static final TableName ACL_TABLE = TableName.valueOf("hbase", "acl");

    private final HBaseTestingUtility util;
    private final Kerberos kerberos;
    private Connection connection;

    /**
     * How a secured cluster runs: its service principal with realm (e.g. {@code hbase/localhost@EXAMPLE.COM},
     * which master and region server share, so its short name {@code hbase} is the superuser), the
     * keytab holding it, and further superusers by short name (e.g. {@code admin}).
     */
    public record Kerberos(String servicePrincipal, Path keytab, List<String> superusers) {
    }

    private EmbeddedHBase(HBaseTestingUtility util, Kerberos kerberos) {
        this.util = util;
        this.kerberos = kerberos;
    }

    /** Starts the mini cluster with all its files under {@code dir}. */
    public static EmbeddedHBase start(Path dir) {
        return start(dir, Map.of());
    }

    /** The same with {@code settings} added to the cluster's configuration. */
    public static EmbeddedHBase start(Path dir, Map<String, String> settings) {
        Configuration conf = configuration(dir);
        settings.forEach(conf::set);
        return start(conf, null);
    }

    /**
     * Starts the mini cluster with all its files under {@code dir}, Kerberos-secured: the KDC of
     * the JVM's krb5.conf ({@link EmbeddedKdc}) must be running and know {@code kerberos}'s principal.
     * Makes this JVM's Hadoop security Kerberos (UserGroupInformation is global): a JVM of its own.
     */
    public static EmbeddedHBase startSecured(Path dir, Kerberos kerberos) {
        Configuration conf = configuration(dir);
        String keytab = kerberos.keytab().toAbsolutePath().toString();
        // Authentication: hbase.security.authentication for HBase's RPC, hadoop.security.authentication
        // for Hadoop's UserGroupInformation (HBaseKerberosUtils.setSecuredConfiguration sets the same).
        conf.set("hadoop.security.authentication", "kerberos");
        conf.set("hbase.security.authentication", "kerberos");
        conf.set("hbase.master.kerberos.principal", kerberos.servicePrincipal());
        conf.set("hbase.master.keytab.file", keytab);
        conf.set("hbase.regionserver.kerberos.principal", kerberos.servicePrincipal());
        conf.set("hbase.regionserver.keytab.file", keytab);
        // Authorization: the AccessController on master, region servers and regions, as
        // SecureTestUtil.enableSecurity sets it; HFile v3 (2.x's default) carries cell ACL tags.
        conf.setBoolean("hbase.security.authorization", true);
        conf.set("hbase.coprocessor.master.classes", AccessController.class.getName());
        conf.set("hbase.coprocessor.regionserver.classes", AccessController.class.getName());
        conf.set("hbase.coprocessor.region.classes", AccessController.class.getName());
        conf.setInt("hfile.format.version", 3);
        if (!kerberos.superusers().isEmpty()) {
            conf.setStrings("hbase.superuser", kerberos.superusers().toArray(String[]::new));
        }
        // Users of the tests exist in the KDC only: no `id -gn <user>` for their groups.
        conf.set("hadoop.security.group.mapping", "org.apache.hadoop.security.NullGroupsMapping");
        // Short test tickets: let the service relogin as soon as its ticket is due (default 60 s).
        conf.setInt("hadoop.kerberos.min.seconds.before.relogin", 10);
        try {
            // As HBaseKerberosUtils.loginKerberosPrincipal does before a secure test starts servers:
            // UGI must see Kerberos first, then the JVM logs in as the service principal. Master and
            // region server log in again from hbase.{master,regionserver}.keytab.file as they start.
            UserGroupInformation.setConfiguration(conf);
            UserGroupInformation.loginUserFromKeytab(kerberos.servicePrincipal(), keytab);
        } catch (IOException e) {
            throw new IllegalStateException("HBase's service principal " + kerberos.servicePrincipal()
                    + " cannot log in from " + keytab, e);
        }
        return start(conf, kerberos);
    }

    /** The configuration both kinds of cluster share. */
    private static Configuration configuration(Path dir) {
        // HBaseTestingUtility places its data dir by this system property (default ./target/test-data).
        System.setProperty("test.build.data.basedirectory", dir.resolve("test-data").toString());
        Configuration conf = HBaseConfiguration.create();
        conf.set("hbase.tmp.dir", dir.resolve("hbase-tmp").toString());
        // No web UIs: they would need more ports and serve nothing here.
        conf.setInt(HConstants.MASTER_INFO_PORT, -1);
        conf.setInt(HConstants.REGIONSERVER_INFO_PORT, -1);
        // The region server's buffers on the heap, never freed or reused under a reader: requests in
        // unpooled heap buffers (HeapRequestBuffers says why HBase's own "heap" setting is not that,
        // and which read after release crashed this JVM), over Netty's NIO transport, which reads
        // into them; cell blocks and HFile blocks from HBase's own allocator with its pool off.
        conf.set("hbase.netty.rpcserver.allocator", HeapRequestBuffers.class.getName());
        conf.setBoolean("hbase.netty.nativetransport", false);
        conf.setBoolean("hbase.server.allocator.pool.enabled", false);
        // No memstore-local allocation buffers: each pins a 2 MB chunk per written store of every
        // region until its flush. rowflow pre-splits every table it creates into up to 16 regions,
        // and the tests of a JVM share one cluster whose tables accumulate: hundreds of regions
        // pinned a gigabyte of a 2 GB test heap (an OutOfMemoryError). A mini cluster's memstores
        // are small; MSLAB's aim, less old-generation fragmentation on a big region server heap,
        // is not this one's.
        conf.setBoolean("hbase.hregion.memstore.mslab.enabled", false);
        return conf;
    }

    private static EmbeddedHBase start(Configuration conf, Kerberos kerberos) {
        HBaseTestingUtility util = new HBaseTestingUtility(conf);
        EmbeddedHBase hbase = new EmbeddedHBase(util, kerberos);
        try {
            util.startMiniZKCluster();
            util.startMiniHBaseCluster(StartMiniClusterOption.builder().numMasters(1).numRegionServers(1).build());
            if (kerberos != null) {
                // Grants go to hbase:acl, which the master's AccessController creates after start.
                util.waitTableAvailable(ACL_TABLE, 60_000);
            }
        } catch (Exception e) {
            hbase.close();
            throw new IllegalStateException("HBase mini cluster did not start", e);
        }
        return hbase;
    }

    /** Whether the cluster is Kerberos-secured. */
    public boolean secured() {
        return kerberos != null;
    }

    /**
     * What an HBase client needs to reach this cluster, as hbase-site.xml keys; for a secured
     * cluster with the authentication and server principals (the client's own keytab and principal
     * are the client's to add: {@code hbase.client.keytab.file}, {@code hbase.client.keytab.principal}).
     */
    public Map<String, String> clientProperties() {
        Configuration conf = util.getConfiguration();
        Map<String, String> props = new LinkedHashMap<>();
        props.put(HConstants.ZOOKEEPER_QUORUM, conf.get(HConstants.ZOOKEEPER_QUORUM));
        props.put(HConstants.ZOOKEEPER_CLIENT_PORT, conf.get(HConstants.ZOOKEEPER_CLIENT_PORT));
        props.put(HConstants.ZOOKEEPER_ZNODE_PARENT, conf.get(HConstants.ZOOKEEPER_ZNODE_PARENT, "/hbase"));
        if (kerberos != null) {
            props.put("hbase.security.authentication", "kerberos");
            props.put("hadoop.security.authentication", "kerberos");
            props.put("hbase.master.kerberos.principal", kerberos.servicePrincipal());
            props.put("hbase.regionserver.kerberos.principal", kerberos.servicePrincipal());
        }
        return props;
    }

    /**
     * A client connection for tests to read and write with plain hbase-client, shared and closed
     * with the cluster. On a secured cluster it runs as the JVM's login user, the service principal:
     * HBase's superuser (create tables, grant, read everything).
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

    /** Counts its (only) region server's WAL appends per table from now on ({@link WalAppends}). */
    public WalAppends countWalAppends() throws IOException {
        return WalAppends.register(util.getMiniHBaseCluster().getRegionServer(0));
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
