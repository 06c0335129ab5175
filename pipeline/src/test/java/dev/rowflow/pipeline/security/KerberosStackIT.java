package dev.rowflow.pipeline.security;

import dev.rowflow.embedded.SecureEmbeddedStack;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.security.auth.login.LoginException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The secured embedded stack for real: a KDC (Kerby, through hadoop-minikdc), HBase with
 * Kerberos RPC and the AccessController, Kafka with a SASL_PLAINTEXT GSSAPI listener. A client
 * principal writes and reads a row and a record; the KDC issues tickets of the lifetime asked.
 * HBase's AccessController against a Kerberos-authenticated principal: a write without WRITE on
 * the table is refused at once (AccessDeniedException is a DoNotRetryIOException: no client
 * retries), through BufferedMutator (rowflow's path) as a RetriesExhaustedWithDetailsException
 * whose cause is the AccessDeniedException; the grant lets the same write through, the revoke
 * refuses it again. Runs in a failsafe execution of its own (Kerberos state is global to a JVM).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KerberosStackIT {
    private static final byte[] FAMILY = Bytes.toBytes("d");
    private static final byte[] QUALIFIER = Bytes.toBytes("q");
    private static SecureEmbeddedStack stack;

    @BeforeAll
    static void start() {
        stack = SecureEmbeddedStack.start(Duration.ofMinutes(30));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void shouldWriteAndReadARowAsAClientPrincipal() throws Exception {
        TableName table = TableName.valueOf("kerberos_rw");
        try (Admin admin = stack.hbase().connection().getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(table)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of("d")).build());
        }
        stack.grant("writer", table, Permission.Action.READ, Permission.Action.WRITE);

        byte[] row = Bytes.toBytes("row-1");
        byte[] value = Bytes.toBytes("written by writer@EXAMPLE.COM");
        try (Connection connection = stack.connectionAs("writer");
             Table t = connection.getTable(table)) {
            // The grant reaches the region server through ZooKeeper a moment after it returns.
            awaitPermitted(() -> t.put(new Put(row).addColumn(FAMILY, QUALIFIER, value)));
            assertThat(t.get(new Get(row)).getValue(FAMILY, QUALIFIER)).isEqualTo(value);
        }
        // What the superuser reads back is what the client wrote.
        try (Table t = stack.hbase().connection().getTable(table)) {
            assertThat(t.get(new Get(row)).getValue(FAMILY, QUALIFIER)).isEqualTo(value);
        }
    }

    @Test
    void shouldProduceAndConsumeARecordAsAClientPrincipal() throws Exception {
        Map<String, Object> client = stack.kafkaClientProperties("writer");
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic("kerberos-rw", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        Map<String, Object> producerProps = new HashMap<>(client);
        producerProps.put("acks", "all");
        try (KafkaProducer<String, String> producer =
                     new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>("kerberos-rw", "k", "over GSSAPI")).get(30, TimeUnit.SECONDS);
        }
        Map<String, Object> consumerProps = new HashMap<>(client);
        consumerProps.put("group.id", "kerberos-rw");
        consumerProps.put("auto.offset.reset", "earliest");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                     new KafkaConsumer<>(consumerProps, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of("kerberos-rw"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (values.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    values.add(record.value());
                }
            }
        }
        assertThat(values).containsExactly("over GSSAPI");
    }

    @Test
    void shouldRefuseAKafkaClientWhosePrincipalTheKdcDoesNotKnow() {
        // A keytab of a principal that is not (or no longer) in the KDC: another KDC's keytab would
        // do as well; here the keytab of 'writer' with the principal 'ghost' written in the JAAS line.
        Map<String, Object> client = new HashMap<>(stack.kafkaClientProperties("writer"));
        client.put("sasl.jaas.config", dev.rowflow.embedded.EmbeddedKdc.kafkaJaasConfig(stack.keytab("writer"),
                stack.principal("ghost")));
        // The JDK finds no key for ghost in the keytab: "Unable to obtain password from user".
        assertThatThrownBy(() -> org.apache.kafka.clients.admin.Admin.create(client).close())
                .isInstanceOf(KafkaException.class)
                .hasRootCauseInstanceOf(LoginException.class);
    }

    @Test
    void shouldIssueTicketsOfTheLifetimeAsked() throws Exception {
        Path keytab = stack.keytab("lifetime-check");
        Duration lifetime = stack.kdc().ticketLifetime("lifetime-check", keytab);
        assertThat(lifetime).isBetween(Duration.ofMinutes(29), Duration.ofMinutes(31));
    }

    /** Retries {@code write} while HBase refuses it for lack of permission, up to 30 s. */
    static void awaitPermitted(ThrowingRunnable write) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                write.run();
                return;
            } catch (Exception e) {
                if (!causedBy(e, AccessDeniedException.class) || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
            if (t instanceof org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException details) {
                for (Throwable cause : details.getCauses()) {
                    if (type.isInstance(cause)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void shouldRefuseAWriteWithoutPermissionAtOnceAndLetItThroughOnceGranted() throws Exception {
        TableName table = TableName.valueOf("kerberos_acl");
        try (Admin admin = stack.hbase().connection().getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(table)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of("d")).build());
        }
        Put put = new Put(Bytes.toBytes("row-1")).addColumn(FAMILY, QUALIFIER, Bytes.toBytes("v"));

        try (Connection connection = stack.connectionAs("nowrite")) {
            // BufferedMutator, as rowflow's sink writes: the refusal comes back at flush, not retried.
            long started = System.nanoTime();
            Throwable refused;
            try (BufferedMutator mutator = connection.getBufferedMutator(table)) {
                mutator.mutate(put);
                refused = catchThrowable(mutator::flush);
            }
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(refused).isInstanceOf(RetriesExhaustedWithDetailsException.class);
            RetriesExhaustedWithDetailsException details = (RetriesExhaustedWithDetailsException) refused;
            assertThat(details.getNumExceptions()).isEqualTo(1);
            assertThat(details.getCause(0)).isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("Insufficient permissions")
                    .hasMessageContaining("nowrite")
                    .hasMessageContaining("action=WRITE");
            // hbase.client.retries.number=5 with backoff would take many seconds had it been retried.
            assertThat(took).isLessThan(Duration.ofSeconds(10));

            // Table.put: the AccessDeniedException itself (or wrapping it), also without retries.
            try (Table t = connection.getTable(table)) {
                assertThat(causedBy(catchThrowable(() -> t.put(put)), AccessDeniedException.class))
                        .isTrue();
            }

            stack.grant("nowrite", table, Permission.Action.WRITE);
            awaitPermitted(() -> {
                try (BufferedMutator mutator = connection.getBufferedMutator(table)) {
                    mutator.mutate(put);
                    mutator.flush();
                }
            });
            try (Table t = stack.hbase().connection().getTable(table)) {
                assertThat(t.get(new Get(Bytes.toBytes("row-1"))).getValue(FAMILY, QUALIFIER))
                        .isEqualTo(Bytes.toBytes("v"));
            }

            stack.revoke("nowrite", table, Permission.Action.WRITE);
            awaitRefused(() -> {
                try (BufferedMutator mutator = connection.getBufferedMutator(table)) {
                    mutator.mutate(put);
                    mutator.flush();
                }
            });
        }
    }

    /** Repeats {@code write} until HBase refuses it for lack of permission (the revoke has arrived), up to 30 s. */
    private static void awaitRefused(ThrowingRunnable write) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            Throwable result = catchThrowable(write::run);
            if (result != null && causedBy(result, AccessDeniedException.class)) {
                return;
            }
            if (result != null || System.nanoTime() > deadline) {
                throw new AssertionError("the write was not refused after the revoke", result);
            }
            Thread.sleep(200);
        }
    }
}
