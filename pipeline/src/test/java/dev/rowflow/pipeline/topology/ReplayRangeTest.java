package dev.rowflow.pipeline.topology;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplayRangeTest {
    private static final TopicPartition P0 = new TopicPartition("clicks", 0);
    private static final TopicPartition P1 = new TopicPartition("clicks", 1);
    private static final TopicPartition EMPTY = new TopicPartition("clicks", 2);
    private static final TopicPartition NEW = new TopicPartition("clicks-new", 0);

    @Test
    void shouldHandOverOnlyTheRecordsOfTheRangeAndBeDoneWhenTheyAreCommitted() {
        ReplayRange range = new ReplayRange(Map.of(P0, 10L, P1, 0L, EMPTY, 7L), Map.of(P0, 20L, P1, 5L, EMPTY, 7L));
        assertThat(range.offsets()).isEqualTo(15);
        assertThat(range.done()).isFalse();

        // The consumer reads P0 from its start, P1 from an earlier offset, and a partition not in the range.
        ConsumerRecords<byte[], byte[]> first = range.bound(polled(Map.of(P0, LongStream.range(10, 16),
                P1, LongStream.range(0, 8), NEW, LongStream.range(0, 3))));
        assertThat(first.records(P0)).extracting(ConsumerRecord::offset).containsExactly(10L, 11L, 12L, 13L, 14L, 15L);
        assertThat(first.records(P1)).extracting(ConsumerRecord::offset).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(first.records(NEW)).isEmpty();
        assertThat(first.nextOffsets()).containsEntry(P0, new OffsetAndMetadata(16, Optional.empty(), ""))
                .containsEntry(P1, new OffsetAndMetadata(5, Optional.empty(), "")).doesNotContainKey(NEW);
        assertThat(range.records()).isEqualTo(11);

        range.committed(Map.of(P0, new OffsetAndMetadata(16), P1, new OffsetAndMetadata(5)));
        assertThat(range.done()).as("P0 not read to its end").isFalse();
        ConsumerRecords<byte[], byte[]> second = range.bound(polled(Map.of(P0, LongStream.range(16, 25))));
        assertThat(second.records(P0)).extracting(ConsumerRecord::offset).containsExactly(16L, 17L, 18L, 19L);
        assertThat(range.done()).as("handed over, not committed").isFalse();
        range.committed(Map.of(P0, new OffsetAndMetadata(20)));
        assertThat(range.done()).isTrue();
        assertThat(range.records()).isEqualTo(15);
    }

    @Test
    void shouldRefuseARangeThatEndsBeforeItStarts() {
        assertThatThrownBy(() -> new ReplayRange(Map.of(P0, 5L), Map.of(P0, 4L))).hasMessageContaining("clicks-0 starts at 5");
        assertThatThrownBy(() -> new ReplayRange(Map.of(P0, 5L), Map.of(P1, 6L))).hasMessageContaining("different partitions");
    }

    private static ConsumerRecords<byte[], byte[]> polled(Map<TopicPartition, LongStream> offsets) {
        Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> records = new java.util.HashMap<>();
        Map<TopicPartition, OffsetAndMetadata> next = new java.util.HashMap<>();
        offsets.forEach((partition, range) -> {
            List<ConsumerRecord<byte[], byte[]>> list = range.mapToObj(offset -> new ConsumerRecord<byte[], byte[]>(
                    partition.topic(), partition.partition(), offset, null, new byte[]{1})).toList();
            records.put(partition, list);
            next.put(partition, new OffsetAndMetadata(list.get(list.size() - 1).offset() + 1, Optional.empty(), ""));
        });
        return new ConsumerRecords<>(records, next);
    }
}
