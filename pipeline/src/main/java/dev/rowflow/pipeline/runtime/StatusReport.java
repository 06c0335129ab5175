package dev.rowflow.pipeline.runtime;

import dev.rowflow.pipeline.RowflowBuild;
import dev.rowflow.pipeline.ingest.Ingest;
import dev.rowflow.pipeline.ingest.IngestTable;
import dev.rowflow.pipeline.ingest.PatternInput;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.pipeline.ingest.Source;
import dev.rowflow.pipeline.topology.StatusEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Builds an instance's {@link InstanceStatus} from what it already keeps: the plan's inputs, the
 * stream threads' partitions and their consumers' metrics (lag, records consumed), rowflow's meters
 * (rows acknowledged, dead letters, registry waits) and the {@link StatusEvents}. Nothing is
 * counted twice for it: {@code /status} reads the numbers {@code /metrics} exports.
 */
final class StatusReport {
    private static final String FETCH_GROUP = "consumer-fetch-manager-metrics";

    /** What an input reads and writes, to pick its partitions, metrics and events. */
    record InputView(String name, List<String> declaredTopics, Predicate<String> readsTopic,
                     Set<String> deadLetterTopics, Predicate<String> writesTable) {
    }

    /**
     * What the stream threads hold and what their main consumers measured, by topic as the metrics
     * tag it ({@link #metricTopic}).
     */
    record Consumers(Map<TopicPartition, String> threadOfPartition, Map<TopicPartition, Double> lag,
                     Map<String, Double> consumedByTopic, Set<String> threads) {
    }

    private StatusReport() {
    }

    static InstanceStatus of(PipelinePlan plan, KafkaStreams streams, MeterRegistry registry, StatusEvents events,
                             boolean ready, boolean hbaseReachable) {
        KafkaStreams.State state = streams.state();
        Consumers consumers = consumers(streams);
        List<InstanceStatus.Input> inputs = new ArrayList<>();
        for (Ingest ingest : plan.ingests()) {
            inputs.add(input(view(ingest), state, consumers, registry, events));
        }
        Instant lastCommit = consumers.threads().stream().map(events::lastCommit).flatMap(Optional::stream)
                .max(Comparator.naturalOrder()).orElse(null);
        return new InstanceStatus(plan.config().getString(dev.rowflow.pipeline.config.RowflowConfig.APPLICATION_ID_CONFIG),
                RowflowBuild.version(), state.name(), ready, hbaseReachable, lastCommit,
                events.lastFailure().orElse(null), inputs);
    }

    static InputView view(Ingest ingest) {
        if (ingest instanceof PatternInput pattern) {
            return new InputView(ingest.name(), List.of(), topic -> pattern.subscribed().matcher(topic).matches(),
                    Set.of(pattern.deadLetterTopic()), table -> pattern.topics().tables().matcher(table).matches());
        }
        List<String> topics = ingest.sources().stream().map(Source::topic).distinct().toList();
        Set<String> deadLetters = new LinkedHashSet<>();
        ingest.sources().forEach(source -> deadLetters.add(source.deadLetterTopic()));
        Set<String> tables = new java.util.HashSet<>();
        for (IngestTable table : ingest.tables()) {
            tables.add(table.definition().name().getNameAsString());
        }
        return new InputView(ingest.name(), topics, topics::contains, deadLetters, tables::contains);
    }

    /** One input's status from the instance's state, its consumers, meters and events. */
    static InstanceStatus.Input input(InputView view, KafkaStreams.State state, Consumers consumers,
                                      MeterRegistry registry, StatusEvents events) {
        Set<String> topics = new LinkedHashSet<>(view.declaredTopics());
        List<TopicPartition> here = new ArrayList<>();
        consumers.threadOfPartition().keySet().stream().filter(p -> view.readsTopic().test(p.topic()))
                .sorted(Comparator.comparing(TopicPartition::topic).thenComparing(TopicPartition::partition))
                .forEach(p -> {
                    here.add(p);
                    topics.add(p.topic());
                });
        Long lag = null;
        for (TopicPartition partition : here) {
            Double behind = consumers.lag().get(new TopicPartition(metricTopic(partition.topic()), partition.partition()));
            if (behind != null && !behind.isNaN()) {
                lag = (lag == null ? 0 : lag) + behind.longValue();
            }
        }
        long recordsIn = topics.stream().map(topic -> consumers.consumedByTopic().get(metricTopic(topic)))
                .filter(java.util.Objects::nonNull).mapToLong(Double::longValue).sum();
        long rowsOut = (long) registry.find("rowflow.sink.sent.rows").counters().stream()
                .filter(c -> view.writesTable().test(c.getId().getTag("table"))).mapToDouble(Counter::count).sum();
        long deadLetters = (long) registry.find("rowflow.dead.letters").counters().stream()
                .filter(c -> view.deadLetterTopics().contains(c.getId().getTag("topic"))).mapToDouble(Counter::count).sum();
        StatusEvents.DeadLetter lastError = events.lastDeadLetter(view.readsTopic()).orElse(null);
        Instant lastCommit = null;
        Set<String> threads = new LinkedHashSet<>();
        here.forEach(p -> threads.add(consumers.threadOfPartition().get(p)));
        for (String thread : threads) {
            Optional<Instant> committed = events.lastCommit(thread);
            if (committed.isEmpty()) {
                lastCommit = null;
                break;
            }
            lastCommit = lastCommit == null || committed.get().isBefore(lastCommit) ? committed.get() : lastCommit;
        }
        Gauge waiting = registry.find("rowflow.registry.waiting.threads").tag("input", view.name()).gauge();
        String inputState = state != KafkaStreams.State.RUNNING ? state.name()
                : waiting != null && waiting.value() > 0 ? "WAITING_FOR_REGISTRY"
                : here.isEmpty() ? "IDLE" : "RUNNING";
        return new InstanceStatus.Input(view.name(), List.copyOf(topics), inputState, here.size(), lag, recordsIn,
                rowsOut, deadLetters, lastError, lastCommit);
    }

    /** A topic as the consumers' metrics tag it: Kafka writes its dots as underscores there. */
    static String metricTopic(String topic) {
        return topic.replace('.', '_');
    }

    /** The active partitions of each local stream thread, and its main consumer's lag and records read. */
    static Consumers consumers(KafkaStreams streams) {
        Map<TopicPartition, String> threadOf = new HashMap<>();
        Set<String> threads = new LinkedHashSet<>();
        for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
            threads.add(thread.threadName());
            for (TaskMetadata task : thread.activeTasks()) {
                task.topicPartitions().forEach(p -> threadOf.put(p, thread.threadName()));
            }
        }
        Map<TopicPartition, Double> lag = new HashMap<>();
        Map<String, Double> consumed = new TreeMap<>();
        for (Map.Entry<MetricName, ? extends Metric> entry : streams.metrics().entrySet()) {
            MetricName name = entry.getKey();
            String client = name.tags().getOrDefault("client-id", "");
            // The main consumers (<thread>-consumer), not the restore consumers of the state stores.
            if (!name.group().equals(FETCH_GROUP) || !client.endsWith("-consumer") || client.endsWith("-restore-consumer")) {
                continue;
            }
            String topic = name.tags().get("topic");
            if (topic == null || !(entry.getValue().metricValue() instanceof Double value)) {
                continue;
            }
            String partition = name.tags().get("partition");
            if (name.name().equals("records-lag") && partition != null) {
                lag.put(new TopicPartition(topic, Integer.parseInt(partition)), value);
            } else if (name.name().equals("records-consumed-total") && partition == null) {
                consumed.merge(topic, value, Double::sum);
            }
        }
        return new Consumers(threadOf, lag, consumed, threads);
    }
}
