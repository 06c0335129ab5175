package dev.rowflow.pipeline.runtime;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Topic creation and readiness, shared by the pipeline, the load generator and the tests. */
public final class KafkaTopics {
    private KafkaTopics() {
    }

    /**
     * Creates {@code topic} unless it exists, then waits until every partition has a leader.
     *
     * @param partitions partitions of a new topic, or empty for the broker's default
     */
    public static void createIfAbsent(Admin admin, String topic, Optional<Integer> partitions, Duration timeout)
            throws InterruptedException {
        createIfAbsent(admin, topic, partitions, Map.of(), timeout);
    }

    /** As {@link #createIfAbsent(Admin, String, Optional, Duration)}, a new topic with {@code configs}. */
    public static void createIfAbsent(Admin admin, String topic, Optional<Integer> partitions,
                                      Map<String, String> configs, Duration timeout) throws InterruptedException {
        try {
            admin.createTopics(Set.of(new NewTopic(topic, partitions, Optional.empty()).configs(configs))).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create topic " + topic + ": " + e.getCause().getMessage(),
                        e.getCause());
            }
        }
        awaitLeaders(admin, topic, timeout);
    }

    /**
     * The largest record batch {@code topic} accepts ({@code max.message.bytes}, the topic's own or
     * the broker's default), or empty if it does not exist.
     */
    public static java.util.OptionalInt maxMessageBytes(Admin admin, String topic) throws InterruptedException {
        org.apache.kafka.common.config.ConfigResource resource = new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.TOPIC, topic);
        try {
            org.apache.kafka.clients.admin.ConfigEntry entry = admin.describeConfigs(Set.of(resource)).all().get()
                    .get(resource).get(org.apache.kafka.common.config.TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            return entry == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(Integer.parseInt(entry.value()));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException) {
                return java.util.OptionalInt.empty();
            }
            throw new IllegalStateException("cannot describe topic " + topic + ": " + e.getCause().getMessage(),
                    e.getCause());
        }
    }

    /** The number of partitions of {@code topic}, or empty if it does not exist. */
    public static Optional<Integer> partitions(Admin admin, String topic) throws InterruptedException {
        try {
            return Optional.of(admin.describeTopics(Set.of(topic)).allTopicNames().get().get(topic).partitions().size());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw new IllegalStateException("cannot describe topic " + topic + ": " + e.getCause().getMessage(),
                    e.getCause());
        }
    }

    /**
     * Waits until every partition of {@code topic} answers a list-offsets request, i.e. has a
     * leader. A producer that starts earlier can lose records (NOT_LEADER, then
     * OUT_OF_ORDER_SEQUENCE until its delivery timeout: KAFKA-15591).
     */
    public static void awaitLeaders(Admin admin, String topic, Duration timeout) throws InterruptedException {
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

    /** The end offset of every partition of {@code topic}. */
    public static Map<TopicPartition, Long> endOffsets(Admin admin, String topic)
            throws InterruptedException, ExecutionException {
        TopicDescription description = admin.describeTopics(Set.of(topic)).allTopicNames().get().get(topic);
        Map<TopicPartition, OffsetSpec> latest = description.partitions().stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .collect(Collectors.toMap(Function.identity(), p -> OffsetSpec.latest()));
        return admin.listOffsets(latest).all().get().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }
}
