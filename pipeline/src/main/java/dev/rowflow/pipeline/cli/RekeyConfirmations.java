package dev.rowflow.pipeline.cli;

import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.KerberosLogin;
import dev.rowflow.sinks.rekey.RekeyCheckpoints;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;

/**
 * Waits until every member of the pipeline's consumer group confirmed it writes both tables of a
 * re-key (each stream thread's consumer, acknowledged in the re-key's checkpoints): only then does
 * the copy begin, so no row reaches the old table alone after the copy read its range. A group
 * with no member (the pipeline stopped) has nothing to wait for.
 */
final class RekeyConfirmations {
    private RekeyConfirmations() {
    }

    static void await(RowflowConfig config, RekeyCheckpoints checkpoints, Duration timeout, PrintWriter progress)
            throws IOException, InterruptedException {
        String group = config.getString(RowflowConfig.APPLICATION_ID_CONFIG);
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(KerberosLogin.kafkaClientProperties(config))) {
            while (true) {
                Set<String> members = new TreeSet<>();
                ConsumerGroupDescription description = admin.describeConsumerGroups(java.util.List.of(group))
                        .describedGroups().get(group).get();
                description.members().stream().map(MemberDescription::clientId).forEach(members::add);
                members.removeAll(checkpoints.acks());
                if (members.isEmpty()) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("the consumers " + members + " of group " + group + " did not confirm within "
                            + timeout.toSeconds() + " s that they write both tables (a rowflow older than this one? "
                            + "restart it, or raise --confirm-seconds)");
                }
                progress.printf("waiting for %d consumers of group %s to write both tables%n", members.size(), group);
                progress.flush();
                Thread.sleep(1000);
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException) {
                return;
            }
            throw new IOException("cannot describe consumer group " + group + ": " + e.getCause().getMessage(), e.getCause());
        }
    }
}
