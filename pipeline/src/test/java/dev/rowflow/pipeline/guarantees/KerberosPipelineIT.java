package dev.rowflow.pipeline.guarantees;

import dev.rowflow.embedded.EmbeddedKafka;
import dev.rowflow.embedded.EmbeddedKdc;
import dev.rowflow.embedded.SecureEmbeddedStack;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.embedded.load.Offsets;
import dev.rowflow.embedded.load.TableRows;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import dev.rowflow.pipeline.security.TestCertificates;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.security.access.AccessControlClient;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * rowflow on a Kerberized stack ({@link SecureEmbeddedStack}: a real KDC, HBase with Kerberos RPC
 * and the AccessController, Kafka with a GSSAPI listener): the production jar in a JVM of its own,
 * configured as the Helm chart renders it (keytab and principal for HBase, a Krb5LoginModule JAAS
 * line for Kafka, the KDC's krb5.conf), logs in from its keytab and writes every record once; a
 * login that cannot work stops start-up with exit 2 and a line naming the setting.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class KerberosPipelineIT {
    private static final String ROWFLOW = "rowflow";
    private static final String TLS_PASSWORD = "changeit-tls";
    private static final java.util.List<String> TABLES_REFUSED = java.util.List.of("krb_refused_data",
            "krb_refused_index", "krb_refused_summary");
    private static SecureEmbeddedStack stack;

    @BeforeAll
    static void start() throws Throwable {
        stack = SecureEmbeddedStack.start(Duration.ofMinutes(30));
        // What an HBase admin grants a service that creates its own tables: CREATE in its
        // namespace (a table's creator owns it), READ and WRITE on what is in it.
        AccessControlClient.grant(stack.hbase().connection(), "default", ROWFLOW, Permission.Action.CREATE,
                Permission.Action.READ, Permission.Action.WRITE);
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void shouldWriteEveryRecordLoggedInFromItsKeytab(@TempDir Path dir) throws Exception {
        String topic = "secure-logs";
        Map<String, Object> producerClient = stack.kafkaClientProperties("producer");
        try (Admin admin = Admin.create(producerClient)) {
            KafkaTopics.createIfAbsent(admin, topic, Optional.of(2), Duration.ofSeconds(30));
            try (LogEventProducer producer = LogEventProducer.open(producerClient, topic)) {
                producer.sendAll(new LogEventGenerator(34, 20, 1_700_000_000_000L), 3_000, () -> false);
            }
            Path config = configFile(dir, Map.of("application.id", "it-kerberos", "topic.logs", topic,
                    "table.log.data", "krb_data", "table.log.index", "krb_index", "kafka.commit.interval.ms", "1000"));
            RowflowProcess rowflow = RowflowProcess.start(config, dir, stack.jvmOptions());
            try {
                awaitCommitted(admin, rowflow, "it-kerberos", topic, 3_000);
                assertThat(rowflow.terminate()).as("exit status after SIGTERM; log:%n%s", rowflow.logTail()).isZero();
            } finally {
                rowflow.kill();
            }
        }
        assertThat(TableRows.count(stack.hbase().connection(), "krb_data")).isEqualTo(3_000);
        assertThat(TableRows.count(stack.hbase().connection(), "krb_index")).isEqualTo(3_000);
        // The commands log in as the pipeline does: the index checked, rows read back.
        Path config = configFile(dir, Map.of("application.id", "it-kerberos", "topic.logs", topic,
                "table.log.data", "krb_data", "table.log.index", "krb_index"));
        assertThat(runCommand(dir, config, "index", "verify")).contains("Kerberos: logged in to HBase as rowflow@");
        assertThat(runCommand(dir, config, "query", "range", "--from", "2023-11-14T22:13:20Z", "--to",
                "2023-11-14T22:14:20Z", "--limit", "5", "--json")).contains("\"hostname\"");
        assertThat(Files.readString(dir.resolve("rowflow.log")))
                .contains("Kerberos: logged in to HBase as rowflow@" + stack.kdc().realm());
    }

    /**
     * Kafka over SASL_SSL (GSSAPI inside TLS, a broker certificate from a test CA), rowflow's
     * principal written as {@code rowflow/_HOST} for HBase and in Kafka's JAAS line (expanded to
     * this host's canonical name), and a key of uid parts; then {@code rowflow keys decode -c} reads
     * the names back from the secured UID table and {@code keys encode -c} turns them into the same
     * key.
     */
    @Test
    void shouldWriteOverSaslSslAsAHostPrincipalAndResolveKeysFromTheSecuredUidTable(@TempDir Path dir)
            throws Exception {
        String host = InetAddress.getLocalHost().getCanonicalHostName().toLowerCase(Locale.ROOT);
        String user = "rowflow/" + host;
        Path keytab = stack.keytab(user);
        Path brokerKeystore = dir.resolve("broker.p12");
        Path truststore = dir.resolve("truststore.p12");
        TestCertificates.create(dir, TLS_PASSWORD, brokerKeystore, truststore, dir.resolve("other-truststore.p12"));
        String topic = "secure-tls-logs";
        Path brokerDir = Files.createDirectories(dir.resolve("tls-broker"));
        try (EmbeddedKafka tls = EmbeddedKafka.startWithKerberosTls(brokerDir, brokerKeystore, TLS_PASSWORD,
                stack.kafkaServiceKeytab(), stack.principal(SecureEmbeddedStack.KAFKA_SERVICE))) {
            Map<String, Object> client = new LinkedHashMap<>(stack.kafkaClientProperties("producer"));
            client.put("bootstrap.servers", tls.bootstrapServers());
            client.put("security.protocol", "SASL_SSL");
            client.put("ssl.truststore.location", truststore.toString());
            client.put("ssl.truststore.type", "PKCS12");
            client.put("ssl.truststore.password", TLS_PASSWORD);
            Map<String, String> props = new LinkedHashMap<>(stack.rowflowProperties(user));
            client.forEach((key, value) -> {
                if (!key.startsWith("sasl.")) {
                    props.put("kafka." + key, String.valueOf(value));
                }
            });
            props.put("kafka.sasl.jaas.config", EmbeddedKdc.kafkaJaasConfig(keytab, "rowflow/_HOST"));
            props.put("hbase.client.keytab.principal", "rowflow/_HOST");
            props.put("hbase.client.kerberos.principal", "rowflow/_HOST");
            props.putAll(Map.of("application.id", "it-kerberos-tls", "topic.logs", topic,
                    "table.log.data", "krb_tls_data", "table.log.index", "krb_tls_index",
                    "table.log.summary", "krb_tls_summary", "table.uid", "krb_tls_uid",
                    "keying.layout.log.data", "hostname:uid, eventType:uid, timestamp:ts",
                    "kafka.state.dir", dir.resolve("state").toString(), "kafka.commit.interval.ms", "1000"));
            Path config = dir.resolve("rowflow.properties");
            Files.writeString(config, props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining("\n")));

            try (Admin admin = Admin.create(client)) {
                KafkaTopics.createIfAbsent(admin, topic, Optional.of(2), Duration.ofSeconds(30));
                try (LogEventProducer producer = LogEventProducer.open(client, topic)) {
                    producer.sendAll(new LogEventGenerator(35, 20, 1_700_000_000_000L), 1_000, () -> false);
                }
                RowflowProcess rowflow = RowflowProcess.start(config, dir, stack.jvmOptions());
                try {
                    awaitCommitted(admin, rowflow, "it-kerberos-tls", topic, 1_000);
                    assertThat(rowflow.terminate()).as("exit status after SIGTERM; log:%n%s", rowflow.logTail())
                            .isZero();
                } finally {
                    rowflow.kill();
                }
            }
            assertThat(Files.readString(dir.resolve("rowflow.log")))
                    .contains("Kerberos: logged in to HBase as rowflow/" + host + "@" + stack.kdc().realm());
        }
        assertThat(TableRows.count(stack.hbase().connection(), "krb_tls_data")).isEqualTo(1_000);
        assertThat(TableRows.count(stack.hbase().connection(), "krb_tls_index")).isEqualTo(1_000);

        byte[] key;
        try (Table table = stack.hbase().connection().getTable(TableName.valueOf("krb_tls_data"));
             ResultScanner rows = table.getScanner(new Scan().setLimit(1))) {
            key = rows.next().getRow();
        }
        Path config = dir.resolve("rowflow.properties");
        String decoded = runCommand(dir, config, "keys", "decode", "--input", "logs", "0x" + Bytes.toHex(key));
        Matcher hostname = Pattern.compile("hostname:uid: \\d+ +\\((\\S+)\\)").matcher(decoded);
        Matcher eventType = Pattern.compile("eventType:uid: \\d+ +\\((\\S+)\\)").matcher(decoded);
        Matcher time = Pattern.compile("timestamp:ts: (\\d+)").matcher(decoded);
        assertThat(hostname.find() && eventType.find() && time.find()).as("names from the UID table in:%n%s", decoded)
                .isTrue();
        assertThat(hostname.group(1)).endsWith(".example.com");
        String encoded = runCommand(dir, config, "keys", "encode", "--input", "logs", "hostname=" + hostname.group(1),
                "eventType=" + eventType.group(1), "timestamp=" + time.group(1));
        assertThat(encoded).contains(Bytes.toStringBinary(key));
    }

    /**
     * What the Helm chart renders for Kafka over GSSAPI and a Kerberized HBase
     * ({@code helm/rowflow/ci/kerberos-values.yaml}; ChartTest checks that the rendering is this
     * file, key for key), run as it is: only the mount paths and the addresses of its placeholders
     * become this stack's.
     */
    @Test
    void shouldRunWithTheConfigurationTheChartRenders(@TempDir Path dir) throws Exception {
        java.util.Properties chart = new java.util.Properties();
        try (java.io.InputStream in = KerberosPipelineIT.class.getResourceAsStream("/kerberos/chart-rowflow.properties")) {
            chart.load(in);
        }
        assertThat(chart.getProperty("kafka.sasl.mechanism")).isEqualTo("GSSAPI");
        assertThat(chart.getProperty("hbase.security.authentication")).isEqualTo("kerberos");
        Map<String, String> props = new LinkedHashMap<>();
        for (String key : chart.stringPropertyNames()) {
            props.put(key, chart.getProperty(key).replace("/etc/rowflow/hbase-keytab/rowflow.keytab",
                    stack.keytab(ROWFLOW).toString()));
        }
        props.put("kafka.bootstrap.servers", stack.kafka().bootstrapServers());
        props.putAll(stack.hbase().clientProperties().entrySet().stream()
                .filter(e -> e.getKey().startsWith("hbase.zookeeper") || e.getKey().startsWith("zookeeper."))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
        props.put("kafka.state.dir", dir.resolve("state").toString());
        String topic = "chart-logs";
        props.putAll(Map.of("application.id", "it-kerberos-chart", "topic.logs", topic, "table.log.data", "krb_chart_data",
                "table.log.index", "krb_chart_index", "table.log.summary", "krb_chart_summary",
                "kafka.commit.interval.ms", "1000"));
        Path config = dir.resolve("rowflow.properties");
        Files.writeString(config, props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")));
        Map<String, Object> producerClient = stack.kafkaClientProperties("producer");
        try (Admin admin = Admin.create(producerClient)) {
            KafkaTopics.createIfAbsent(admin, topic, Optional.of(2), Duration.ofSeconds(30));
            try (LogEventProducer producer = LogEventProducer.open(producerClient, topic)) {
                producer.sendAll(new LogEventGenerator(37, 20, 1_700_000_000_000L), 1_000, () -> false);
            }
            RowflowProcess rowflow = RowflowProcess.start(config, dir, stack.jvmOptions());
            try {
                awaitCommitted(admin, rowflow, "it-kerberos-chart", topic, 1_000);
                assertThat(rowflow.terminate()).as("exit status after SIGTERM; log:%n%s", rowflow.logTail()).isZero();
            } finally {
                rowflow.kill();
            }
        }
        assertThat(TableRows.count(stack.hbase().connection(), "krb_chart_data")).isEqualTo(1_000);
        assertThat(TableRows.count(stack.hbase().connection(), "krb_chart_index")).isEqualTo(1_000);
    }

    /**
     * A principal HBase does not let write: nothing committed past the refused rows, the refusal
     * in the log and in {@code rowflow_sink_failed_mutations_total} (RowflowFlushFailures), no dead
     * letter; once WRITE is granted, every record written once.
     */
    @Test
    void shouldHoldItsOffsetsWhileHBaseRefusesItsWritesAndResumeWhenGranted(@TempDir Path dir) throws Exception {
        String topic = "secure-refused";
        Map<String, Object> producerClient = stack.kafkaClientProperties("producer");
        Map<String, String> tables = Map.of("application.id", "it-kerberos-refused", "topic.logs", topic,
                "table.log.data", "krb_refused_data", "table.log.index", "krb_refused_index",
                "table.log.summary", "krb_refused_summary", "topic.logs.dead.letter", topic + ".dead-letter",
                "kafka.commit.interval.ms", "1000");
        // The tables are rowflow's, made by `rowflow tables create` as it; the pipeline runs as another
        // principal, which may read them (and their descriptors) but not write.
        runCommand(dir, configFile(dir, tables), "tables", "create");
        for (String table : TABLES_REFUSED) {
            stack.grant("nowrite", TableName.valueOf(table), Permission.Action.READ, Permission.Action.CREATE);
        }
        Map<String, String> asNoWrite = new LinkedHashMap<>(tables);
        asNoWrite.put("hbase.client.keytab.file", stack.keytab("nowrite").toString());
        asNoWrite.put("hbase.client.keytab.principal", "nowrite");
        asNoWrite.put("hbase.client.kerberos.principal", "nowrite");
        try (Admin admin = Admin.create(producerClient)) {
            KafkaTopics.createIfAbsent(admin, topic, Optional.of(2), Duration.ofSeconds(30));
            try (LogEventProducer producer = LogEventProducer.open(producerClient, topic)) {
                producer.sendAll(new LogEventGenerator(35, 20, 1_700_000_000_000L), 1_000, () -> false);
            }
            RowflowProcess rowflow = RowflowProcess.start(configFile(dir, asNoWrite), dir, stack.jvmOptions());
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                while (rowflow.metric("rowflow_sink_failed_mutations_total", Map.of()).orElse(0) == 0
                        && System.nanoTime() < deadline) {
                    assertThat(rowflow.isAlive()).as("rowflow alive; its log:%n%s", rowflow.logTail()).isTrue();
                    Thread.sleep(200);
                }
                assertThat(rowflow.metric("rowflow_sink_failed_mutations_total", Map.of()).orElse(0))
                        .as("refused mutations counted; log:%n%s", rowflow.logTail()).isPositive();
                // The whole log: a stream thread being replaced logs more than the tail holds.
                assertThat(Files.readString(dir.resolve("rowflow.log")))
                        .contains("AccessDeniedException: Insufficient permissions")
                        .contains("user=nowrite@" + stack.kdc().realm());
                // Refused again when the stream thread replays from the last commit: after that second
                // refusal still nothing committed, nothing set aside.
                double firstRefusals = rowflow.metric("rowflow_sink_failed_mutations_total", Map.of()).orElse(0);
                deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                while (rowflow.metric("rowflow_sink_failed_mutations_total", Map.of()).orElse(0) <= firstRefusals
                        && System.nanoTime() < deadline) {
                    assertThat(rowflow.isAlive()).as("rowflow alive; its log:%n%s", rowflow.logTail()).isTrue();
                    Thread.sleep(200);
                }
                assertThat(rowflow.metric("rowflow_sink_failed_mutations_total", Map.of()).orElse(0))
                        .as("refused again on replay; log:%n%s", rowflow.logTail()).isGreaterThan(firstRefusals);
                assertThat(Offsets.committed(admin, "it-kerberos-refused", topic)).isZero();
                assertThat(Offsets.written(admin, topic + ".dead-letter")).isZero();
                assertThat(rowflow.isAlive()).as("rowflow waits, alive; log:%n%s", rowflow.logTail()).isTrue();

                for (String table : TABLES_REFUSED) {
                    stack.grant("nowrite", TableName.valueOf(table), Permission.Action.READ, Permission.Action.CREATE,
                            Permission.Action.WRITE);
                }
                awaitCommitted(admin, rowflow, "it-kerberos-refused", topic, 1_000);
                assertThat(rowflow.terminate()).as("exit status after SIGTERM; log:%n%s", rowflow.logTail()).isZero();
            } finally {
                rowflow.kill();
            }
            assertThat(Offsets.written(admin, topic + ".dead-letter")).isZero();
        }
        assertThat(TableRows.count(stack.hbase().connection(), "krb_refused_data")).isEqualTo(1_000);
        assertThat(TableRows.count(stack.hbase().connection(), "krb_refused_index")).isEqualTo(1_000);
    }

    @Test
    void shouldRefuseToStartWithoutItsKeytabNamingTheSetting(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("no-such.keytab");
        Path config = configFile(dir, Map.of("application.id", "it-kerberos-nokeytab",
                "hbase.client.keytab.file", missing.toString()));
        assertRefused(config, dir, "rowflow: configuration error: Invalid value " + missing
                + " for configuration hbase.client.keytab.file: no such file");
    }

    @Test
    void shouldRefuseToStartAsAPrincipalItsKeytabDoesNotHoldNamingTheSetting(@TempDir Path dir) throws Exception {
        Path config = configFile(dir, Map.of("application.id", "it-kerberos-otherprincipal",
                "hbase.client.keytab.principal", "someone-else"));
        assertRefused(config, dir, "rowflow: configuration error: Invalid value " + stack.keytab(ROWFLOW)
                + " for configuration hbase.client.keytab.file: holds no key this JVM can use for someone-else@"
                + stack.kdc().realm() + "; it holds [rowflow@" + stack.kdc().realm() + "]");
    }

    @Test
    void shouldRefuseToStartAsAPrincipalTheKdcNoLongerKnowsNamingTheSetting(@TempDir Path dir) throws Exception {
        Path keytab = stack.keytab("departed");
        stack.kdc().deletePrincipal("departed");
        Path config = configFile(dir, Map.of("application.id", "it-kerberos-departed",
                "hbase.client.keytab.file", keytab.toString(), "hbase.client.keytab.principal", "departed"));
        assertRefused(config, dir, "rowflow: configuration error: Invalid value departed@" + stack.kdc().realm()
                + " for configuration hbase.client.keytab.principal: the KDC does not know this principal "
                + "(Client not found in Kerberos database (6) - Client not found in Kerberos database)");
    }

    @Test
    void shouldRefuseToStartWhenItsKafkaLoginCannotWorkNamingTheSetting(@TempDir Path dir) throws Exception {
        Path config = configFile(dir, Map.of("application.id", "it-kerberos-kafka-jaas", "kafka.sasl.jaas.config",
                EmbeddedKdc.kafkaJaasConfig(stack.keytab(ROWFLOW), "stranger")));
        assertRefused(config, dir, "rowflow: configuration error: Invalid value " + stack.keytab(ROWFLOW)
                + " for configuration kafka.sasl.jaas.config keyTab: holds no key this JVM can use for stranger@"
                + stack.kdc().realm() + "; it holds [rowflow@" + stack.kdc().realm() + "]");
    }

    @Test
    void shouldRefuseToStartWhenTheKdcIsUnreachableNamingTheSetting(@TempDir Path dir) throws Exception {
        Path config = configFile(dir, Map.of("application.id", "it-kerberos-nokdc"));
        stack.kdc().setReachable(false);
        try {
            assertRefused(config, dir, "rowflow: configuration error: Invalid value " + stack.kdc().krb5Conf()
                    + " for configuration java.security.krb5.conf: the KDC of " + stack.kdc().realm()
                    + " is unreachable");
        } finally {
            stack.kdc().setReachable(true);
        }
    }

    /**
     * A host whose clock is 10 minutes behind the KDC's (Kerberos allows 5): rowflow runs under
     * libfaketime (Debian's {@code faketime} package), the one way to give a real JVM a wrong
     * clock; the KDC refuses its login and rowflow says the clock is the cause.
     */
    @Test
    void shouldRefuseToStartWithAClockTheKdcDoesNotAcceptNamingTheCause(@TempDir Path dir) throws Exception {
        Path faketime = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(faketime),
                "libfaketime is not installed (Debian's faketime package): no wrong clock to test with");
        Path config = configFile(dir, Map.of("application.id", "it-kerberos-skew"));
        RowflowProcess rowflow = RowflowProcess.start(config, dir.resolve("rowflow.log"), stack.jvmOptions(),
                Map.of("LD_PRELOAD", faketime.toString(), "FAKETIME", "-10m",
                        // the JVM's timed waits run on the monotonic clock: leave it alone
                        "FAKETIME_DONT_FAKE_MONOTONIC", "1"));
        assertExitsRefused(rowflow, "rowflow: configuration error: Invalid value " + stack.kdc().krb5Conf()
                + " for configuration java.security.krb5.conf: this host's clock differs from the KDC's by more "
                + "than the allowed skew: it is about 10 min behind the KDC's (");
    }

    /** Runs {@code rowflow <args> -c config} (the production jar), expects exit 0 and returns its output. */
    private static String runCommand(Path dir, Path config, String... args) throws Exception {
        java.util.List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(dev.rowflow.embedded.CrashReports.sameAsThisJvm());
        command.addAll(stack.jvmOptions());
        command.addAll(java.util.List.of("-jar", System.getProperty("rowflow.pipeline.jar")));
        command.addAll(java.util.List.of(args));
        command.addAll(java.util.List.of("-c", config.toString()));
        Path log = dir.resolve("command.log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("%s done", command).isTrue();
        assertThat(process.exitValue()).as("rowflow %s; its output:%n%s", String.join(" ", args), Files.readString(log))
                .isZero();
        return Files.readString(log);
    }

    /** Starts rowflow with {@code config} and expects exit 2 with {@code message} in its output. */
    private static void assertRefused(Path config, Path dir, String message) throws Exception {
        assertExitsRefused(RowflowProcess.start(config, dir, stack.jvmOptions()), message);
    }

    private static void assertExitsRefused(RowflowProcess rowflow, String message) throws Exception {
        assertThat(rowflow.process().waitFor(90, TimeUnit.SECONDS)).as("exited; log:%n%s", rowflow.logTail()).isTrue();
        assertThat(rowflow.process().exitValue()).as("log:%n%s", rowflow.logTail()).isEqualTo(2);
        assertThat(rowflow.logTail()).contains(message);
    }

    /** rowflow's configuration for this stack as the {@code rowflow} principal, with {@code overrides}. */
    private static Path configFile(Path dir, Map<String, String> overrides) throws Exception {
        Map<String, String> props = new LinkedHashMap<>(stack.rowflowProperties(ROWFLOW));
        props.put("kafka.state.dir", dir.resolve("state").toString());
        props.putAll(overrides);
        Path file = dir.resolve("rowflow.properties");
        Files.writeString(file, props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")));
        return file;
    }

    private static void awaitCommitted(Admin admin, RowflowProcess rowflow, String group, String topic, long expected)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (Offsets.committed(admin, group, topic) < expected && System.nanoTime() < deadline) {
            assertThat(rowflow.isAlive()).as("rowflow alive; its log:%n%s", rowflow.logTail()).isTrue();
            Thread.sleep(200);
        }
        assertThat(Offsets.committed(admin, group, topic)).as("committed; rowflow's log:%n%s", rowflow.logTail())
                .isEqualTo(expected);
    }
}
