package dev.rowflow.embedded;

import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.authentication.util.KerberosName;

import javax.security.auth.Subject;
import javax.security.auth.kerberos.KerberosTicket;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import javax.security.auth.login.LoginContext;
import javax.security.auth.login.LoginException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Date;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A real KDC in this JVM: Apache Kerby's, through {@code org.apache.hadoop:hadoop-minikdc} 3.4.1, in
 * a directory of its own, realm {@code EXAMPLE.COM}, TCP on loopback.
 *
 * <p>Clients reach it through a loopback gate (a TCP forwarder) named in the krb5.conf this class
 * writes, so a test can make the KDC unreachable ({@link #setReachable(boolean)}: connections are
 * refused) and bring it back with every principal and key intact. {@link #start} points the JVM at
 * that krb5.conf ({@code java.security.krb5.conf}) and reloads the JDK's and Hadoop's cached view of
 * it; a child JVM gets the same file with {@code -Djava.security.krb5.conf=}{@link #krb5Conf()}.
 *
 * <p>Kerberos state is global to a JVM (the JDK's krb5 configuration, Hadoop's login user and
 * default realm): one KDC per JVM, in a fork of its own. Needs
 * {@code --add-exports java.security.jgss/sun.security.krb5=ALL-UNNAMED} (the project's argLine has it).
 */
public final class EmbeddedKdc implements AutoCloseable {
    /** The JVM's pointer to its krb5.conf. */
    public static final String KRB5_CONF_PROPERTY = "java.security.krb5.conf";
    /** Kerby's default: a KDC accepts client clocks this far off (seconds). */
    private static final long DEFAULT_CLOCK_SKEW_SECONDS = 300;

    private final MiniKdc kdc;
    private final Path krb5Conf;
    private final Gate gate;

    private EmbeddedKdc(MiniKdc kdc, Path krb5Conf, Gate gate) {
        this.kdc = kdc;
        this.krb5Conf = krb5Conf;
        this.gate = gate;
    }

    /** Starts a KDC under {@code dir} whose tickets live a day. */
    public static EmbeddedKdc start(Path dir) {
        return start(dir, Duration.ofDays(1));
    }

    /**
     * Starts a KDC under {@code dir} whose tickets live {@code maxTicketLifetime} (at least 10 s;
     * Kafka's login thread wants more than {@code sasl.kerberos.min.time.before.relogin}, 60 s by
     * default, and HBase's renewal chore looks every 30 s: 2-3 minutes suits a relogin test).
     */
    public static EmbeddedKdc start(Path dir, Duration maxTicketLifetime) {
        long lifetimeSeconds = maxTicketLifetime.toSeconds();
        if (lifetimeSeconds < 10) {
            throw new IllegalArgumentException("a ticket lifetime under 10 s is not useful: " + maxTicketLifetime);
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        Properties conf = MiniKdc.createConf();
        conf.setProperty(MiniKdc.KDC_BIND_ADDRESS, "localhost");
        conf.setProperty(MiniKdc.KDC_PORT, "0");
        // Kerby reads its ticket lifetimes in SECONDS (TicketIssuer extends the start time by
        // value * 1000), whatever MiniKdc's javadoc says about milliseconds.
        conf.setProperty(MiniKdc.MAX_TICKET_LIFETIME, Long.toString(lifetimeSeconds));
        MiniKdc kdc;
        try {
            kdc = new MiniKdc(conf, dir.toFile());
            kdc.start();
        } catch (Exception e) {
            throw new IllegalStateException("the KDC did not start", e);
        }
        Gate gate = null;
        try {
            // The live Kerby configuration is read on every request: set it whatever MiniKdc passed on.
            setKdcLong(kdc, "maximum_ticket_lifetime", lifetimeSeconds);
            setKdcLong(kdc, "minimum_ticket_lifetime", 1L);
            gate = Gate.open(kdc.getPort());
            Path krb5Conf = dir.resolve("krb5.conf");
            Files.writeString(krb5Conf, krb5ConfText(kdc.getRealm(), gate.port(), lifetimeSeconds));
            // MiniKdc.start() pointed the JVM at Kerby's own krb5.conf (straight to the KDC's port):
            // point it at ours (through the gate) and drop what the JDK and Hadoop cached.
            System.setProperty(KRB5_CONF_PROPERTY, krb5Conf.toString());
            reloadKerberosConfiguration();
            return new EmbeddedKdc(kdc, krb5Conf, gate);
        } catch (IOException | RuntimeException e) {
            if (gate != null) {
                gate.close();
            }
            kdc.stop();
            throw new IllegalStateException("the KDC started but could not be set up", e);
        }
    }

    /** The realm, {@code EXAMPLE.COM}. */
    public String realm() {
        return kdc.getRealm();
    }

    /** The krb5.conf that names this KDC (through its gate); what {@code java.security.krb5.conf} points at. */
    public Path krb5Conf() {
        return krb5Conf;
    }

    /** The port clients reach the KDC on (the gate's). */
    public int port() {
        return gate.port();
    }

    /** {@code name} with this realm appended unless it has one: {@code rowflow} → {@code rowflow@EXAMPLE.COM}. */
    public String principal(String name) {
        return name.contains("@") ? name : name + "@" + realm();
    }

    /**
     * Creates {@code principals} (without realm, e.g. {@code rowflow} or {@code hbase/localhost})
     * with random keys and writes their keys to {@code keytab}, replacing the file. A principal can
     * be created once per KDC.
     */
    public void createPrincipal(File keytab, String... principals) {
        try {
            kdc.createPrincipal(keytab, principals);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create " + Arrays.toString(principals) + " in the KDC", e);
        }
    }

    /** {@link #createPrincipal(File, String...)} returning the keytab's path. */
    public Path createPrincipal(Path keytab, String... principals) {
        createPrincipal(keytab.toFile(), principals);
        return keytab;
    }

    /**
     * Deletes {@code principal} (without realm) from the KDC, as an admin removes an account: a
     * keytab made for it before still holds its keys, which the KDC no longer knows.
     */
    public void deletePrincipal(String principal) {
        try {
            Object simpleKdc = simpleKdc(kdc);
            simpleKdc.getClass().getMethod("deletePrincipal", String.class).invoke(simpleKdc, principal(principal));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot delete " + principal + " from the KDC", e);
        }
    }

    /**
     * Refuses (false) or accepts again (true) every client connection to the KDC, as a KDC that is
     * down does; the KDC itself keeps running, so principals and keys survive.
     */
    public void setReachable(boolean reachable) {
        if (reachable) {
            try {
                gate.openListener();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot reopen the KDC's port " + gate.port(), e);
            }
        } else {
            gate.shut();
        }
    }

    /**
     * How far a client's clock may be off. {@link Duration#ZERO} refuses every login as a clock skew
     * would: Kerby answers a skewed pre-authentication timestamp with KDC_ERR_PREAUTH_FAILED (24,
     * "Pre-authentication information was invalid") and a skewed TGS request with KRB_AP_ERR_SKEW
     * (37, "Clock skew too great"); an MIT KDC answers 37 to both. Kerby has no clock offset.
     */
    public void setAllowedClockSkew(Duration skew) {
        setKdcLong(kdc, "allowable_clockskew", skew.toSeconds());
    }

    /** Restores the default allowed clock skew (5 minutes). */
    public void resetAllowedClockSkew() {
        setKdcLong(kdc, "allowable_clockskew", DEFAULT_CLOCK_SKEW_SECONDS);
    }

    /** Changes the lifetime of tickets issued from now on. */
    public void setMaxTicketLifetime(Duration lifetime) {
        setKdcLong(kdc, "maximum_ticket_lifetime", lifetime.toSeconds());
    }

    /**
     * Logs {@code principal} in from {@code keytab} as a Kafka client or Hadoop would (JDK
     * Krb5LoginModule, no global state touched) and returns the lifetime of the TGT the KDC gave.
     *
     * @throws LoginException as the login fails, for tests of the failure messages
     */
    public Duration ticketLifetime(String principal, Path keytab) throws LoginException {
        Subject subject = new Subject();
        LoginContext login = new LoginContext("rowflow-kdc-check", subject, null,
                krb5LoginConfiguration(principal(principal), keytab));
        login.login();
        try {
            for (KerberosTicket ticket : subject.getPrivateCredentials(KerberosTicket.class)) {
                if (ticket.getServer().getName().startsWith("krbtgt/")) {
                    Date start = ticket.getStartTime() != null ? ticket.getStartTime() : ticket.getAuthTime();
                    return Duration.ofMillis(ticket.getEndTime().getTime() - start.getTime());
                }
            }
            throw new IllegalStateException("the login of " + principal + " brought no TGT");
        } finally {
            login.logout();
        }
    }

    /**
     * The {@code sasl.jaas.config} of a Kafka client or broker logging in as {@code principal} (with
     * realm) from {@code keytab}.
     */
    public static String kafkaJaasConfig(Path keytab, String principal) {
        return "com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true keyTab=\""
                + keytab.toAbsolutePath() + "\" principal=\"" + principal + "\";";
    }

    @Override
    public void close() {
        gate.close();
        kdc.stop();
        if (krb5Conf.toString().equals(System.getProperty(KRB5_CONF_PROPERTY))) {
            System.clearProperty(KRB5_CONF_PROPERTY);
        }
    }

    private static String krb5ConfText(String realm, int port, long lifetimeSeconds) {
        return "[libdefaults]\n"
                + "    default_realm = " + realm + "\n"
                + "    dns_lookup_kdc = false\n"
                + "    dns_lookup_realm = false\n"
                // TCP only (MiniKdc serves TCP), fail fast when the KDC is unreachable
                + "    udp_preference_limit = 1\n"
                + "    kdc_timeout = 3s\n"
                + "    max_retries = 1\n"
                + "    ticket_lifetime = " + lifetimeSeconds + "s\n"
                + "\n"
                + "[realms]\n"
                + "    " + realm + " = {\n"
                + "        kdc = localhost:" + port + "\n"
                + "    }\n"
                + "\n"
                + "[domain_realm]\n"
                + "    localhost = " + realm + "\n";
    }

    /**
     * Makes the JDK re-read {@code java.security.krb5.conf} and Hadoop re-read the default realm
     * (KerberosName caches it in a static field when first loaded, e.g. by an earlier UGI call).
     */
    static void reloadKerberosConfiguration() {
        try {
            Class.forName("sun.security.krb5.Config").getMethod("refresh").invoke(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot make the JDK reload krb5.conf: run the JVM with "
                    + "--add-exports java.security.jgss/sun.security.krb5=ALL-UNNAMED", e);
        }
        KerberosName.resetDefaultRealm();
    }

    /**
     * Sets a key of the running Kerby KDC's configuration (read on every request). MiniKdc keeps its
     * Kerby {@code SimpleKdcServer} in the private field {@code simpleKdc} (hadoop-minikdc 3.x).
     */
    private static void setKdcLong(MiniKdc kdc, String key, long value) {
        try {
            Object simpleKdc = simpleKdc(kdc);
            Object kdcConfig = simpleKdc.getClass().getMethod("getKdcConfig").invoke(simpleKdc);
            kdcConfig.getClass().getMethod("setLong", String.class, Long.class).invoke(kdcConfig, key, value);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot set " + key + " on the KDC: is hadoop-minikdc 3.x (Kerby) on the "
                    + "class path, not 2.x (ApacheDS)?", e);
        }
    }

    /** MiniKdc's Kerby {@code SimpleKdcServer}, kept in its private field {@code simpleKdc} (hadoop-minikdc 3.x). */
    private static Object simpleKdc(MiniKdc kdc) throws ReflectiveOperationException {
        Field field = MiniKdc.class.getDeclaredField("simpleKdc");
        field.setAccessible(true);
        return field.get(kdc);
    }

    private static Configuration krb5LoginConfiguration(String principal, Path keytab) {
        Map<String, String> options = Map.of(
                "useKeyTab", "true",
                "keyTab", keytab.toAbsolutePath().toString(),
                "principal", principal,
                "storeKey", "false",
                "doNotPrompt", "true",
                "isInitiator", "true",
                "refreshKrb5Config", "true");
        AppConfigurationEntry entry = new AppConfigurationEntry("com.sun.security.auth.module.Krb5LoginModule",
                AppConfigurationEntry.LoginModuleControlFlag.REQUIRED, options);
        return new Configuration() {
            @Override
            public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
                return new AppConfigurationEntry[] {entry};
            }
        };
    }

    /**
     * A loopback TCP forwarder in front of the KDC: Kerberos over TCP is one request and one reply
     * per connection, so shutting the listener (and the connections in flight) makes the KDC
     * unreachable exactly as a KDC that is down, and reopening it on the same port brings it back.
     */
    private static final class Gate implements AutoCloseable {
        private final int targetPort;
        private final int port;
        private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
        private ServerSocket listener;
        private boolean closed;

        private Gate(int targetPort, int port) {
            this.targetPort = targetPort;
            this.port = port;
        }

        static Gate open(int targetPort) throws IOException {
            Gate gate = new Gate(targetPort, FreePorts.next());
            gate.openListener();
            return gate;
        }

        int port() {
            return port;
        }

        synchronized void openListener() throws IOException {
            if (closed || listener != null) {
                return;
            }
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName("localhost"), port), 50);
            listener = socket;
            Thread acceptor = new Thread(() -> accept(socket), "kdc-gate-" + port);
            acceptor.setDaemon(true);
            acceptor.start();
        }

        synchronized void shut() {
            closeQuietly(listener);
            listener = null;
            for (Socket connection : connections) {
                closeQuietly(connection);
            }
            connections.clear();
        }

        @Override
        public synchronized void close() {
            shut();
            closed = true;
        }

        private void accept(ServerSocket socket) {
            while (!socket.isClosed()) {
                Socket client;
                try {
                    client = socket.accept();
                } catch (IOException e) {
                    return; // shut
                }
                Socket kdc = new Socket();
                try {
                    kdc.connect(new InetSocketAddress(InetAddress.getByName("localhost"), targetPort), 5_000);
                } catch (IOException e) {
                    closeQuietly(client);
                    closeQuietly(kdc);
                    continue;
                }
                connections.add(client);
                connections.add(kdc);
                pump(client, kdc);
                pump(kdc, client);
            }
        }

        private void pump(Socket from, Socket to) {
            Thread pump = new Thread(() -> {
                try {
                    InputStream in = from.getInputStream();
                    OutputStream out = to.getOutputStream();
                    in.transferTo(out);
                    out.flush();
                } catch (IOException e) {
                    // the other side or shut() closed it
                } finally {
                    closeQuietly(from);
                    closeQuietly(to);
                    connections.remove(from);
                    connections.remove(to);
                }
            }, "kdc-gate-pump-" + port);
            pump.setDaemon(true);
            pump.start();
        }

        private static void closeQuietly(AutoCloseable closeable) {
            if (closeable == null) {
                return;
            }
            try {
                closeable.close();
            } catch (Exception e) {
                // closing anyway
            }
        }
    }
}
