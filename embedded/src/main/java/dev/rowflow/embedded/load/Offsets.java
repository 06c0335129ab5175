package dev.rowflow.embedded.load;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
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
}
