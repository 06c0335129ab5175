package dev.rowflow.embedded;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.security.access.AccessControlClient;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.security.UserGroupInformation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A KDC, a Kafka broker with a SASL_PLAINTEXT GSSAPI listener and a Kerberos-secured HBase mini
 * cluster with the AccessController, in this JVM, for the tests of one fork (Kerberos state is
 * global to a JVM: see {@link EmbeddedKdc}). Principals and keytabs are made on demand per user.
 *
 * <p>The JVM's Hadoop login user is HBase's service principal {@code hbase/localhost@EXAMPLE.COM}
 * (HBase's superuser), and must stay so: HBase's RPC server builds each connection's GSSAPI server
 * from {@code UserGroupInformation.getCurrentUser()}, i.e. that login user. A client in this JVM
 * must therefore never call {@code UserGroupInformation.loginUserFromKeytab} (nor let
 * {@code ConnectionFactory.createConnection(conf)} do it through hbase.client.keytab.*): use
 * {@link #connectionAs(String)}, and run rowflow itself, which logs its process in, in a JVM of its
 * own with {@link #rowflowProperties(String)} and {@link #jvmOptions()}.
 */
public final class SecureEmbeddedStack implements AutoCloseable {
    /** HBase's service principal (without realm): master and region server share it. */
    public static final String HBASE_SERVICE = "hbase/localhost";
    /** The broker's principal (without realm): clients reach 127.0.0.1, which reverses to localhost. */
    public static final String KAFKA_SERVICE = "kafka/localhost";
    /** A user HBase treats as superuser besides the service ({@code hbase.superuser}). */
    public static final String ADMIN = "admin";
    private static final String KAFKA_SERVICE_KEYTAB = "kafka-service.keytab";

    private final Path dir;
    private final EmbeddedKdc kdc;
    private final EmbeddedKafka kafka;
    private final EmbeddedHBase hbase;
    private final Map<String, Path> keytabs = new ConcurrentHashMap<>();
    private final ScheduledExecutorService relogin;

    private SecureEmbeddedStack(Path dir, EmbeddedKdc kdc, EmbeddedKafka kafka, EmbeddedHBase hbase) {
        this.dir = dir;
        this.kdc = kdc;
        this.kafka = kafka;
        this.hbase = hbase;
        // HBase's servers in this JVM relogin only when an RPC fails; with short test tickets keep
        // the service's TGT fresh (a no-op until 80 % of its lifetime).
        this.relogin = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "hbase-service-relogin");
            thread.setDaemon(true);
            return thread;
        });
        relogin.scheduleWithFixedDelay(() -> {
            try {
                UserGroupInformation.getLoginUser().checkTGTAndReloginFromKeytab();
            } catch (IOException e) {
                // the KDC may be made unreachable on purpose; the next round tries again
            }
        }, 10, 10, TimeUnit.SECONDS);
    }

    /** Starts a stack whose tickets live an hour. */
    public static SecureEmbeddedStack start() {
        return start(Duration.ofHours(1));
    }

    /**
     * Starts the KDC, then Kafka (its listener logs in as {@link #KAFKA_SERVICE}), then HBase (as
     * {@link #HBASE_SERVICE}); every ticket the KDC issues lives {@code maxTicketLifetime}.
     */
    public static SecureEmbeddedStack start(Duration maxTicketLifetime) {
        return start(maxTicketLifetime, Duration.ZERO);
    }

    /**
     * As {@link #start(Duration)}, and the broker makes every client authenticate again within
     * {@code kafkaReauthentication} ({@code connections.max.reauth.ms}; zero: never), so a Kafka
     * client must keep a valid ticket for as long as it runs.
     */
    public static SecureEmbeddedStack start(Duration maxTicketLifetime, Duration kafkaReauthentication) {
        Path dir = TempDirs.create("rowflow-secure-stack-");
        EmbeddedKdc kdc = null;
        EmbeddedKafka kafka = null;
        try {
            kdc = EmbeddedKdc.start(dir.resolve("kdc"), maxTicketLifetime);
            Path kafkaKeytab = kdc.createPrincipal(dir.resolve(KAFKA_SERVICE_KEYTAB), KAFKA_SERVICE);
            Path hbaseKeytab = kdc.createPrincipal(dir.resolve("hbase-service.keytab"), HBASE_SERVICE);
            kafka = EmbeddedKafka.startWithKerberos(dir, kafkaKeytab, kdc.principal(KAFKA_SERVICE),
                    kafkaReauthentication);
            EmbeddedHBase hbase = EmbeddedHBase.startSecured(dir, new EmbeddedHBase.Kerberos(
                    kdc.principal(HBASE_SERVICE), hbaseKeytab, List.of(ADMIN)));
            return new SecureEmbeddedStack(dir, kdc, kafka, hbase);
        } catch (RuntimeException e) {
            if (kafka != null) {
                kafka.close();
            }
            if (kdc != null) {
                kdc.close();
            }
            TempDirs.delete(dir);
            throw e;
        }
    }

    public EmbeddedKdc kdc() {
        return kdc;
    }

    public EmbeddedKafka kafka() {
        return kafka;
    }

    /** The secured cluster; its {@link EmbeddedHBase#connection()} is the superuser's. */
    public EmbeddedHBase hbase() {
        return hbase;
    }

    /**
     * The keytab the broker logs in with as {@link #KAFKA_SERVICE}: for a second broker of the same
     * realm (e.g. {@link EmbeddedKafka#startWithKerberosTls}).
     */
    public Path kafkaServiceKeytab() {
        return dir.resolve(KAFKA_SERVICE_KEYTAB);
    }

    /** The stack's own directory (deleted with it). */
    public Path directory() {
        return dir;
    }

    /**
     * The keytab of {@code user} (a name without realm, e.g. {@code rowflow} or
     * {@code rowflow/localhost}), creating the principal in the KDC on first use.
     */
    public Path keytab(String user) {
        return keytabs.computeIfAbsent(user,
                name -> kdc.createPrincipal(dir.resolve(name.replace('/', '_') + ".keytab"), name));
    }

    /** {@code user}'s principal with realm. */
    public String principal(String user) {
        return kdc.principal(user);
    }

    /**
     * rowflow's configuration to reach this stack as {@code user}: Kafka over SASL_PLAINTEXT/GSSAPI
     * and HBase over Kerberos from {@code user}'s keytab, as the chart renders them.
     */
    public Map<String, String> rowflowProperties(String user) {
        Map<String, String> props = new LinkedHashMap<>();
        kafkaClientProperties(user).forEach((key, value) -> props.put("kafka." + key, String.valueOf(value)));
        props.put("kafka.state.dir", dir.resolve("streams-state-" + user.replace('/', '_')).toString());
        props.putAll(hbase.clientProperties());
        props.put("hbase.client.keytab.file", keytab(user).toString());
        props.put("hbase.client.keytab.principal", principal(user));
        props.put("hbase.client.kerberos.principal", principal(user));
        return props;
    }

    /** A Kafka client's settings to reach the broker as {@code user}. */
    public Map<String, Object> kafkaClientProperties(String user) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put("security.protocol", "SASL_PLAINTEXT");
        props.put("sasl.mechanism", "GSSAPI");
        props.put("sasl.kerberos.service.name", "kafka");
        props.put("sasl.jaas.config", EmbeddedKdc.kafkaJaasConfig(keytab(user), principal(user)));
        return props;
    }

    /**
     * The options a child JVM (rowflow's production jar) needs to use this stack's KDC; the jar's
     * manifest carries the --add-exports for sun.security.krb5.
     */
    public List<String> jvmOptions() {
        return List.of("-Djava.security.krb5.conf=" + kdc.krb5Conf());
    }

    /**
     * An HBase connection in this JVM authenticated as {@code user}, without touching the JVM's
     * login user: the user's UGI is logged in on its own (loginUserFromKeytabAndReturnUGI) and
     * handed to the connection. Its automatic renewal is off: Hadoop 2.10's UGI would relogin any
     * UGI from the JVM's login keytab (a static), i.e. as the HBase service. Lives as long as its
     * first ticket; open a new one for longer.
     */
    public Connection connectionAs(String user) {
        try {
            UserGroupInformation ugi = UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal(user),
                    keytab(user).toString());
            Configuration conf = HBaseConfiguration.create();
            hbase.clientProperties().forEach(conf::set);
            conf.setBoolean("hbase.client.keytab.automatic.renewal", false);
            conf.setInt("hbase.client.retries.number", 5);
            return ConnectionFactory.createConnection(conf, User.create(ugi));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot connect to HBase as " + user, e);
        }
    }

    /**
     * Grants {@code user} (by short name: the principal's first component) {@code actions} on
     * {@code table}, as HBase's superuser. Region servers learn of it a moment later (through
     * ZooKeeper): retry the first operation that needs it.
     */
    public void grant(String user, TableName table, Permission.Action... actions) {
        try {
            AccessControlClient.grant(hbase.connection(), table, shortName(user), null, null, actions);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot grant " + user + " on " + table, e);
        }
    }

    /** Revokes what {@link #grant} gave. */
    public void revoke(String user, TableName table, Permission.Action... actions) {
        try {
            AccessControlClient.revoke(hbase.connection(), table, shortName(user), null, null, actions);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot revoke " + user + " on " + table, e);
        }
    }

    /** HBase's (and Kafka's) name for a principal: its first component (auth_to_local DEFAULT). */
    public static String shortName(String user) {
        return user.split("[/@]", 2)[0];
    }

    @Override
    public void close() {
        relogin.shutdownNow();
        try {
            hbase.close();
        } finally {
            try {
                kafka.close();
            } finally {
                try {
                    kdc.close();
                } finally {
                    TempDirs.delete(dir);
                }
            }
        }
    }
}
