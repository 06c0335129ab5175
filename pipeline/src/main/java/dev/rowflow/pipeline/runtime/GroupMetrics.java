package dev.rowflow.pipeline.runtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.processor.StateRestoreListener;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What an instance's share of the consumer group does, for scaling out and rolling restarts:
 * <ul>
 *   <li>{@code rowflow.streams.rebalances}: times this instance entered REBALANCING (joining at
 *       start-up included), and {@code rowflow.streams.rebalancing}: how long each rebalance
 *       lasted until RUNNING again. With cooperative rebalancing the tasks that stay keep
 *       processing meanwhile; the tasks that move pause for that long at most.</li>
 *   <li>{@code rowflow.streams.tasks{kind=active|standby}}: the tasks this instance holds now. An
 *       instance with no active task does no work (more instances than partitions x threads).</li>
 *   <li>{@code rowflow.streams.restore.remaining.records}: changelog records the state stores
 *       being restored here (the orders' customers and waiting orders) still have to read, and
 *       {@code rowflow.streams.restored.records}: records restored so far. A task restoring its
 *       stores processes nothing until it is done.</li>
 * </ul>
 * Bind it before {@link KafkaStreams#start()}: it is the streams' state listener's counterpart
 * ({@link #onStateChange}) and their global restore listener.
 */
final class GroupMetrics implements StateRestoreListener {
    private final Counter rebalances;
    private final Timer rebalancing;
    private final Counter restored;
    /** Records left per store partition being restored; removed when it ends or moves away. */
    private final Map<String, Long> remaining = new ConcurrentHashMap<>();
    private volatile long rebalanceStartedNanos;

    GroupMetrics(KafkaStreams streams, MeterRegistry registry) {
        this(streams::metadataForLocalThreads, registry);
    }

    /** @param threads the instance's stream threads now ({@link KafkaStreams#metadataForLocalThreads}) */
    GroupMetrics(java.util.function.Supplier<? extends java.util.Collection<ThreadMetadata>> threads,
                 MeterRegistry registry) {
        rebalances = Counter.builder("rowflow.streams.rebalances")
                .description("Times this instance entered REBALANCING (joining the group at start-up included)")
                .register(registry);
        rebalancing = Timer.builder("rowflow.streams.rebalancing")
                .description("Time from entering REBALANCING to RUNNING again; the tasks that move pause this long at most")
                .register(registry);
        restored = Counter.builder("rowflow.streams.restored.records")
                .description("Changelog records restored into this instance's state stores")
                .register(registry);
        Gauge.builder("rowflow.streams.restore.remaining.records", remaining,
                        r -> r.values().stream().mapToLong(Long::longValue).sum())
                .description("Changelog records the state stores being restored here still have to read")
                .register(registry);
        for (String kind : new String[] {"active", "standby"}) {
            boolean active = kind.equals("active");
            Gauge.builder("rowflow.streams.tasks", threads, t -> tasks(t.get(), active))
                    .description("Tasks this instance holds (active: processing a partition of each input; "
                            + "standby: keeping a copy of an active task's state stores)")
                    .tag("kind", kind).register(registry);
        }
    }

    private static int tasks(java.util.Collection<ThreadMetadata> threads, boolean active) {
        int tasks = 0;
        for (ThreadMetadata thread : threads) {
            tasks += active ? thread.activeTasks().size() : thread.standbyTasks().size();
        }
        return tasks;
    }

    /** To be called from the streams' state listener. */
    void onStateChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
        if (newState == KafkaStreams.State.REBALANCING && oldState != KafkaStreams.State.REBALANCING) {
            rebalances.increment();
            rebalanceStartedNanos = System.nanoTime();
        } else if (newState == KafkaStreams.State.RUNNING && oldState == KafkaStreams.State.REBALANCING) {
            rebalancing.record(Duration.ofNanos(System.nanoTime() - rebalanceStartedNanos));
        }
    }

    @Override
    public void onRestoreStart(TopicPartition partition, String store, long startingOffset, long endingOffset) {
        remaining.put(store + " " + partition, Math.max(0, endingOffset - startingOffset));
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long numRestored) {
        restored.increment(numRestored);
        remaining.computeIfPresent(store + " " + partition, (key, left) -> Math.max(0, left - numRestored));
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
        remaining.remove(store + " " + partition);
    }

    @Override
    public void onRestoreSuspended(TopicPartition partition, String store, long totalRestored) {
        // The task moved to another instance before its stores were restored here.
        remaining.remove(store + " " + partition);
    }
}
