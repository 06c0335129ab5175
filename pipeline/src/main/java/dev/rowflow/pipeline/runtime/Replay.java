package dev.rowflow.pipeline.runtime;

import dev.rowflow.pipeline.config.InputConfig;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.DeclaredInput;
import dev.rowflow.pipeline.ingest.Ingest;
import dev.rowflow.pipeline.ingest.PatternInput;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.pipeline.ingest.Source;
import dev.rowflow.pipeline.ingest.UidBinding;
import dev.rowflow.pipeline.topology.ReplayRange;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.LongConsumer;

/**
 * A replay of one input's records of a time range ({@code rowflow replay}): its topics re-read from
 * the offsets of those times through the current declaration into the same tables. The production
 * pipeline runs it -- that input only, under its own application id (consumer group) {@code
 * <application.id>-replay-<input>}, its main consumers bounded to the range ({@link ReplayRange})
 * -- so a record makes the same cells at the same cell timestamps as when it was first read, and
 * the running pipeline is untouched. The group's offsets are set to the range's start before it
 * starts and the group is deleted when the range is done.
 *
 * <p>The range of a partition: from the first record at or after {@code from} to the first at or
 * after {@code to} (exclusive; without {@code to}, the partition's end when the replay starts), by
 * the records' timestamps as the broker indexes them.
 */
public final class Replay {
    /** What a replay did. */
    public record Summary(String input, String group, Instant from, Instant to, Map<TopicPartition, Long> start,
                          Map<TopicPartition, Long> end, long offsets, long records, long rows, long deadLetters,
                          long filtered, Duration took) {
    }

    private final RowflowConfig config;
    private final String input;
    private final Instant from;
    private final Instant to;

    private Replay(RowflowConfig config, String input, Instant from, Instant to) {
        this.config = config;
        this.input = input;
        this.from = from;
        this.to = to;
    }

    /**
     * A replay of {@code input} from {@code from} to {@code to} (null: to the topics' ends now).
     *
     * @throws ConfigException naming the input or the time when it cannot be replayed
     */
    public static Replay of(RowflowConfig config, String input, Instant from, Instant to) {
        if (to != null && !to.isAfter(from)) {
            throw new ConfigException("--to", to.toString(), "must be after --from " + from);
        }
        try (PipelinePlan whole = PipelinePlan.build(config, null)) {
            Ingest ingest = whole.ingest(input).orElseThrow(() -> new ConfigException("--input", input,
                    "no such input; this configuration runs " + whole.ingests().stream().map(Ingest::name).toList()));
            if (input.equals(RowflowConfig.ORDERS_PIPELINE) || ingest instanceof DeclaredInput declared
                    && declared.joins().isPresent()) {
                throw new ConfigException("--input", input, "it joins another input, whose rows it needs from the "
                        + "beginning of their topic: a replay of a time range would join them with nothing");
            }
        }
        return new Replay(config, input, from, to);
    }

    /** The consumer group (application id) replays of {@code input} run under. */
    public String group() {
        return config.getString(RowflowConfig.APPLICATION_ID_CONFIG) + "-replay-" + input;
    }

    /**
     * The configuration of the replay's pipeline: this one, running {@code input} only under its
     * own group, not as the running pipeline's static member, committing every second, and counting
     * (not setting aside) records of its topics that only the other inputs take.
     */
    RowflowConfig replayConfig() {
        Map<String, Object> keys = new LinkedHashMap<>();
        config.originals().forEach((key, value) -> {
            boolean otherInput = key.startsWith("input.") && !key.startsWith("input." + input + ".");
            if (!otherInput) {
                keys.put(key, value);
            }
        });
        keys.remove(RowflowConfig.KAFKA_PREFIX + ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        keys.put(RowflowConfig.APPLICATION_ID_CONFIG, group());
        boolean builtIn = config.pipelines().contains(input);
        keys.put(RowflowConfig.PIPELINES_CONFIG, builtIn ? input : "");
        keys.put(RowflowConfig.INPUTS_CONFIG, builtIn ? "" : input);
        if (!builtIn) {
            keys.put("input." + input + "." + InputConfig.UNROUTED, InputConfig.UNROUTED_COUNT);
        }
        keys.put(RowflowConfig.KAFKA_PREFIX + StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "1000");
        return new RowflowConfig(keys);
    }

    /**
     * Runs it: the range looked up (refused if it starts before what a topic still keeps), the
     * group's offsets set, the pipeline run until every record of the range is written and
     * committed, the group deleted.
     *
     * @param progress told the records replayed so far, about once a second
     */
    public Summary run(LongConsumer progress) throws IOException, InterruptedException {
        long started = System.nanoTime();
        RowflowConfig replay = replayConfig();
        UidBinding uids = new UidBinding();
        PipelinePlan plan = PipelinePlan.build(replay, uids);
        ReplayRange range;
        try (Admin admin = Admin.create(KerberosLogin.kafkaClientProperties(replay))) {
            range = range(admin, topics(admin, plan.ingest(input).orElseThrow()));
            Map<TopicPartition, OffsetAndMetadata> start = new HashMap<>();
            range.start().forEach((partition, offset) -> start.put(partition, new OffsetAndMetadata(offset)));
            try {
                admin.alterConsumerGroupOffsets(group(), start).all().get();
            } catch (ExecutionException e) {
                plan.close();
                throw new IOException("cannot set the offsets of consumer group " + group() + " (is a replay of "
                        + input + " running?): " + e.getCause().getMessage(), e.getCause());
            }
        }
        MeterRegistry meters = new SimpleMeterRegistry();
        try (RowflowPipeline pipeline = RowflowPipeline.start(plan, uids, meters, range)) {
            while (!range.done()) {
                if (pipeline.state() == KafkaStreams.State.ERROR || pipeline.state() == KafkaStreams.State.NOT_RUNNING) {
                    throw new IOException("the replay's pipeline stopped (" + pipeline.state() + ") after "
                            + range.records() + " of " + range.offsets() + " records; see the log");
                }
                progress.accept(range.records());
                Thread.sleep(1000);
            }
            progress.accept(range.records());
        }
        try (Admin admin = Admin.create(KerberosLogin.kafkaClientProperties(replay))) {
            admin.deleteConsumerGroups(List.of(group())).all().get();
        } catch (ExecutionException e) {
            // Left behind, it expires with the brokers' offsets.retention.minutes.
            org.slf4j.LoggerFactory.getLogger(Replay.class).warn("could not delete consumer group {}: {}", group(),
                    e.getCause().toString());
        }
        return new Summary(input, group(), from, to, range.start(), range.end(), range.offsets(), range.records(),
                sum(meters, "rowflow.sink.sent.rows"), sum(meters, "rowflow.dead.letters"),
                sum(meters, "rowflow.records.filtered"), Duration.ofNanos(System.nanoTime() - started));
    }

    /** The topics the input reads now: its own, or those its pattern matches. */
    private static List<String> topics(Admin admin, Ingest ingest) throws IOException, InterruptedException {
        if (ingest instanceof PatternInput pattern) {
            try {
                return admin.listTopics().names().get().stream().filter(t -> pattern.subscribed().matcher(t).matches())
                        .sorted().toList();
            } catch (ExecutionException e) {
                throw new IOException("cannot list the topics: " + e.getCause().getMessage(), e.getCause());
            }
        }
        return ingest.sources().stream().map(Source::topic).distinct().toList();
    }

    /**
     * The range of each partition of {@code topics}, refused where it would start before the
     * oldest record a partition keeps while older ones were deleted (its retention).
     */
    ReplayRange range(Admin admin, List<String> topics) throws IOException, InterruptedException {
        Map<TopicPartition, Long> start = new LinkedHashMap<>();
        Map<TopicPartition, Long> end = new LinkedHashMap<>();
        try {
            List<TopicPartition> partitions = new ArrayList<>();
            for (var description : admin.describeTopics(topics).allTopicNames().get().values()) {
                description.partitions().forEach(p -> partitions.add(new TopicPartition(description.name(), p.partition())));
            }
            var earliest = offsets(admin, partitions, OffsetSpec.earliest());
            var latest = offsets(admin, partitions, OffsetSpec.latest());
            var atFrom = offsets(admin, partitions, OffsetSpec.forTimestamp(from.toEpochMilli()));
            var atTo = to == null ? latest : offsets(admin, partitions, OffsetSpec.forTimestamp(to.toEpochMilli()));
            for (TopicPartition partition : partitions) {
                long logStart = earliest.get(partition).offset();
                long logEnd = latest.get(partition).offset();
                // No record at or after the time: the offset is -1, the range starts (or ends) at the end.
                long first = atFrom.get(partition).offset() < 0 ? logEnd : atFrom.get(partition).offset();
                long last = atTo.get(partition).offset() < 0 ? logEnd : atTo.get(partition).offset();
                if (logStart > 0 && first == logStart && first < logEnd) {
                    throw new ConfigException("--from", from.toString(), "older than what " + partition + " keeps: its "
                            + "oldest record (offset " + logStart + ") is from " + Instant.ofEpochMilli(atFrom.get(partition)
                            .timestamp()) + " and the records before it were deleted (the topic's retention.ms); "
                            + "replay from that time or later");
                }
                start.put(partition, first);
                end.put(partition, Math.max(first, last));
            }
        } catch (ExecutionException e) {
            throw new IOException("cannot look up the offsets of " + topics + ": " + e.getCause().getMessage(), e.getCause());
        }
        return new ReplayRange(start, end);
    }

    private static Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> offsets(
            Admin admin, List<TopicPartition> partitions, OffsetSpec spec) throws InterruptedException, ExecutionException {
        Map<TopicPartition, OffsetSpec> asked = new HashMap<>();
        partitions.forEach(p -> asked.put(p, spec));
        return admin.listOffsets(asked).all().get();
    }

    private static long sum(MeterRegistry meters, String name) {
        return (long) (meters.find(name).counters().stream().mapToDouble(Counter::count).sum()
                + meters.find(name).functionCounters().stream().mapToDouble(io.micrometer.core.instrument.FunctionCounter::count).sum());
    }
}
