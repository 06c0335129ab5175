package dev.rowflow.pipeline.topology;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The offsets a replay reads: per partition from its start (inclusive) to its end (exclusive).
 * The main consumers of a replay hand Kafka Streams only the records in the range ({@link #bound}):
 * a record before a partition's start or at or past its end, or of a partition not in the range (a
 * topic a pattern matched since), is never deserialized, written or set aside. The range is done when every
 * partition's records were handed over and their offsets committed -- after the sinks' flush.
 */
public final class ReplayRange {
    private final Map<TopicPartition, Long> start;
    private final Map<TopicPartition, Long> end;
    /** The next offset each partition's consumer will hand over (its position as far as the range goes). */
    private final Map<TopicPartition, Long> handedUpTo = new ConcurrentHashMap<>();
    /** The offset of the last record of the range each partition's consumer handed over. */
    private final Map<TopicPartition, Long> lastRecord = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Long> committed = new ConcurrentHashMap<>();
    private final LongAdder records = new LongAdder();

    /** {@code start} and {@code end} offsets by partition, {@code start <= end} for each. */
    public ReplayRange(Map<TopicPartition, Long> start, Map<TopicPartition, Long> end) {
        if (!start.keySet().equals(end.keySet())) {
            throw new IllegalArgumentException("start and end of different partitions: " + start.keySet() + ", " + end.keySet());
        }
        start.forEach((partition, offset) -> {
            if (offset > end.get(partition)) {
                throw new IllegalArgumentException(partition + " starts at " + offset + " after its end " + end.get(partition));
            }
        });
        this.start = Map.copyOf(start);
        this.end = Map.copyOf(end);
    }

    public Map<TopicPartition, Long> start() {
        return start;
    }

    public Map<TopicPartition, Long> end() {
        return end;
    }

    /** Offsets in the range: the records it holds, unless compaction or transaction markers left gaps. */
    public long offsets() {
        return end.entrySet().stream().mapToLong(e -> e.getValue() - start.get(e.getKey())).sum();
    }

    /** Records handed to Kafka Streams so far. */
    public long records() {
        return records.sum();
    }

    /** Whether every record of the range was handed over and committed. */
    public boolean done() {
        for (Map.Entry<TopicPartition, Long> partition : end.entrySet()) {
            long from = start.get(partition.getKey());
            if (from == partition.getValue()) {
                continue;
            }
            long handed = handedUpTo.getOrDefault(partition.getKey(), from);
            long commit = committed.getOrDefault(partition.getKey(), from);
            if (handed < partition.getValue() || commit < lastHanded(partition.getKey()) + 1) {
                return false;
            }
        }
        return true;
    }

    private long lastHanded(TopicPartition partition) {
        return lastRecord.getOrDefault(partition, start.get(partition) - 1);
    }

    /** The records of {@code polled} in the range, with the next offsets capped at the range's end. */
    ConsumerRecords<byte[], byte[]> bound(ConsumerRecords<byte[], byte[]> polled) {
        Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> kept = new HashMap<>();
        for (TopicPartition partition : polled.partitions()) {
            Long until = end.get(partition);
            if (until == null) {
                continue;
            }
            long from = start.get(partition);
            List<ConsumerRecord<byte[], byte[]>> inRange = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> record : polled.records(partition)) {
                if (record.offset() >= from && record.offset() < until) {
                    inRange.add(record);
                }
            }
            if (!inRange.isEmpty()) {
                kept.put(partition, inRange);
                records.add(inRange.size());
                lastRecord.merge(partition, inRange.get(inRange.size() - 1).offset(), Math::max);
            }
        }
        Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
        polled.nextOffsets().forEach((partition, offset) -> {
            Long until = end.get(partition);
            if (until != null) {
                long capped = Math.min(offset.offset(), until);
                next.put(partition, capped == offset.offset() ? offset
                        : new OffsetAndMetadata(capped, offset.leaderEpoch(), offset.metadata()));
                handedUpTo.merge(partition, capped, Math::max);
            }
        });
        return new ConsumerRecords<>(kept, next);
    }

    /** Notes offsets a main consumer committed. */
    void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
        offsets.forEach((partition, offset) -> committed.merge(partition, offset.offset(), Math::max));
    }
}
