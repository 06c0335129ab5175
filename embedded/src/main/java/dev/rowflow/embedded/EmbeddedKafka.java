package dev.rowflow.embedded;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * One Kafka node in KRaft mode acting as broker and controller, on two loopback ports.
 * Replication factors are 1, and the group coordinator does not delay the first rebalance.
 */
public final class EmbeddedKafka implements AutoCloseable {
    private final int brokerPort;
    private final Properties props;
    private volatile KafkaRaftServer server;

    private EmbeddedKafka(int brokerPort, Properties props, KafkaRaftServer server) {
        this.brokerPort = brokerPort;
        this.props = props;
        this.server = server;
    }

    /** Formats a fresh log directory under {@code dir} and starts the node. */
    public static EmbeddedKafka start(Path dir) {
        return start(dir, null, null);
    }

    /**
     * Like {@link #start(Path)}, but clients must connect over TLS: the client listener presents
     * the PKCS12 {@code keystore} (its certificate's SAN must name 127.0.0.1), while broker and
     * controller talk plaintext on loopback ports of their own.
     */
    public static EmbeddedKafka startWithTls(Path dir, Path keystore, String password) {
        return start(dir, keystore, password, null, null);
    }

    /**
     * Like {@link #start(Path)}, but clients must authenticate with SASL/SCRAM-SHA-256 (over
     * plaintext, on loopback): {@code user} with {@code password} is the one credential, written
     * into the metadata when the storage is formatted, as {@code kafka-storage format --add-scram}
     * does for a new cluster.
     */
    public static EmbeddedKafka startWithScram(Path dir, String user, String password) {
        return start(dir, null, null, user, password);
    }

    /**
     * Like {@link #start(Path)}, but clients must authenticate with SASL/GSSAPI (Kerberos) over
     * plaintext, on loopback: the listener logs in as {@code principal} (with realm, e.g.
     * {@code kafka/localhost@EXAMPLE.COM}: clients ask for service {@code kafka} on the host that
     * 127.0.0.1 reverses to, {@code localhost}) from {@code keytab}, against the KDC of the JVM's
     * krb5.conf ({@link EmbeddedKdc}). Broker and controller talk plaintext on ports of their own.
     */
    public static EmbeddedKafka startWithKerberos(Path dir, Path keytab, String principal) {
        return start(dir, null, null, null, null, new Gssapi(keytab, principal, Duration.ZERO));
    }

    /**
     * Like {@link #startWithKerberos(Path, Path, String)}, and the broker closes a client's
     * connection unless it re-authenticates within {@code reauthentication}
     * ({@code connections.max.reauth.ms}): a client must keep a valid ticket, as relogin tests need.
     */
    public static EmbeddedKafka startWithKerberos(Path dir, Path keytab, String principal, Duration reauthentication) {
        return start(dir, null, null, null, null, new Gssapi(keytab, principal, reauthentication));
    }

    /**
     * SASL/GSSAPI over TLS ({@code SASL_SSL}): the listener presents {@code keystore} as
     * {@link #startWithTls} does and authenticates clients with Kerberos as
     * {@link #startWithKerberos(Path, Path, String)} does.
     */
    public static EmbeddedKafka startWithKerberosTls(Path dir, Path keystore, String password, Path keytab,
                                                     String principal) {
        return start(dir, keystore, password, null, null, new Gssapi(keytab, principal, Duration.ZERO));
    }

    /** The Kerberos side of a GSSAPI listener. */
    private record Gssapi(Path keytab, String principal, Duration reauthentication) {
        /** The first component of the principal: the service name clients ask tickets for. */
        String serviceName() {
            return principal.split("[/@]", 2)[0];
        }
    }

    private static EmbeddedKafka start(Path dir, Path keystore, String password) {
        return start(dir, keystore, password, null, null);
    }

    private static EmbeddedKafka start(Path dir, Path keystore, String password, String scramUser,
                                       String scramPassword) {
        return start(dir, keystore, password, scramUser, scramPassword, null);
    }

    private static EmbeddedKafka start(Path dir, Path keystore, String password, String scramUser,
                                       String scramPassword, Gssapi gssapi) {
        int brokerPort = FreePorts.next();
        int controllerPort = FreePorts.next();
        Path logDir = dir.resolve("kafka-logs");
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        props.put("controller.listener.names", "CONTROLLER");
        if (gssapi != null) {
            String protocol = keystore == null ? "SASL_PLAINTEXT" : "SASL_SSL";
            int internalPort = FreePorts.next();
            props.put("listeners", protocol + "://127.0.0.1:" + brokerPort + ",INTERNAL://127.0.0.1:" + internalPort
                    + ",CONTROLLER://127.0.0.1:" + controllerPort);
            props.put("advertised.listeners", protocol + "://127.0.0.1:" + brokerPort + ",INTERNAL://127.0.0.1:"
                    + internalPort);
            props.put("listener.security.protocol.map",
                    protocol + ":" + protocol + ",INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT");
            props.put("inter.broker.listener.name", "INTERNAL");
            props.put("sasl.enabled.mechanisms", "GSSAPI");
            // Kafka's KerberosLogin refuses a GSSAPI login without a service name ("No serviceName
            // defined in either JAAS or Kafka config"), on brokers too.
            props.put("sasl.kerberos.service.name", gssapi.serviceName());
            props.put("listener.name." + protocol.toLowerCase(Locale.ROOT) + ".gssapi.sasl.jaas.config",
                    EmbeddedKdc.kafkaJaasConfig(gssapi.keytab(), gssapi.principal()));
            if (!gssapi.reauthentication().isZero()) {
                props.put("connections.max.reauth.ms", Long.toString(gssapi.reauthentication().toMillis()));
            }
            if (keystore != null) {
                props.put("ssl.keystore.location", keystore.toString());
                props.put("ssl.keystore.type", "PKCS12");
                props.put("ssl.keystore.password", password);
                props.put("ssl.key.password", password);
            }
        } else if (scramUser != null) {
            int internalPort = FreePorts.next();
            props.put("listeners", "SASL_PLAINTEXT://127.0.0.1:" + brokerPort + ",INTERNAL://127.0.0.1:" + internalPort
                    + ",CONTROLLER://127.0.0.1:" + controllerPort);
            props.put("advertised.listeners", "SASL_PLAINTEXT://127.0.0.1:" + brokerPort + ",INTERNAL://127.0.0.1:"
                    + internalPort);
            props.put("listener.security.protocol.map",
                    "SASL_PLAINTEXT:SASL_PLAINTEXT,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT");
            props.put("inter.broker.listener.name", "INTERNAL");
            props.put("sasl.enabled.mechanisms", "SCRAM-SHA-256");
            props.put("listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config",
                    "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        } else if (keystore == null) {
            props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
            props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
            props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
            props.put("inter.broker.listener.name", "PLAINTEXT");
        } else {
            int internalPort = FreePorts.next();
            props.put("listeners", "SSL://127.0.0.1:" + brokerPort + ",INTERNAL://127.0.0.1:" + internalPort
                    + ",CONTROLLER://127.0.0.1:" + controllerPort);
            props.put("advertised.listeners", "SSL://127.0.0.1:" + brokerPort + ",INTERNAL://127.0.0.1:" + internalPort);
            props.put("listener.security.protocol.map", "SSL:SSL,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT");
            props.put("inter.broker.listener.name", "INTERNAL");
            props.put("ssl.keystore.location", keystore.toString());
            props.put("ssl.keystore.type", "PKCS12");
            props.put("ssl.keystore.password", password);
            props.put("ssl.key.password", password);
        }
        props.put("log.dirs", logDir.toString());
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "4");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("auto.create.topics.enable", "false");
        // Keep every record: tests and the demo replay events with fixed (old) timestamps, and the
        // default 7-day time retention would delete them at the first retention check, 30 s after start.
        props.put("log.retention.ms", "-1");
        format(dir, props, scramUser == null ? List.of()
                : List.of("--add-scram", "SCRAM-SHA-256=[name=" + scramUser + ",password=" + scramPassword + "]"));
        KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props), Time.SYSTEM);
        server.startup();
        return new EmbeddedKafka(brokerPort, props, server);
    }

    /**
     * Stops the node, waits {@code down}, and starts it again on the same ports and log
     * directory, as a broker restart in production: fault tests use it. Records and committed
     * offsets survive; clients see the broker vanish and come back.
     */
    public void restart(java.time.Duration down) throws InterruptedException {
        server.shutdown();
        server.awaitShutdown();
        Thread.sleep(down.toMillis());
        KafkaRaftServer restarted = new KafkaRaftServer(KafkaConfig.fromProps(props), Time.SYSTEM);
        restarted.startup();
        server = restarted;
    }

    /** {@code bootstrap.servers} of this node. */
    public String bootstrapServers() {
        return "127.0.0.1:" + brokerPort;
    }

    /**
     * {@code bootstrap.servers} of the node's own plaintext listener (inter-broker, on loopback),
     * for a test that must reach the broker while its clients cannot authenticate — a KDC outage —
     * and for nothing else; empty on a node whose clients already connect in plaintext.
     */
    public java.util.Optional<String> internalBootstrapServers() {
        for (String listener : props.getProperty("advertised.listeners").split(",")) {
            if (listener.startsWith("INTERNAL://")) {
                return java.util.Optional.of(listener.substring("INTERNAL://".length()));
            }
        }
        return java.util.Optional.empty();
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }

    /** Runs {@code kafka-storage format} on the node's configuration, as an operator would. */
    private static void format(Path dir, Properties props, List<String> extraArgs) {
        Path file = dir.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(file)) {
            props.store(out, "embedded KRaft node");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        List<String> command = new java.util.ArrayList<>(List.of("format", "-t", Uuid.randomUuid().toString(), "-c",
                file.toString(), "--ignore-formatted"));
        command.addAll(extraArgs);
        String[] args = command.toArray(String[]::new);
        int rc = StorageTool.execute(args, new PrintStream(output, true, StandardCharsets.UTF_8));
        if (rc != 0) {
            throw new IllegalStateException("kafka-storage format failed (" + rc + "): "
                    + output.toString(StandardCharsets.UTF_8));
        }
    }
}
