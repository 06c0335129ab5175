package dev.rowflow.pipeline.config;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RowflowConfigTest {

    @Test
    void shouldNameAMissingRequiredKey() {
        assertThatThrownBy(() -> new RowflowConfig(Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("kafka.bootstrap.servers");
    }

    @Test
    void shouldNameTheKeyAndValueOfABadValue() {
        assertThatThrownBy(() -> new RowflowConfig(Map.of(
                "kafka.bootstrap.servers", "b:9092", "sink.write.buffer.bytes", "-1")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("-1").hasMessageContaining("sink.write.buffer.bytes");
    }

    @Test
    void shouldNameTheBadPartOfAKeyLayout() {
        assertThatThrownBy(() -> new RowflowConfig(Map.of("kafka.bootstrap.servers", "b:9092",
                "keying.layout.log.data", "bucket(300) | timestamp:ts, hostname:text")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("keying.layout.log.data").hasMessageContaining("'bucket(300)'")
                .hasMessageContaining("[1, 256]");
        assertThatThrownBy(() -> new RowflowConfig(Map.of("kafka.bootstrap.servers", "b:9092",
                "keying.layout.log.index", "host:text, timestamp:rts")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("keying.layout.log.index").hasMessageContaining("no field 'host'");
    }

    @Test
    void shouldRefuseAnUnknownKeyInsteadOfIgnoringATypo() {
        assertThatThrownBy(() -> new RowflowConfig(Map.of(
                "kafka.bootstrap.servers", "b:9092", "keying.salt.bucket", "4")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("keying.salt.bucket").hasMessageContaining("unknown key");
    }

    private static final Map<String, String> BIGTABLE = Map.of("kafka.bootstrap.servers", "b:9092", "store", "bigtable",
            "bigtable.project.id", "p", "bigtable.instance.id", "i");

    private static Map<String, String> bigtableWith(String key, String value) {
        Map<String, String> props = new java.util.HashMap<>(BIGTABLE);
        props.put(key, value);
        return props;
    }

    @Test
    void shouldRefuseACellTtlOnBigtableNamingTheKeyAndTheStore() {
        assertThat(new RowflowConfig(BIGTABLE).store()).isEqualTo(dev.rowflow.sinks.hbase.Store.BIGTABLE);
        assertThatThrownBy(() -> new RowflowConfig(bigtableWith("table.log.data.cell.ttl.ms", "60000")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value 60000 for configuration table.log.data.cell.ttl.ms: cell TTL 60000 ms of table "
                        + "log_data is not supported by store bigtable: bigtable expires cells only by the family's "
                        + "garbage-collection rule; set the family TTL instead, which becomes a max-age rule");
        // The same on HBase is fine, and a family TTL is fine on Bigtable (a max-age rule).
        new RowflowConfig(Map.of("kafka.bootstrap.servers", "b:9092", "table.log.data.cell.ttl.ms", "60000"));
        new RowflowConfig(bigtableWith("table.log.data.ttl.seconds", "86400"));
    }

    @Test
    void shouldRefuseWhatBigtableTunesItself() {
        assertThatThrownBy(() -> new RowflowConfig(bigtableWith("table.customer.compression", "GZ")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("table.customer.compression")
                .hasMessageContaining("store bigtable");
        assertThatThrownBy(() -> new RowflowConfig(bigtableWith("table.log.index.bloom", "ROWCOL")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("table.log.index.bloom");
        assertThatThrownBy(() -> new RowflowConfig(bigtableWith("table.order.block.size", "16384")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("table.order.block.size");
        assertThatThrownBy(() -> new RowflowConfig(bigtableWith("bigtable.instance.id", "")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("bigtable.instance.id")
                .hasMessageContaining("required with store=bigtable");
        assertThatThrownBy(() -> new RowflowConfig(bigtableWith("store", "cassandra")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("cassandra").hasMessageContaining("store");
    }

    @Test
    void shouldRefuseHBasesPeriodicFlushWhichRacesTheCommit() {
        assertThatThrownBy(() -> new RowflowConfig(Map.of(
                "kafka.bootstrap.servers", "b:9092", "hbase.client.write.buffer.periodicflush.timeout.ms", "500")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("hbase.client.write.buffer.periodicflush.timeout.ms")
                .hasMessageContaining("sink.periodic.flush.ms instead");
    }

    @Test
    void shouldPassPrefixedKeysThroughToKafkaAndHBase() {
        RowflowConfig config = new RowflowConfig(Map.of(
                "kafka.bootstrap.servers", "b:9092",
                "kafka.security.protocol", "SSL",
                "hbase.zookeeper.quorum", "zk1,zk2",
                "zookeeper.znode.parent", "/hbase-secure",
                "hbase.site.path", "",
                "keying.layout.log.data", "bucket(4) | timestamp:ts, hostname:text, eventType:text"));

        assertThat(config.kafkaProperties()).containsOnly(
                Map.entry("bootstrap.servers", "b:9092"), Map.entry("security.protocol", "SSL"));
        assertThat(config.hbaseProperties()).containsOnly(
                Map.entry("hbase.zookeeper.quorum", "zk1,zk2"), Map.entry("zookeeper.znode.parent", "/hbase-secure"));
        assertThat(dev.rowflow.pipeline.ingest.LogIngest.rows(config, null).dataLayout().spec())
                .isEqualTo("bucket(4) | timestamp:ts, hostname:text, eventType:text");
    }

    @Test
    void shouldLetEnvironmentVariablesOverrideTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("rowflow.properties");
        Files.writeString(file, "kafka.bootstrap.servers=from-file:9092\ntopic.logs=app-logs\n");

        Map<String, String> props = ConfigSources.load(file, Map.of(
                "ROWFLOW_CONFIG_KAFKA_BOOTSTRAP_SERVERS", "from-env:9092",
                "ROWFLOW_CONFIG_HBASE_ZOOKEEPER_QUORUM", "zk",
                "ROWFLOW_SERVICE_HOST", "10.0.0.1",
                "PATH", "/usr/bin"));

        assertThat(props).containsOnly(
                Map.entry("kafka.bootstrap.servers", "from-env:9092"),
                Map.entry("topic.logs", "app-logs"),
                Map.entry("hbase.zookeeper.quorum", "zk"));
    }

    @Test
    void shouldSayWhichFileIsMissing(@TempDir Path dir) {
        assertThatThrownBy(() -> ConfigSources.load(dir.resolve("nope.properties"), Map.of()))
                .hasMessageContaining("nope.properties").hasMessageContaining("not found");
    }

    @Test
    void shouldDocumentEveryKeyInTheGeneratedTable() {
        String table = ConfigDocs.markdownTable();

        for (String key : RowflowConfig.CONFIG.names()) {
            assertThat(table).contains("| `" + key + "` |");
        }
        assertThat(table).contains("| `kafka.bootstrap.servers` | string | (required) |");
    }

    @Test
    void shouldRefuseACellTtlBeyondTheFamilyTtlNamingBothKeys() {
        assertThatThrownBy(() -> new RowflowConfig(Map.of("kafka.bootstrap.servers", "b:9092",
                "table.log.data.ttl.seconds", "60", "table.log.data.cell.ttl.ms", "120000")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value 120000 for configuration table.log.data.cell.ttl.ms: longer than "
                        + "table.log.data.ttl.seconds=60 s; HBase drops cells at the shorter of the two");
    }

    @Test
    void shouldNameAnUnknownKeyWithoutPrintingItsValue() {
        assertThatThrownBy(() -> new RowflowConfig(Map.of("kafka.bootstrap.servers", "k:9092",
                "ssl.truststore.password", "hunter2")))
                .isInstanceOf(org.apache.kafka.common.config.ConfigException.class)
                .hasMessageContaining("ssl.truststore.password").hasMessageContaining("unknown key")
                .hasMessageNotContaining("hunter2");
    }
}
