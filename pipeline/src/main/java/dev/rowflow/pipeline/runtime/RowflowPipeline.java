package dev.rowflow.pipeline.runtime;

import dev.rowflow.keying.TableRole;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.Ingest;
import dev.rowflow.pipeline.ingest.IngestTable;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.pipeline.ingest.Source;
import dev.rowflow.pipeline.ingest.UidBinding;
import dev.rowflow.pipeline.ingest.Wiring;
import dev.rowflow.pipeline.topology.DeadLetterTopics;
import dev.rowflow.pipeline.topology.FlushBeforeCommit;
import dev.rowflow.sinks.rekey.LiveRekeys;
import dev.rowflow.pipeline.topology.ReplayRange;
import dev.rowflow.pipeline.topology.StatusEvents;
import dev.rowflow.pipeline.topology.SinkFactory;
import dev.rowflow.sinks.hbase.HBaseRowSink;
import dev.rowflow.sinks.hbase.HBaseUidStore;
import dev.rowflow.sinks.hbase.LayoutMismatchException;
import dev.rowflow.sinks.hbase.SinkMetrics;
import dev.rowflow.sinks.hbase.SinkSettings;
import dev.rowflow.sinks.hbase.TableAdmin;
import dev.rowflow.sinks.hbase.TableDefinition;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * A running rowflow: the HBase connection, the tables, and one Kafka Streams instance running the
 * topology of its {@link PipelinePlan}. Start it with {@link #start}, stop it with {@link #close()},
 * which commits (and so flushes) before it leaves the consumer group.
 */
public final class RowflowPipeline implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RowflowPipeline.class);
    /** Matches no table: listing it asks HBase for nothing but an answer. */
    private static final java.util.regex.Pattern NO_TABLE = java.util.regex.Pattern.compile("^$");

    private final RowflowConfig config;
    private final Connection hbase;
    private final KafkaStreams streams;
    private final KafkaStreamsMetrics streamsMetrics;
    private final CountDownLatch terminated;
    /** What the plan opened (formats), closed first on close: a registry wait ends. */
    private final PipelinePlan plan;
    /** Probes HBase in the background, so a readiness check never waits on a slow HBase client. */
    private final java.util.concurrent.ScheduledExecutorService hbaseProbe;
    private volatile long hbaseLastReachedNanos = System.nanoTime();
    private final MeterRegistry registry;
    private final StatusEvents events;

    /** How often HBase is probed, and how long without an answer makes the pipeline not ready. */
    static final Duration HBASE_PROBE_INTERVAL = Duration.ofSeconds(5);
    static final Duration HBASE_UNREACHABLE_AFTER = Duration.ofSeconds(30);

    private RowflowPipeline(RowflowConfig config, Connection hbase, KafkaStreams streams,
                            KafkaStreamsMetrics streamsMetrics, CountDownLatch terminated, PipelinePlan plan,
                            TableName probeTable, MeterRegistry registry, StatusEvents events, RekeyWatch rekeys) {
        this.config = config;
        this.registry = registry;
        this.events = events;
        this.hbase = hbase;
        this.streams = streams;
        this.streamsMetrics = streamsMetrics;
        this.terminated = terminated;
        this.plan = plan;
        this.hbaseProbe = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rowflow-hbase-probe");
            t.setDaemon(true);
            return t;
        });
        hbaseProbe.scheduleWithFixedDelay(() -> {
            try (Admin admin = hbase.getAdmin()) {
                // Without a table yet (a topic.pattern's tables come with their topics), any answer will do.
                if (probeTable == null ? admin.listTableNames(NO_TABLE) != null : admin.tableExists(probeTable)) {
                    hbaseLastReachedNanos = System.nanoTime();
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("HBase probe failed: {}", e.toString());
            }
            try {
                rekeys.refresh();
                rekeys.confirm(streams, events, registry);
            } catch (IOException | RuntimeException e) {
                LOG.warn("reading the tables being re-keyed failed: {}", e.toString());
            }
        }, HBASE_PROBE_INTERVAL.toMillis(), HBASE_PROBE_INTERVAL.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        io.micrometer.core.instrument.Gauge.builder("rowflow.hbase.reachable", this, p -> p.hbaseReachable() ? 1 : 0)
                .description("1 if HBase answered a probe in the last 30 s").register(registry);
        io.micrometer.core.instrument.Gauge.builder("rowflow.ready", this, p -> p.ready() ? 1 : 0)
                .description("1 when /readyz says ready: streams RUNNING and HBase reachable").register(registry);
    }

    /** Whether HBase answered a probe within {@link #HBASE_UNREACHABLE_AFTER}. */
    public boolean hbaseReachable() {
        return System.nanoTime() - hbaseLastReachedNanos < HBASE_UNREACHABLE_AFTER.toNanos();
    }

    /** What {@code /readyz} reports: the streams are RUNNING and HBase is reachable. */
    public boolean ready() {
        return streams.state() == KafkaStreams.State.RUNNING && hbaseReachable();
    }

    /**
     * Builds the plan (refusing a bad configuration before anything is connected), connects to
     * HBase, creates the tables and the dead-letter topics if absent, and starts the streams.
     *
     * @throws ConfigException naming the key, e.g. for an input topic that does not exist or a
     *                         table that holds another key layout
     */
    public static RowflowPipeline start(RowflowConfig config, MeterRegistry registry)
            throws IOException, InterruptedException {
        UidBinding uids = new UidBinding();
        return start(PipelinePlan.build(config, uids), uids, registry);
    }

    /**
     * Starts {@code plan}, which it owns from now on (closed on close, or here if start fails).
     *
     * @param uids what the plan's uid key parts resolve with, bound here if a layout has one
     */
    public static RowflowPipeline start(PipelinePlan plan, UidBinding uids, MeterRegistry registry)
            throws IOException, InterruptedException {
        return start(plan, uids, registry, null);
    }

    /**
     * Starts {@code plan} reading only the records of {@code range} (a replay), or on (null):
     * {@link #start(PipelinePlan, UidBinding, MeterRegistry)}.
     */
    public static RowflowPipeline start(PipelinePlan plan, UidBinding uids, MeterRegistry registry, ReplayRange range)
            throws IOException, InterruptedException {
        RowflowConfig config = plan.config();
        // A Kafka GSSAPI login is checked before anything connects, so that its failure names the setting.
        Map<String, Object> kafkaProperties = config.kafkaProperties();
        Optional<String> jaas = KerberosLogin.checkKafka(kafkaProperties);
        jaas.ifPresent(line -> kafkaProperties.put(SaslConfigs.SASL_JAAS_CONFIG, line));
        Connection hbase = null;
        try {
            hbase = HBaseConnections.connect(config);
            try (Admin admin = hbase.getAdmin()) {
                if (plan.usesUids()) {
                    TableName uidTable = TableName.valueOf(config.getString(RowflowConfig.UID_TABLE_CONFIG));
                    HBaseUidStore.createIfAbsent(admin, uidTable);
                    uids.bind(new HBaseUidStore(hbase, uidTable));
                }
                createOrCheck(new TableAdmin(admin), plan);
            }
            // Tables a topic.pattern's topics make join them while the pipeline runs.
            Map<TableRole, TableDefinition> tables = new java.util.concurrent.ConcurrentSkipListMap<>(plan.tables());
            SinkSettings sinkSettings = new SinkSettings(config.getLong(RowflowConfig.WRITE_BUFFER_BYTES_CONFIG),
                    config.getLong(RowflowConfig.PERIODIC_FLUSH_MS_CONFIG));
            SinkMetrics sinkMetrics = new SinkMetrics(registry, tables);
            Connection connection = hbase;
            StatusEvents events = new StatusEvents(java.time.Clock.systemUTC());
            FlushBeforeCommit flushBeforeCommit = new FlushBeforeCommit(events, range);
            // Tables being re-keyed (rowflow tables rekey): known before the first record is written.
            LiveRekeys liveRekeys = LiveRekeys.none();
            RekeyWatch rekeys = RekeyWatch.of(plan, hbase, liveRekeys, uids);
            rekeys.refresh();
            SinkFactory sinks = () -> new HBaseRowSink(connection, tables, sinkSettings, sinkMetrics, liveRekeys);

            int largestRecord;
            Map<String, Integer> partitions = new HashMap<>();
            try (org.apache.kafka.clients.admin.Admin kafka = org.apache.kafka.clients.admin.Admin.create(
                    kafkaProperties)) {
                for (Ingest ingest : plan.ingests()) {
                    for (Source source : ingest.sources()) {
                        Optional<Integer> count = KafkaTopics.partitions(kafka, source.topic());
                        if (count.isPresent()) {
                            partitions.put(source.topic(), count.get());
                        } else if (source.missing() != null) {
                            throw new ConfigException(source.topicKey(), source.topic(), source.missing());
                        }
                    }
                }
                largestRecord = createDeadLetterTopics(kafka, plan.deadLetterTopics());
                for (String deadLetter : plan.deadLetterPatterns().values()) {
                    KafkaTopics.createIfAbsent(kafka, deadLetter, Optional.empty(), Map.of(), Duration.ofSeconds(60));
                }
            }
            Wiring.Tables ready = (table, deletes) -> {
                TableDefinition definition = table.definition();
                try (Admin admin = connection.getAdmin()) {
                    TableAdmin tableAdmin = new TableAdmin(admin);
                    boolean created = tableAdmin.createOrCheck(definition);
                    if (deletes) {
                        tableAdmin.checkDeletes(definition);
                    }
                    LOG.info("table {} of {} {} with key layout {}", definition.name(), table.tableKey(),
                            created ? "created" : "checked", definition.layout().spec());
                }
                sinkMetrics.add(table.role(), definition);
                tables.put(table.role(), definition);
            };
            plan.ingests().forEach(ingest -> ingest.bindTo(registry));
            Topology topology = plan.topology(new Wiring(sinks, flushBeforeCommit, partitions, ready));
            java.util.Properties streamsProperties = StreamsProperties.of(plan);
            streamsProperties.put(DeadLetterTopics.METRICS_CONFIG, registry);
            streamsProperties.put(StatusEvents.CONFIG, events);
            jaas.ifPresent(line -> streamsProperties.put(SaslConfigs.SASL_JAAS_CONFIG, line));
            // Whatever an input topic took, rowflow can send on: to its dead-letter topic, and (orders)
            // to the repartition topic. A user's kafka.max.request.size / kafka.topic.max.message.bytes win.
            streamsProperties.putIfAbsent(org.apache.kafka.clients.producer.ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                    largestRecord);
            streamsProperties.putIfAbsent(org.apache.kafka.streams.StreamsConfig.topicPrefix(
                    org.apache.kafka.common.config.TopicConfig.MAX_MESSAGE_BYTES_CONFIG), Integer.toString(largestRecord));
            KafkaStreams streams = new KafkaStreams(topology, streamsProperties, flushBeforeCommit.clientSupplier());
            // A failed commit (HBase flush) or write kills the stream thread; a new thread re-reads
            // from the last committed offsets, so nothing is skipped.
            streams.setUncaughtExceptionHandler(e -> {
                events.failed(Thread.currentThread().getName(), e);
                LOG.error("stream thread failed; replacing it, records since the last commit will be reprocessed", e);
                return StreamThreadExceptionResponse.REPLACE_THREAD;
            });
            CountDownLatch terminated = new CountDownLatch(1);
            GroupMetrics groupMetrics = new GroupMetrics(streams, registry);
            streams.setGlobalStateRestoreListener(groupMetrics);
            streams.setStateListener((newState, oldState) -> {
                LOG.info("streams {} -> {}", oldState, newState);
                groupMetrics.onStateChange(newState, oldState);
                if (newState == KafkaStreams.State.ERROR || newState == KafkaStreams.State.NOT_RUNNING) {
                    terminated.countDown();
                }
            });
            KafkaStreamsMetrics streamsMetrics = new KafkaStreamsMetrics(streams);
            streamsMetrics.bindTo(registry);
            streams.start();
            return new RowflowPipeline(config, hbase, streams, streamsMetrics, terminated, plan,
                    tables.isEmpty() ? null : tables.values().iterator().next().name(), registry, events, rekeys);
        } catch (IOException | InterruptedException | RuntimeException e) {
            plan.close();
            if (hbase != null) {
                hbase.close();
            }
            throw e;
        }
    }

    /**
     * Creates the dead-letter topics that are missing, each taking records up to its input topic's
     * {@code max.message.bytes} plus {@link #DEAD_LETTER_HEADROOM} for the error headers: a dead
     * letter is its input record unchanged, so a topic that took a 4 MB record must be able to set
     * it aside. An existing dead-letter topic that takes less is reported, not changed.
     *
     * @return the largest record any of them takes, for the producer's {@code max.request.size}
     */
    static int createDeadLetterTopics(org.apache.kafka.clients.admin.Admin kafka, Map<String, String> byInput)
            throws InterruptedException {
        int largest = 1024 * 1024; // the producer's default max.request.size
        for (Map.Entry<String, String> pair : byInput.entrySet()) {
            java.util.OptionalInt inputMax = KafkaTopics.maxMessageBytes(kafka, pair.getKey());
            java.util.OptionalInt deadLetterMax = inputMax.isPresent()
                    ? java.util.OptionalInt.of(inputMax.getAsInt() + DEAD_LETTER_HEADROOM) : java.util.OptionalInt.empty();
            KafkaTopics.createIfAbsent(kafka, pair.getValue(), Optional.empty(), deadLetterMax.isPresent()
                    ? Map.of(org.apache.kafka.common.config.TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                    Integer.toString(deadLetterMax.getAsInt())) : Map.of(), Duration.ofSeconds(60));
            int actual = KafkaTopics.maxMessageBytes(kafka, pair.getValue()).orElse(0);
            if (inputMax.isPresent() && actual < inputMax.getAsInt() + DEAD_LETTER_HEADROOM) {
                LOG.warn("dead-letter topic {} takes records up to {} bytes, its input {} up to {}: a bad record near "
                                + "that size cannot be set aside and would stop the flow; raise {}'s max.message.bytes",
                        pair.getValue(), actual, pair.getKey(), inputMax.getAsInt(), pair.getValue());
            }
            largest = Math.max(largest, actual);
        }
        return largest;
    }

    /** Room for the {@code __streams.errors.*} headers (the stack trace is the large one) on a dead letter. */
    static final int DEAD_LETTER_HEADROOM = 256 * 1024;

    /**
     * Creates the tables of the plan that are missing, pre-split as {@link TableSplits} says (input
     * topics sampled for the tables that need it), and
     * checks the key layout recorded in each. A table left with one region where regions stay put
     * (HBase) is warned about: every write of every stream thread would go to one region server's
     * memstore and WAL.
     *
     * @return the warnings, one line per one-region table, also logged
     * @throws ConfigException naming the layout key when a table holds another layout, or the table
     *                         key when an input that deletes would write a table whose deletes
     *                         mask later writes
     */
    public static List<String> createOrCheck(TableAdmin admin, PipelinePlan plan) throws IOException {
        return createOrCheck(admin, plan, new TableSplits(plan.config(), Optional.empty()));
    }

    /** {@link #createOrCheck(TableAdmin, PipelinePlan)} with the split points {@code splits} gives. */
    public static List<String> createOrCheck(TableAdmin admin, PipelinePlan plan, TableSplits splits)
            throws IOException {
        List<String> warnings = new ArrayList<>();
        for (Ingest ingest : plan.ingests()) {
            for (IngestTable table : ingest.tables()) {
                TableDefinition definition = table.definition();
                TableSplits.Split split = null;
                try {
                    boolean exists = admin.exists(definition.name());
                    split = exists ? null : splits.of(ingest, table);
                    boolean created = admin.createOrCheck(definition, exists ? List.of() : split.points());
                    LOG.info("table {} {} with key layout {}{}", definition.name(), created ? "created" : "checked",
                            definition.layout().spec(), created && !split.points().isEmpty()
                                    ? ", " + (split.points().size() + 1) + " regions split at " + split.from() : "");
                } catch (LayoutMismatchException e) {
                    String key = table.layoutKey();
                    throw new ConfigException(key, plan.config().originals().get(key), e.getMessage());
                }
                if (ingest.deletes()) {
                    try {
                        admin.checkDeletes(definition);
                    } catch (IllegalStateException e) {
                        throw new ConfigException(table.tableKey(), definition.name().getNameAsString(),
                                e.getMessage());
                    }
                }
                if (admin.store().capabilities().fixedRegions() && admin.regionCount(definition.name()) == 1) {
                    String why = split != null ? split.warning() : TableSplits.whyUnspread(ingest, table);
                    String warning = "table " + definition.name() + " (" + table.tableKey() + ") has one region: every "
                            + "write goes to one region server until the table grows to its split size" + (why == null
                            ? "" : "; " + why);
                    LOG.warn(warning);
                    warnings.add(warning);
                }
            }
        }
        return warnings;
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    /** Answers {@code /readyz} and {@code /status} of {@code metrics} from now on. */
    public void serveOn(dev.rowflow.pipeline.metrics.MetricsServer metrics) {
        metrics.readiness(this::ready);
        metrics.status(() -> status().toJson());
    }

    /** What {@code /status} serves: the instance's state and each input's. */
    public InstanceStatus status() {
        return StatusReport.of(plan, streams, registry, events, ready(), hbaseReachable());
    }

    /** Blocks until the streams have stopped, by {@link #close()} or by an unrecoverable error. */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    /**
     * Whether this instance is a static member of its group ({@code kafka.group.instance.id} set):
     * one that comes back under the same id within {@code kafka.session.timeout.ms} gets its tasks
     * back without a rebalance.
     */
    private boolean staticMember() {
        return config.kafkaProperties().get(org.apache.kafka.clients.consumer.ConsumerConfig.GROUP_INSTANCE_ID_CONFIG) != null;
    }

    /**
     * Commits (flushing the sinks), closes the HBase connection, and leaves the group at once, so
     * its tasks move without waiting a session timeout. A static member stays in the group
     * instead: restarted under the same id within the session timeout it takes its tasks back
     * without a rebalance (a rolling restart); stopped for longer, its tasks move when the session
     * times out.
     */
    @Override
    public void close() {
        Duration timeout = Duration.ofMillis(config.getLong(RowflowConfig.SHUTDOWN_TIMEOUT_MS_CONFIG));
        // First: a stream thread waiting for an unavailable schema registry stops waiting.
        plan.close();
        boolean closed = streams.close(CloseOptions.groupMembershipOperation(staticMember()
                ? CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP
                : CloseOptions.GroupMembershipOperation.LEAVE_GROUP).withTimeout(timeout));
        if (!closed) {
            LOG.warn("streams did not close within {}; uncommitted records will be reprocessed on restart", timeout);
        }
        streamsMetrics.close();
        hbaseProbe.shutdownNow();
        try {
            hbase.close();
        } catch (IOException e) {
            LOG.warn("closing the HBase connection failed", e);
        }
    }
}
