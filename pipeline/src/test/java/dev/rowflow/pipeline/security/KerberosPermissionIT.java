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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * HBase's AccessController against a Kerberos-authenticated principal: a write without WRITE on
 * the table is refused at once (AccessDeniedException is a DoNotRetryIOException: no client
 * retries), through BufferedMutator (rowflow's path) as a RetriesExhaustedWithDetailsException
 * whose cause is the AccessDeniedException; the grant lets the same write through, the revoke
 * refuses it again.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KerberosPermissionIT {
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
                assertThat(KerberosStackIT.causedBy(catchThrowable(() -> t.put(put)), AccessDeniedException.class))
                        .isTrue();
            }

            stack.grant("nowrite", table, Permission.Action.WRITE);
            KerberosStackIT.awaitPermitted(() -> {
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
    private static void awaitRefused(KerberosStackIT.ThrowingRunnable write) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            Throwable result = catchThrowable(write::run);
            if (result != null && KerberosStackIT.causedBy(result, AccessDeniedException.class)) {
                return;
            }
            if (result != null || System.nanoTime() > deadline) {
                throw new AssertionError("the write was not refused after the revoke", result);
            }
            Thread.sleep(200);
        }
    }
}
