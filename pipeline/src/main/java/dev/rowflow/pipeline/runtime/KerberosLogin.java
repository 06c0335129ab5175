package dev.rowflow.pipeline.runtime;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.util.KerberosUtil;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.JaasContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.security.auth.Subject;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.kerberos.KerberosTicket;
import javax.security.auth.kerberos.KeyTab;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.LoginContext;
import javax.security.auth.login.LoginException;
import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * rowflow's Kerberos login: from the keytab and principal it is configured with, to HBase
 * (Hadoop's UserGroupInformation, process-wide, kept fresh) and checked up front for Kafka (whose
 * clients log in and relogin on their own from {@code kafka.sasl.jaas.config}). Every failure at
 * start becomes a {@link ConfigException} naming the setting and the cause (exit code 2).
 *
 * <p>Why rowflow must do this itself: hbase-client 2.6 logs in only where Hadoop's
 * UserGroupInformation already says Kerberos, and nothing in hbase-client passes the HBase
 * configuration to {@code UserGroupInformation.setConfiguration}: with {@code
 * hadoop.security.authentication=kerberos} among rowflow's keys but no core-site.xml on the class
 * path, AuthUtil.loginClient sees security off and the client speaks SIMPLE to a Kerberos cluster.
 */
public final class KerberosLogin {
    public static final String HBASE_AUTHENTICATION = "hbase.security.authentication";
    public static final String HBASE_KEYTAB = "hbase.client.keytab.file";
    /** What hbase-client's AuthUtil reads. */
    public static final String HBASE_PRINCIPAL = "hbase.client.keytab.principal";
    /** The name other HBase clients (and the chart) also set. */
    public static final String HBASE_PRINCIPAL_ALIAS = "hbase.client.kerberos.principal";
    public static final String KRB5_CONF = "java.security.krb5.conf";
    public static final String KAFKA_JAAS = "kafka.sasl.jaas.config";

    private static final Logger LOG = LoggerFactory.getLogger(KerberosLogin.class);
    private static final Pattern KERBEROS_CODE = Pattern.compile("\\((\\d+)\\)");
    /**
     * A clock this far from the KDC's is named as the cause of a refused key: within a minute,
     * a refusal is the key's; Kerberos allows 5 minutes by default.
     */
    private static final Duration CLOCK_OFFSET_WORTH_NAMING = Duration.ofMinutes(1);
    /**
     * How often the login is checked; it is renewed from the keytab at 80 % of the ticket's life,
     * so a check must fall in the last fifth of it: every 5 s keeps tickets of 25 s and more fresh.
     * A check reads the ticket's times and nothing else until a renewal is due.
     */
    private static final long RELOGIN_CHECK_SECONDS = 5;
    private static ScheduledExecutorService relogin;
    /** The principal this process logged in as, once it has. */
    private static String loggedIn;
    /** When the ticket seen at the last check expires (the relogin thread's only). */
    private static Date ticketEnd;

    private KerberosLogin() {
    }

    /**
     * Logs this process in to Kerberos from {@code hbase.client.keytab.file} as
     * {@code hbase.client.keytab.principal} when {@code hbase.security.authentication} is
     * kerberos, and keeps it logged in; does nothing otherwise. Writes the principal back as
     * hbase-client will compare it ({@code _HOST} expanded, realm added), so the connection's own
     * AuthUtil.loginClient finds the login user matching and does not log in a second time.
     * Call before {@code ConnectionFactory.createConnection(conf)}; idempotent.
     *
     * @return the principal logged in, if Kerberos is on
     * @throws ConfigException naming the setting at fault and why
     */
    public static synchronized Optional<String> loginToHBase(Configuration conf) {
        if (!"kerberos".equalsIgnoreCase(conf.get(HBASE_AUTHENTICATION))) {
            return Optional.empty();
        }
        conf.set("hadoop.security.authentication", "kerberos");
        String keytab = conf.getTrimmed(HBASE_KEYTAB, "");
        String configured = conf.getTrimmed(HBASE_PRINCIPAL, conf.getTrimmed(HBASE_PRINCIPAL_ALIAS, ""));
        if (keytab.isEmpty()) {
            throw new ConfigException(HBASE_KEYTAB, null, "required when " + HBASE_AUTHENTICATION + " is kerberos");
        }
        if (configured.isEmpty()) {
            throw new ConfigException(HBASE_PRINCIPAL, null, "required when " + HBASE_AUTHENTICATION + " is kerberos");
        }
        checkReadable(HBASE_KEYTAB, keytab);
        try {
            // UGI reads hadoop.security.* (authentication, auth_to_local, min.seconds.before.relogin)
            // from this configuration, and the default realm from krb5.conf.
            UserGroupInformation.setConfiguration(conf);
        } catch (RuntimeException e) {
            throw new ConfigException(KRB5_CONF, System.getProperty(KRB5_CONF, "/etc/krb5.conf"),
                    "no usable Kerberos configuration (default realm): " + messages(e));
        }
        String principal = canonical(HBASE_PRINCIPAL, configured);
        checkKeytabHolds(HBASE_KEYTAB, keytab, principal);
        try {
            if (!principal.equals(loggedIn)) {
                UserGroupInformation.loginUserFromKeytab(principal, keytab);
                loggedIn = principal;
                LOG.info("Kerberos: logged in to HBase as {} from {}", principal, keytab);
            }
        } catch (IOException e) {
            throw refusal(HBASE_KEYTAB, keytab, HBASE_PRINCIPAL, principal, e);
        }
        conf.set(HBASE_PRINCIPAL, principal);
        conf.set(HBASE_PRINCIPAL_ALIAS, principal);
        startRelogin();
        return Optional.of(principal);
    }

    /**
     * The Kafka client properties of {@code config}, its GSSAPI login checked and its JAAS line
     * expanded ({@link #checkKafka}): what every Kafka client of rowflow's is made with.
     */
    public static Map<String, Object> kafkaClientProperties(dev.rowflow.pipeline.config.RowflowConfig config) {
        Map<String, Object> kafka = config.kafkaProperties();
        checkKafka(kafka).ifPresent(line -> kafka.put(org.apache.kafka.common.config.SaslConfigs.SASL_JAAS_CONFIG, line));
        return kafka;
    }

    /**
     * Checks a Kafka GSSAPI login before Kafka Streams starts its clients, so its failure names
     * the setting: the keytab and principal of {@code sasl.jaas.config}, then a real login to the
     * KDC (Kafka's clients then log in and relogin on their own). Expands {@code _HOST} in the
     * JAAS principal (Kafka does not) and returns the JAAS line to use.
     *
     * @param kafka Kafka client properties without rowflow's {@code kafka.} prefix
     * @throws ConfigException naming {@code kafka.sasl.jaas.config} and why
     */
    public static Optional<String> checkKafka(Map<String, Object> kafka) {
        Object mechanism = kafka.getOrDefault("sasl.mechanism", "GSSAPI");
        Object protocol = kafka.getOrDefault("security.protocol", "PLAINTEXT");
        if (!String.valueOf(protocol).startsWith("SASL_") || !"GSSAPI".equals(String.valueOf(mechanism))) {
            return Optional.empty();
        }
        Object raw = kafka.get("sasl.jaas.config");
        if (raw == null) {
            throw new ConfigException(KAFKA_JAAS, null, "required with sasl.mechanism GSSAPI: "
                    + "com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true "
                    + "keyTab=\"/path/to/keytab\" principal=\"name@REALM\";");
        }
        String jaas = raw instanceof Password password ? password.value() : String.valueOf(raw);
        if (kafka.get("sasl.kerberos.service.name") == null && !jaas.contains("serviceName")) {
            throw new ConfigException("kafka.sasl.kerberos.service.name", null,
                    "required with sasl.mechanism GSSAPI: the brokers' service principal name, usually kafka");
        }
        List<AppConfigurationEntry> entries;
        try {
            entries = JaasContext.loadClientContext(Map.of("sasl.jaas.config", new Password(jaas)))
                    .configurationEntries();
        } catch (RuntimeException e) {
            throw new ConfigException(KAFKA_JAAS, "[hidden]", "not a JAAS line: " + messages(e));
        }
        String keytab = (String) entries.get(0).getOptions().get("keyTab");
        String configured = (String) entries.get(0).getOptions().get("principal");
        if (keytab == null || configured == null) {
            // ticket cache logins (kinit) are the operator's business
            return Optional.of(jaas);
        }
        checkReadable(KAFKA_JAAS + " keyTab", keytab);
        String principal = canonical(KAFKA_JAAS + " principal", configured);
        checkKeytabHolds(KAFKA_JAAS + " keyTab", keytab, principal);
        String expanded = jaas.replace("\"" + configured + "\"", "\"" + principal + "\"");
        try {
            LoginContext login = new LoginContext("KafkaClient", new Subject(), null,
                    JaasContext.loadClientContext(Map.of("sasl.jaas.config", new Password(expanded))).configuration());
            login.login();
            login.logout();
        } catch (LoginException e) {
            throw refusal(KAFKA_JAAS + " keyTab", keytab, KAFKA_JAAS + " principal", principal, e);
        }
        return Optional.of(expanded);
    }

    /**
     * {@code principal} as Kerberos will name it: {@code _HOST} replaced by this host's canonical
     * name, lower case (Hadoop's SecurityUtil.getServerPrincipal), and the default realm added
     * when there is none ({@code rowflow} becomes {@code rowflow@EXAMPLE.COM}).
     */
    static String canonical(String key, String principal) {
        try {
            // The realm first: Hadoop expands _HOST only in a principal of three parts, name/host@REALM.
            String withRealm = new KerberosPrincipal(principal).getName();
            return new KerberosPrincipal(SecurityUtil.getServerPrincipal(withRealm, (String) null)).getName();
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException(key, principal, "not a Kerberos principal here: " + messages(e));
        }
    }

    private static void checkReadable(String key, String keytab) {
        Path path = Path.of(keytab);
        if (!Files.isRegularFile(path)) {
            throw new ConfigException(key, keytab, "no such file");
        }
        if (!Files.isReadable(path)) {
            throw new ConfigException(key, keytab, "not readable by this process (user "
                    + System.getProperty("user.name") + ")");
        }
    }

    private static void checkKeytabHolds(String key, String keytab, String principal) {
        KerberosPrincipal wanted = new KerberosPrincipal(principal);
        if (KeyTab.getUnboundInstance(new File(keytab)).getKeys(wanted).length == 0) {
            String holds;
            try {
                holds = Arrays.toString(KerberosUtil.getPrincipalNames(keytab, Pattern.compile(".*")));
            } catch (IOException | RuntimeException e) {
                holds = "(unreadable: " + messages(e) + ")";
            }
            throw new ConfigException(key, keytab, "holds no key this JVM can use for " + principal
                    + "; it holds " + holds);
        }
    }

    /**
     * The one-line refusal of a failed login: which setting and why, from the JDK's Kerberos error
     * (its code in parentheses, e.g. "Client not found in Kerberos database (6)") or the network.
     */
    static ConfigException refusal(String keytabKey, String keytab, String principalKey, String principal,
                                   Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException || t instanceof SocketTimeoutException
                    || t instanceof PortUnreachableException || t instanceof UnknownHostException) {
                return new ConfigException(KRB5_CONF, System.getProperty(KRB5_CONF, "/etc/krb5.conf"),
                        "the KDC of " + realmOf(principal) + " is unreachable (" + t + ")");
            }
            // The JDK's own words ("Client not found in Kerberos database (6)"), not Hadoop's wrapping
            // of them: the message of the JDK's LoginException where there is one.
            String message = t.getMessage() == null ? "" : t.getMessage();
            if (!(t instanceof LoginException)) {
                for (Throwable deeper = t.getCause(); deeper != null && deeper != deeper.getCause();
                     deeper = deeper.getCause()) {
                    if (deeper instanceof LoginException && deeper.getMessage() != null) {
                        message = deeper.getMessage();
                        break;
                    }
                }
            }
            Matcher code = KERBEROS_CODE.matcher(message);
            if (code.find()) {
                int kerberosCode = Integer.parseInt(code.group(1));
                Optional<Duration> offset = kerberosCode == 24 || kerberosCode == 31 || kerberosCode == 37
                        ? clockOffset(e) : Optional.empty();
                if (offset.isPresent() && offset.get().abs().compareTo(CLOCK_OFFSET_WORTH_NAMING) >= 0) {
                    // The KDC's error carries its own time: a stale key and a wrong clock look alike
                    // otherwise (Kerby, Active Directory report both as pre-authentication failed).
                    return new ConfigException(KRB5_CONF, System.getProperty(KRB5_CONF, "/etc/krb5.conf"),
                            "this host's clock differs from the KDC's by more than the allowed skew: it is "
                                    + describe(offset.get()) + " the KDC's (" + message + ")");
                }
                switch (kerberosCode) {
                    case 6:
                        return new ConfigException(principalKey, principal, "the KDC does not know this principal ("
                                + message + ")");
                    case 24, 31:
                        return new ConfigException(keytabKey, keytab, "the KDC refused its key for " + principal
                                + ": a stale keytab (the principal's key changed) or this host's clock differs from "
                                + "the KDC's by more than the allowed skew (" + message + ")");
                    case 37:
                        return new ConfigException(KRB5_CONF, System.getProperty(KRB5_CONF, "/etc/krb5.conf"),
                                "this host's clock differs from the KDC's by more than the allowed skew (" + message + ")");
                    case 18:
                        return new ConfigException(principalKey, principal, "the principal is disabled or locked ("
                                + message + ")");
                    default:
                        break;
                }
            }
            if (message.contains("Unable to obtain password from user")
                    || message.contains("does not currently support obtaining a password")) {
                return new ConfigException(keytabKey, keytab, "holds no usable key for " + principal);
            }
            if (message.contains("Cannot locate default realm") || message.contains("Cannot find default realm")
                    || message.contains("Can't get Kerberos realm") || message.contains("Cannot locate KDC")
                    || message.contains("Cannot get a KDC reply")) {
                return new ConfigException(KRB5_CONF, System.getProperty(KRB5_CONF, "/etc/krb5.conf"), message);
            }
        }
        return new ConfigException(principalKey, principal, "Kerberos login from " + keytab + " failed: " + messages(e));
    }

    /**
     * This host's clock minus the KDC's, from the server time of the KDC's error (KRB-ERROR's
     * {@code stime}) where the login failed on one; empty where the JDK's internal classes are not
     * exported to rowflow (the jar's manifest exports them).
     */
    static Optional<Duration> clockOffset(Throwable e) {
        long here = System.currentTimeMillis();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (!"sun.security.krb5.KrbException".equals(t.getClass().getName())) {
                continue;
            }
            try {
                Object error = t.getClass().getMethod("getError").invoke(t);
                if (error == null) {
                    return Optional.empty();
                }
                Object serverTime = error.getClass().getMethod("getServerTime").invoke(error);
                if (serverTime == null) {
                    return Optional.empty();
                }
                long kdc = (long) serverTime.getClass().getMethod("getTime").invoke(serverTime);
                return Optional.of(Duration.ofMillis(here - kdc));
            } catch (ReflectiveOperationException | RuntimeException notExported) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** "about 10 min behind" or "about 3 min ahead of". */
    private static String describe(Duration offset) {
        // In whole minutes: the KDC's time is read a moment after it was sent.
        long minutes = Math.round(Math.abs(offset.toMillis()) / 60_000.0);
        return "about " + minutes + " min" + (offset.isNegative() ? " behind" : " ahead of");
    }

    private static String realmOf(String principal) {
        int at = principal.lastIndexOf('@');
        return at < 0 ? "the default realm" : principal.substring(at + 1);
    }

    /** Checks the login every 5 s; Hadoop renews it from the keytab at 80 % of the ticket's life. */
    private static void startRelogin() {
        if (relogin != null) {
            return;
        }
        relogin = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "rowflow-kerberos-relogin");
            thread.setDaemon(true);
            return thread;
        });
        relogin.scheduleWithFixedDelay(() -> {
            try {
                UserGroupInformation user = UserGroupInformation.getLoginUser();
                user.checkTGTAndReloginFromKeytab();
                // Renewed here or by the HBase client (its own chore, or on a refused connection).
                Date end = ticketEnd(user);
                if (end != null && !end.equals(ticketEnd)) {
                    if (ticketEnd != null) {
                        LOG.info("Kerberos: renewed the login of {} from its keytab; its ticket is valid until {}",
                                loggedIn, end.toInstant());
                    }
                    ticketEnd = end;
                }
            } catch (IOException | RuntimeException e) {
                // The KDC may be down for a while: HBase connections already open keep working, new
                // ones wait in the client's retries; the next round tries again.
                LOG.warn("Kerberos relogin from the keytab failed, trying again in {} s: {}", RELOGIN_CHECK_SECONDS,
                        messages(e));
            }
        }, RELOGIN_CHECK_SECONDS, RELOGIN_CHECK_SECONDS, TimeUnit.SECONDS);
    }

    /** When the login's ticket-granting ticket expires, or null without one. */
    private static Date ticketEnd(UserGroupInformation user) {
        Subject subject;
        try {
            // Hadoop 2.10 keeps the login's Subject protected; it holds the tickets.
            java.lang.reflect.Method getSubject = UserGroupInformation.class.getDeclaredMethod("getSubject");
            getSubject.setAccessible(true);
            subject = (Subject) getSubject.invoke(user);
        } catch (ReflectiveOperationException e) {
            return null;
        }
        if (subject == null) {
            return null;
        }
        for (KerberosTicket ticket : subject.getPrivateCredentials(KerberosTicket.class)) {
            if (ticket.getServer().getName().startsWith("krbtgt/")) {
                return ticket.getEndTime();
            }
        }
        return null;
    }

    private static String messages(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            if (message != null && text.indexOf(message) < 0) {
                if (text.length() > 0) {
                    text.append(": ");
                }
                text.append(message.replaceAll("\\s*\\R\\s*", " "));
            }
        }
        return text.length() == 0 ? e.getClass().getName() : text.toString();
    }
}
