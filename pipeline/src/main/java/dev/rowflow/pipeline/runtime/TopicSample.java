package dev.rowflow.pipeline.runtime;

import dev.rowflow.pipeline.config.RowflowConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reads a sample of a topic without a consumer group (nothing committed, no offsets of the
 * pipeline's group touched): for {@code rowflow mapping check|suggest} and for the split points
 * of a table created from the records of its input ({@code tables create --sample-topic}, a first
 * start).
 */
public final class TopicSample {
    /** Where in each partition sampling starts. */
    public enum From {
        /** The first records of every partition. */
        start,
        /** The last records of each partition, an equal share of the sample each. */
        end
    }

    private TopicSample() {
    }

    /**
     * Reads at most {@code sample} records of {@code topic} from the start of every partition (or
     * its last {@code sample / partitions} records), for at most {@code timeout}, and gives each to
     * {@code each}.
     *
     * @return the topic's partitions, empty if the topic does not exist
     */
    public static Optional<Integer> read(RowflowConfig config, String topic, int sample, From from, Duration timeout,
                                         Consumer<ConsumerRecord<byte[], byte[]>> each) {
        Map<String, Object> props = config.kafkaProperties();
        // A GSSAPI login checked as `run` checks it, _HOST in its principal expanded.
        KerberosLogin.checkKafka(props).ifPresent(jaas -> props.put(SaslConfigs.SASL_JAAS_CONFIG, jaas));
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Math.max(1, Math.min(sample, 5000)));
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<PartitionInfo> partitions = Optional.ofNullable(consumer.partitionsFor(topic)).orElse(List.of());
            if (partitions.isEmpty()) {
                return Optional.empty();
            }
            List<TopicPartition> assigned = new ArrayList<>();
            partitions.forEach(p -> assigned.add(new TopicPartition(topic, p.partition())));
            consumer.assign(assigned);
            Map<TopicPartition, Long> end = consumer.endOffsets(assigned);
            if (from == From.end) {
                Map<TopicPartition, Long> beginning = consumer.beginningOffsets(assigned);
                long share = (sample + assigned.size() - 1) / assigned.size();
                assigned.forEach(p -> consumer.seek(p, Math.max(beginning.get(p), end.get(p) - share)));
            } else {
                consumer.seekToBeginning(assigned);
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            int read = 0;
            while (read < sample && System.nanoTime() < deadline && !atEnd(consumer, assigned, end)) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (read++ >= sample) {
                        break;
                    }
                    each.accept(record);
                }
            }
            return Optional.of(partitions.size());
        }
    }

    private static boolean atEnd(KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions,
                                 Map<TopicPartition, Long> end) {
        for (TopicPartition partition : partitions) {
            if (consumer.position(partition) < end.get(partition)) {
                return false;
            }
        }
        return true;
    }
}
