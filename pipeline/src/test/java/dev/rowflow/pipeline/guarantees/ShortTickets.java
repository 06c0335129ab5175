package dev.rowflow.pipeline.guarantees;

import dev.rowflow.embedded.SecureEmbeddedStack;
import dev.rowflow.embedded.load.Offsets;
import org.apache.hadoop.hbase.security.access.AccessControlClient;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The secured stack of the Kerberos login tests ({@link KerberosReloginIT}, {@link KerberosOutageIT}):
 * tickets that live 30 s, a broker that makes every client authenticate again every 10 s, user
 * rowflow allowed to create, read and write tables, and rowflow configured to renew its logins as
 * often as Kerberos lets it. A JUnit extension: a test class asks for the stack as a parameter of
 * its {@code @BeforeAll}, and it is closed when the class is done (Kerberos state is global to a
 * JVM: one secured class per JVM).
 */
final class ShortTickets implements ParameterResolver {
    static final Duration TICKET_LIFETIME = Duration.ofSeconds(30);
    static final Duration REAUTHENTICATION = Duration.ofSeconds(10);
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ShortTickets.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == SecureEmbeddedStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getStore(NAMESPACE).getOrComputeIfAbsent(Stack.class, key -> new Stack(start()), Stack.class)
                .stack;
    }

    private static SecureEmbeddedStack start() {
        try {
            SecureEmbeddedStack stack = SecureEmbeddedStack.start(TICKET_LIFETIME, REAUTHENTICATION);
            AccessControlClient.grant(stack.hbase().connection(), "default", "rowflow", Permission.Action.CREATE,
                    Permission.Action.READ, Permission.Action.WRITE);
            return stack;
        } catch (Throwable e) {
            throw new IllegalStateException("the secured stack with short tickets did not start", e);
        }
    }

    private record Stack(SecureEmbeddedStack stack) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            stack.close();
        }
    }

    /** The test's own Kafka clients: a principal of their own, renewing as rowflow does. */
    static Map<String, Object> testClient(SecureEmbeddedStack stack) {
        Map<String, Object> client = new LinkedHashMap<>(stack.kafkaClientProperties("producer"));
        // Kafka's login thread renews no sooner than this after a login (60 s by default, longer than a
        // ticket here: its refresh thread would exit at once).
        client.put("sasl.kerberos.min.time.before.relogin", "5000");
        return client;
    }

    /** rowflow's configuration for {@code user} rowflow, with renewals as often as Kerberos lets them. */
    static Path writeConfig(SecureEmbeddedStack stack, Path dir, String topic, String applicationId, String tablePrefix)
            throws Exception {
        Map<String, String> props = new LinkedHashMap<>(stack.rowflowProperties("rowflow"));
        props.put("kafka.state.dir", dir.resolve("state").toString());
        props.put("application.id", applicationId);
        props.put("topic.logs", topic);
        props.put("table.log.data", tablePrefix + "_data");
        props.put("table.log.index", tablePrefix + "_index");
        props.put("table.log.summary", tablePrefix + "_summary");
        props.put("kafka.commit.interval.ms", "1000");
        props.put("kafka.sasl.kerberos.min.time.before.relogin", "5000");
        // Hadoop's relogin waits at least this long after the last one (60 s by default).
        props.put("hadoop.kerberos.min.seconds.before.relogin", "5");
        // Idle HBase connections close after 5 s: each burst opens new ones, which authenticate.
        props.put("hbase.ipc.client.connection.minIdleTimeBeforeClose", "5000");
        Path config = dir.resolve("rowflow.properties");
        Files.writeString(config, props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")));
        return config;
    }

    static void awaitCommitted(Admin admin, RowflowProcess rowflow, String group, String topic,
                                       long expected, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (Offsets.committed(admin, group, topic) < expected && System.nanoTime() < deadline) {
            assertThat(rowflow.isAlive()).as("rowflow alive; its log:%n%s", rowflow.logTail()).isTrue();
            Thread.sleep(200);
        }
        assertThat(Offsets.committed(admin, group, topic))
                .as("committed; rowflow's log:%n%s", rowflow.logTail()).isEqualTo(expected);
    }
}
