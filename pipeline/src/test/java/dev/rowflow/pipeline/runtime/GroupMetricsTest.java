package dev.rowflow.pipeline.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class GroupMetricsTest {
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final GroupMetrics metrics = new GroupMetrics(List::of, registry);

    @Test
    void shouldCountRebalancesAndTimeEachUntilRunning() {
        metrics.onStateChange(State.REBALANCING, State.CREATED);
        metrics.onStateChange(State.RUNNING, State.REBALANCING);
        metrics.onStateChange(State.REBALANCING, State.RUNNING);

        assertThat(registry.get("rowflow.streams.rebalances").counter().count()).isEqualTo(2);
        // The second one has not ended yet.
        assertThat(registry.get("rowflow.streams.rebalancing").timer().count()).isEqualTo(1);
        assertThat(registry.get("rowflow.streams.tasks").tag("kind", "active").gauge().value()).isZero();
    }

    @Test
    void shouldTrackWhatTheStoresBeingRestoredStillHaveToRead() {
        TopicPartition customers = new TopicPartition("app-customers-changelog", 0);
        TopicPartition waiting = new TopicPartition("app-waiting-orders-changelog", 0);

        metrics.onRestoreStart(customers, "customers", 100, 200);
        metrics.onRestoreStart(waiting, "waiting-orders", 0, 30);
        metrics.onBatchRestored(customers, "customers", 140, 40);
        assertThat(remaining()).isEqualTo(60 + 30);
        assertThat(registry.get("rowflow.streams.restored.records").counter().count()).isEqualTo(40);

        // The customers' task moves away before its store is restored here; the other ends.
        metrics.onRestoreSuspended(customers, "customers", 40);
        assertThat(remaining()).isEqualTo(30);
        metrics.onBatchRestored(waiting, "waiting-orders", 30, 30);
        metrics.onRestoreEnd(waiting, "waiting-orders", 30);
        assertThat(remaining()).isZero();
        assertThat(registry.get("rowflow.streams.restored.records").counter().count()).isEqualTo(70);
    }

    private double remaining() {
        return registry.get("rowflow.streams.restore.remaining.records").gauge().value();
    }
}
