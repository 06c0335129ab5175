package dev.rowflow.pipeline.runtime;

import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * HBase client security reaches the client: Kerberos settings from rowflow's file and
 * environment (as the chart renders them), an hbase-site.xml from a mounted Secret, the file's
 * keys winning over the site file.
 */
class HBaseConfigurationTest {

    @Test
    void shouldPassKerberosSettingsAndTheSiteFileToTheHBaseClient(@TempDir Path dir) throws Exception {
        Path site = dir.resolve("hbase-site.xml");
        Files.writeString(site, """
                <?xml version="1.0"?>
                <configuration>
                  <property><name>hbase.zookeeper.quorum</name><value>zk-from-site:2181</value></property>
                  <property><name>hbase.rpc.protection</name><value>privacy</value></property>
                </configuration>
                """);
        Path file = dir.resolve("rowflow.properties");
        Files.writeString(file, String.join("\n",
                "kafka.bootstrap.servers=k:9092",
                "hbase.site.path=" + site,
                "hbase.zookeeper.quorum=zk-0:2181,zk-1:2181",
                "hbase.security.authentication=kerberos",
                "hadoop.security.authentication=kerberos",
                "hbase.master.kerberos.principal=hbase/_HOST@EXAMPLE.COM",
                "hbase.regionserver.kerberos.principal=hbase/_HOST@EXAMPLE.COM"));
        Map<String, String> env = new HashMap<>();
        env.put("ROWFLOW_CONFIG_HBASE_CLIENT_KEYTAB_FILE", "/etc/rowflow/hbase-keytab/rowflow.keytab");
        env.put("ROWFLOW_CONFIG_HBASE_CLIENT_KEYTAB_PRINCIPAL", "rowflow@EXAMPLE.COM");

        Configuration hbase = HBaseConnections.configuration(new RowflowConfig(ConfigSources.load(file, env)));

        assertThat(hbase.get("hbase.security.authentication")).isEqualTo("kerberos");
        assertThat(hbase.get("hadoop.security.authentication")).isEqualTo("kerberos");
        assertThat(hbase.get("hbase.client.keytab.file")).isEqualTo("/etc/rowflow/hbase-keytab/rowflow.keytab");
        assertThat(hbase.get("hbase.client.keytab.principal")).isEqualTo("rowflow@EXAMPLE.COM");
        assertThat(hbase.get("hbase.regionserver.kerberos.principal")).isEqualTo("hbase/_HOST@EXAMPLE.COM");
        // From the site file, unless rowflow's own keys say otherwise.
        assertThat(hbase.get("hbase.rpc.protection")).isEqualTo("privacy");
        assertThat(hbase.get("hbase.zookeeper.quorum")).isEqualTo("zk-0:2181,zk-1:2181");
    }

    @Test
    void shouldAllowTwoRequestsInFlightPerRegionUnlessTheSiteFileOrTheKeysSayOtherwise(@TempDir Path dir)
            throws Exception {
        Map<String, String> props = new HashMap<>(Map.of("kafka.bootstrap.servers", "k:9092"));
        assertThat(HBaseConnections.configuration(new RowflowConfig(props))
                .getInt("hbase.client.max.perregion.tasks", -1)).isEqualTo(2);

        Path site = dir.resolve("hbase-site.xml");
        Files.writeString(site, """
                <?xml version="1.0"?>
                <configuration>
                  <property><name>hbase.client.max.perregion.tasks</name><value>3</value></property>
                </configuration>
                """);
        props.put("hbase.site.path", site.toString());
        assertThat(HBaseConnections.configuration(new RowflowConfig(props))
                .getInt("hbase.client.max.perregion.tasks", -1)).isEqualTo(3);

        props.put("hbase.client.max.perregion.tasks", "1");
        assertThat(HBaseConnections.configuration(new RowflowConfig(props))
                .getInt("hbase.client.max.perregion.tasks", -1)).isEqualTo(1);
    }

    @Test
    void shouldStopAtStartUpWhenTheSiteFileIsMissing(@TempDir Path dir) {
        RowflowConfig config = new RowflowConfig(Map.of("kafka.bootstrap.servers", "k:9092",
                "hbase.site.path", dir.resolve("nope.xml").toString()));

        assertThatThrownBy(() -> HBaseConnections.configuration(config))
                .hasMessageContaining("hbase.site.path").hasMessageContaining("no such file");
    }

    @Test
    void shouldConfigureGooglesAdapterForBigtableWithTheWriteBufferAsItsBoundOnBytesInFlight() {
        Map<String, String> props = new java.util.HashMap<>(Map.of("kafka.bootstrap.servers", "k:9092",
                "store", "bigtable", "bigtable.project.id", "p", "bigtable.instance.id", "i",
                "bigtable.emulator.host", "127.0.0.1:8086"));

        org.apache.hadoop.conf.Configuration conf = HBaseConnections.configuration(new RowflowConfig(props));

        assertThat(conf.get("hbase.client.connection.impl")).startsWith("com.google.cloud.bigtable.hbase");
        assertThat(conf.get("google.bigtable.project.id")).isEqualTo("p");
        assertThat(conf.get("google.bigtable.instance.id")).isEqualTo("i");
        assertThat(conf.get("google.bigtable.emulator.endpoint.host")).isEqualTo("127.0.0.1:8086");
        assertThat(conf.getLong("google.bigtable.buffered.mutator.max.memory", -1)).isEqualTo(2L * 1024 * 1024);
        assertThat(conf.getLong("google.bigtable.bulk.max.request.size.bytes", -1)).isEqualTo(1024L * 1024);

        // The user's own adapter keys win.
        props.put("google.bigtable.buffered.mutator.max.memory", "67108864");
        props.put("sink.write.buffer.bytes", "1048576");
        conf = HBaseConnections.configuration(new RowflowConfig(props));
        assertThat(conf.getLong("google.bigtable.buffered.mutator.max.memory", -1)).isEqualTo(64L * 1024 * 1024);
        assertThat(conf.getLong("google.bigtable.bulk.max.request.size.bytes", -1)).isEqualTo(512L * 1024);
    }
}
