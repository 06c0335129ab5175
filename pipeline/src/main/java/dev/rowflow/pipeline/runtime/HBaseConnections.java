package dev.rowflow.pipeline.runtime;

import com.google.cloud.bigtable.hbase.BigtableConfiguration;
import com.google.cloud.bigtable.hbase.BigtableOptionsFactory;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.sinks.hbase.Store;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionConfiguration;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.kafka.common.config.ConfigException;

import java.io.File;
import java.io.IOException;

/** Connections to the configured store, for the pipeline and for every command that reads or manages tables. */
public final class HBaseConnections {
    /** HBase's limit on one mutator's requests in flight to a region (its default: 1). */
    public static final String PER_REGION_TASKS = "hbase.client.max.perregion.tasks";
    /**
     * Two requests per region per mutator: the sink's sender's and the stream thread's own when
     * it fills a whole buffer while the sender's send is on its way. With HBase's one, the stream
     * thread's send finds every region taken and its submit spins -- locating every buffered row's
     * region again on each pass -- until the sender's send is acknowledged.
     */
    static final int SINK_PER_REGION_TASKS = 2;

    private HBaseConnections() {
    }

    /**
     * Opens the HBase-API connection to the configured store, logged in to Kerberos first where
     * HBase is secured ({@link KerberosLogin#loginToHBase}). Bigtable's comes from Google's
     * adapter factory rather than {@link ConnectionFactory}: HBase 2.6's factory looks for a
     * constructor with connection attributes, which the adapter (built against HBase 2.5) lacks.
     */
    public static Connection connect(RowflowConfig config) throws IOException {
        Configuration conf = configuration(config);
        if (config.store() == Store.BIGTABLE) {
            return BigtableConfiguration.connect(conf);
        }
        // With hbase.security.authentication=kerberos: the process logs in from its keytab first
        // (hbase-client would not: it never hands its configuration to Hadoop's login).
        KerberosLogin.loginToHBase(conf);
        return ConnectionFactory.createConnection(conf);
    }

    /** Sets {@code key} unless hbase-site.xml or the configuration gave it a value of its own. */
    private static void unlessSet(Configuration conf, String key, int value) {
        String[] sources = conf.getPropertySources(key);
        if (sources == null || (sources.length == 1 && sources[0].equals("hbase-default.xml"))) {
            conf.setInt(key, value);
        }
    }

    /**
     * The HBase client configuration: for Bigtable the adapter's project and instance (and the
     * emulator), then hbase-site.xml if configured, then the hbase.* and google.bigtable.* keys;
     * for HBase, two requests in flight per region ({@value #SINK_PER_REGION_TASKS}) unless the
     * site file or the keys say otherwise.
     *
     * @throws ConfigException naming {@code hbase.site.path} when the file does not exist
     */
    public static Configuration configuration(RowflowConfig config) {
        Configuration conf = HBaseConfiguration.create();
        // The client would otherwise unpack server-side jars (custom filters) into
        // ${hbase.tmp.dir}/local/jars; rowflow uses none, and the container's root is read-only.
        conf.setBoolean("hbase.use.dynamic.jars", false);
        if (config.store() == Store.BIGTABLE) {
            // One code path: Google's adapter is an HBase Connection (see connect).
            BigtableConfiguration.configure(conf, config.getString(RowflowConfig.BIGTABLE_PROJECT_CONFIG),
                    config.getString(RowflowConfig.BIGTABLE_INSTANCE_CONFIG));
            // rowflow's write buffer is the adapter's bound on bytes in flight (its flow control), as
            // it is HBase's write buffer: memory stays bounded by configuration on both stores. A
            // batch must be smaller than that bound, so two batches fit. google.bigtable.* keys of
            // the user's configuration, applied below, win.
            long buffer = config.getLong(RowflowConfig.WRITE_BUFFER_BYTES_CONFIG);
            if (buffer > 0) {
                conf.setLong(BigtableOptionsFactory.BIGTABLE_BUFFERED_MUTATOR_MAX_MEMORY_KEY, buffer);
                conf.setLong(BigtableOptionsFactory.BIGTABLE_BULK_MAX_REQUEST_SIZE_BYTES, buffer / 2);
            }
            String emulator = config.getString(RowflowConfig.BIGTABLE_EMULATOR_HOST_CONFIG);
            if (!emulator.isEmpty()) {
                conf.set(BigtableOptionsFactory.BIGTABLE_EMULATOR_HOST_KEY, emulator);
            }
        }
        String site = config.getString(RowflowConfig.HBASE_SITE_PATH_CONFIG);
        if (!site.isEmpty()) {
            if (!new File(site).isFile()) {
                throw new ConfigException(RowflowConfig.HBASE_SITE_PATH_CONFIG, site, "no such file");
            }
            conf.addResource(new Path(site));
        }
        config.hbaseProperties().forEach(conf::set);
        if (config.store() == Store.HBASE) {
            unlessSet(conf, PER_REGION_TASKS, SINK_PER_REGION_TASKS);
        }
        return conf;
    }
}
