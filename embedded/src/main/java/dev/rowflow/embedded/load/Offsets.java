package dev.rowflow.embedded.load;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What tests and the demo ask of a topic while rowflow runs: how far a consumer group has
 * committed. With rowflow's flush-before-commit, a committed record's rows are in the store.
 */
public final class Offsets {
    private Offsets() {
    }

    /**
     * How many records of {@code topic} the consumer group {@code groupId} has committed: the
     * records produced so far less those not committed yet.
     */
    public static long committed(Admin admin, String groupId, String topic)
            throws InterruptedException, ExecutionException {
        long produced = endOffsets(admin, topic).values().stream().mapToLong(Long::longValue).sum();
        return produced - uncommitted(admin, groupId, topic);
    }

    /**
     * How many records of {@code topic} the consumer group {@code groupId} has not committed yet.
     * With rowflow's flush-before-commit, 0 means every record's rows are in the store.
     */
    public static long uncommitted(Admin admin, String groupId, String topic)
            throws InterruptedException, ExecutionException {
        Map<TopicPartition, Long> end = endOffsets(admin, topic);
        var committed = admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata().get();
        long lag = 0;
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            var offset = committed.get(e.getKey());
            lag += e.getValue() - (offset == null ? 0 : offset.offset());
        }
        return lag;
    }

    /** The records written to {@code topic}: the sum of its partitions' end offsets (nothing deleted). */
    public static long written(Admin admin, String topic) throws InterruptedException, ExecutionException {
        return endOffsets(admin, topic).values().stream().mapToLong(Long::longValue).sum();
    }

    /** The end offset of every partition of {@code topic}. */
    static Map<TopicPartition, Long> endOffsets(Admin admin, String topic)
            throws InterruptedException, ExecutionException {
        TopicDescription description = admin.describeTopics(Set.of(topic)).allTopicNames().get().get(topic);
        Map<TopicPartition, OffsetSpec> latest = description.partitions().stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .collect(Collectors.toMap(Function.identity(), p -> OffsetSpec.latest()));
        return admin.listOffsets(latest).all().get().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    /**
     * Waits until every partition of {@code topic} answers a list-offsets request, i.e. has a
     * leader: a producer that starts earlier can lose records (KAFKA-15591).
     */
    static void awaitLeaders(Admin admin, String topic, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            try {
                endOffsets(admin, topic);
                return;
            } catch (ExecutionException e) {
                last = e;
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("partitions of topic " + topic + " have no leader after " + timeout, last);
    }

    /** What a wait for commits checks at every poll, e.g. that the process lives, that committed rows are in the store. */
    @FunctionalInterface
    public interface Poll {
        /** @param committed records of the topics the group has committed so far */
        void check(long committed) throws Exception;
    }

    /**
     * Waits until the consumer group {@code groupId} has committed {@code target} records of
     * {@code topics} (every record they hold where {@code target} is negative), running
     * {@code check} at every poll; a topic that does not exist yet (a repartition topic Kafka
     * Streams has not created) counts as not committed. The one wait tests and the demo use.
     *
     * @return the records committed at the end, which the caller asserts on: less than the target
     *         when {@code timeout} ran out
     */
    public static long awaitCommitted(Admin admin, String groupId, List<String> topics, long target, Duration timeout,
                                      Poll check) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long committed = 0;
            long uncommitted = 0;
            for (String topic : topics) {
                if (!admin.listTopics().names().get().contains(topic)) {
                    uncommitted++;
                    continue;
                }
                long lag = uncommitted(admin, groupId, topic);
                uncommitted += lag;
                committed += endOffsets(admin, topic).values().stream().mapToLong(Long::longValue).sum() - lag;
            }
            check.check(committed);
            boolean done = target < 0 ? uncommitted == 0 : committed >= target;
            if (done || System.nanoTime() > deadline) {
                return committed;
            }
            Thread.sleep(200);
        }
    }

    /**
     * Waits until the consumer group {@code groupId} has committed every record of {@code topics}
     * and of the internal topics its Kafka Streams application reads (repartition topics, a
     * foreign-key join's subscription topics; at least {@code internal} of them, once created).
     * The topics are checked in the order records flow through them -- sources, repartition,
     * subscription registration, subscription response -- so when each is committed in turn, no
     * record is on its way between them.
     *
     * @return whether all were committed before {@code timeout} ran out
     */
    public static boolean awaitCommittedThroughInternalTopics(Admin admin, String groupId, List<String> topics,
                                                              int internal, Duration timeout, Poll check)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<String> internalTopics = admin.listTopics().names().get().stream()
                    .filter(topic -> topic.startsWith(groupId + "-") && flowRank(topic) >= 0)
                    .sorted(java.util.Comparator.comparingInt(Offsets::flowRank)).toList();
            long lag = 0;
            for (String topic : topics) {
                lag += admin.listTopics().names().get().contains(topic) ? uncommitted(admin, groupId, topic) : 1;
            }
            for (String topic : internalTopics) {
                lag += uncommitted(admin, groupId, topic);
            }
            check.check(-1);
            if (lag == 0 && internalTopics.size() >= internal) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(200);
        }
    }

    /** Where records pass an internal topic in a join: repartition 0, registration 1, response 2; -1 for others. */
    private static int flowRank(String topic) {
        return topic.endsWith("-repartition") ? 0 : topic.endsWith("-subscription-registration-topic") ? 1
                : topic.endsWith("-subscription-response-topic") ? 2 : -1;
    }
}
