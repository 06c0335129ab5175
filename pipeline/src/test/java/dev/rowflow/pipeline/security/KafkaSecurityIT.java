package dev.rowflow.pipeline.security;

import dev.rowflow.embedded.load.Offsets;

import dev.rowflow.embedded.EmbeddedKafka;
import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * rowflow against brokers that let no one in unchecked: over TLS (a certificate signed by a CA
 * made in the test with the JDK's keytool) and with SASL/SCRAM. rowflow reads, sets aside and
 * commits with the credentials of its configuration; a client without the CA, or with a wrong
 * password, is refused.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class KafkaSecurityIT {
    private static final String PASSWORD = "changeit-tls";

    @Test
    void shouldIngestOverTlsAndRefuseAClientWithoutTheCa(EmbeddedStack stack, @TempDir Path dir) throws Exception {
        Path broker = dir.resolve("broker.p12");
        Path truststore = dir.resolve("truststore.p12");
        Path otherTruststore = dir.resolve("other-truststore.p12");
        TestCertificates.create(dir, PASSWORD, broker, truststore, otherTruststore);

        try (EmbeddedKafka kafka = EmbeddedKafka.startWithTls(dir, broker, PASSWORD)) {
            RowflowConfig config = ingest(stack, kafka, "tls", Map.of(
                    "kafka.security.protocol", "SSL",
                    "kafka.ssl.truststore.location", truststore.toString(),
                    "kafka.ssl.truststore.type", "PKCS12",
                    "kafka.ssl.truststore.password", PASSWORD));

            // The same client without rowflow's CA in its truststore: the handshake fails.
            Map<String, Object> untrusting = new HashMap<>(config.kafkaProperties());
            untrusting.put("ssl.truststore.location", otherTruststore.toString());
            untrusting.put("default.api.timeout.ms", "10000");
            untrusting.put("request.timeout.ms", "5000");
            try (Admin admin = Admin.create(untrusting)) {
                assertThatThrownBy(() -> admin.listTopics().names().get(20, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(SslAuthenticationException.class);
            }
            // And a plaintext client gets nothing from the TLS listener.
            Map<String, Object> plaintext = new HashMap<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                    "default.api.timeout.ms", "5000", "request.timeout.ms", "3000"));
            try (Admin admin = Admin.create(plaintext)) {
                assertThatThrownBy(() -> admin.listTopics().names().get(20, TimeUnit.SECONDS)).isNotNull();
            }
        }
    }

    /** Runs 2,000 events through rowflow on {@code kafka} with the given security settings; returns its config. */
    private static RowflowConfig ingest(EmbeddedStack stack, EmbeddedKafka kafka, String name,
                                        Map<String, String> security) throws Exception {
        Map<String, Object> props = new HashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.putAll(security);
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "it-" + name);
        props.put(RowflowConfig.LOGS_TOPIC_CONFIG, name + "-logs");
        props.put(RowflowConfig.LOGS_DEAD_LETTER_TOPIC_CONFIG, name + "-logs.dead-letter");
        props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, name + "_data");
        props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, name + "_index");
        props.put(RowflowConfig.LOG_SUMMARY_TABLE_CONFIG, name + "_summary");
        props.put("kafka.commit.interval.ms", "500");
        RowflowConfig config = new RowflowConfig(props);
        String topic = name + "-logs";
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, topic, Optional.of(2), Duration.ofSeconds(30));
            try (LogEventProducer producer = LogEventProducer.open(config.kafkaProperties(), topic)) {
                producer.sendAll(new LogEventGenerator(31, 10, 1_700_000_000_000L), 2_000, () -> false);
            }
            try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry())) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (System.nanoTime() < deadline && Offsets.uncommitted(admin, "it-" + name, topic) != 0) {
                    assertThat(pipeline.state()).isNotEqualTo(KafkaStreams.State.ERROR);
                    Thread.sleep(200);
                }
                assertThat(Offsets.uncommitted(admin, "it-" + name, topic)).isZero();
            }
        }
        assertThat(rows(stack, name + "_data")).isEqualTo(2_000);
        return config;
    }

    @Test
    void shouldIngestWithScramAndRefuseAWrongPassword(EmbeddedStack stack, @TempDir Path dir) throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.startWithScram(dir, "rowflow", "scram-" + PASSWORD)) {
            RowflowConfig config = ingest(stack, kafka, "scram", Map.of(
                    "kafka.security.protocol", "SASL_PLAINTEXT",
                    "kafka.sasl.mechanism", "SCRAM-SHA-256",
                    "kafka.sasl.jaas.config", jaas("rowflow", "scram-" + PASSWORD)));

            Map<String, Object> wrongPassword = new HashMap<>(config.kafkaProperties());
            wrongPassword.put("sasl.jaas.config", jaas("rowflow", "guess"));
            wrongPassword.put("default.api.timeout.ms", "10000");
            wrongPassword.put("request.timeout.ms", "5000");
            try (Admin admin = Admin.create(wrongPassword)) {
                assertThatThrownBy(() -> admin.listTopics().names().get(20, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(org.apache.kafka.common.errors.SaslAuthenticationException.class);
            }
        }
    }

    private static String jaas(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                + "\" password=\"" + password + "\";";
    }

    private static long rows(EmbeddedStack stack, String table) throws Exception {
        return dev.rowflow.embedded.load.TableRows.count(stack.hbase().connection(), table);
    }
}
