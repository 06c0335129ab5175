package dev.rowflow.pipeline.config;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EffectiveConfigTest {

    @Test
    void shouldGiveEachKeyItsValueAndSourceTheEnvironmentWinning() {
        Map<String, EffectiveConfig.Entry> entries = byKey(EffectiveConfig.of(
                Map.of("kafka.bootstrap.servers", "file:9092", "application.id", "from-file",
                        "hbase.zookeeper.quorum", "zk-1"),
                Map.of("ROWFLOW_CONFIG_APPLICATION_ID", "from-env", "PATH", "/usr/bin")));

        assertThat(entries.get("application.id")).isEqualTo(new EffectiveConfig.Entry("application.id", "from-env",
                EffectiveConfig.Source.ENVIRONMENT, "ROWFLOW_CONFIG_APPLICATION_ID"));
        assertThat(entries.get("application.id").describeSource()).isEqualTo("env ROWFLOW_CONFIG_APPLICATION_ID");
        assertThat(entries.get("kafka.bootstrap.servers").source()).isEqualTo(EffectiveConfig.Source.FILE);
        assertThat(entries.get("hbase.zookeeper.quorum").value()).isEqualTo("zk-1");
        assertThat(entries.get("keying.layout.log.data")).isEqualTo(new EffectiveConfig.Entry("keying.layout.log.data",
                "bucket(16) | timestamp:ts, hostname:text, eventType:text", EffectiveConfig.Source.DEFAULT, null));
        assertThat(entries.get("hbase.site.path").value()).isEqualTo(EffectiveConfig.EMPTY);
        assertThat(entries).hasSize(RowflowConfig.CONFIG.names().size() + 1);
    }

    @Test
    void shouldHideSecretsByTheirDefinitionOrTheirName() {
        Map<String, EffectiveConfig.Entry> entries = byKey(EffectiveConfig.of(Map.ofEntries(
                Map.entry("kafka.bootstrap.servers", "b:9092"),
                Map.entry("kafka.sasl.jaas.config", "ScramLoginModule required password=\"p\";"),
                Map.entry("kafka.producer.ssl.key.password", "k"),
                Map.entry("kafka.ssl.truststore.location", "/etc/trust.jks"),
                Map.entry("hadoop.security.credential.provider.path", "jceks://file/etc/c.jceks"),
                Map.entry("hbase.rest.secret", "s"),
                Map.entry("inputs", "app"),
                Map.entry("input.app.topic", "app"),
                Map.entry("input.app.key", "host:text"),
                Map.entry("input.app.time", "t"),
                Map.entry("input.app.columns", "m=message"),
                Map.entry("input.app.registry.basic.auth.user.info", "user:pw")), Map.of()));

        assertThat(entries.get("kafka.sasl.jaas.config").value()).isEqualTo(EffectiveConfig.HIDDEN);
        assertThat(entries.get("kafka.producer.ssl.key.password").value()).isEqualTo(EffectiveConfig.HIDDEN);
        assertThat(entries.get("hbase.rest.secret").value()).isEqualTo(EffectiveConfig.HIDDEN);
        assertThat(entries.get("hadoop.security.credential.provider.path").value()).isEqualTo(EffectiveConfig.HIDDEN);
        assertThat(entries.get("input.app.registry.basic.auth.user.info").value()).isEqualTo(EffectiveConfig.HIDDEN);
        assertThat(entries.get("kafka.ssl.truststore.location").value()).isEqualTo("/etc/trust.jks");
        assertThat(entries.get("input.app.format").source()).isEqualTo(EffectiveConfig.Source.DEFAULT);
        assertThat(entries.get("input.app.key").value()).isEqualTo("host:text");
        assertThat(entries.values()).noneMatch(e -> e.value().contains("pw") || e.value().contains("password=\"p\""));
    }

    @Test
    void shouldRefuseWhatRunWouldRefuse() {
        assertThatThrownBy(() -> EffectiveConfig.of(Map.of("kafka.bootstrap.servers", "b:9092"),
                Map.of("ROWFLOW_CONFIG_SINK_PERIODIC_FLUSH_MS", "-5")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("sink.periodic.flush.ms");
    }

    private static Map<String, EffectiveConfig.Entry> byKey(List<EffectiveConfig.Entry> entries) {
        return entries.stream().collect(Collectors.toMap(EffectiveConfig.Entry::key, Function.identity()));
    }
}
