package dev.rowflow.pipeline.runtime;

import java.util.ArrayList;
import java.util.List;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.pipeline.config.InputConfig;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.topology.InputTopology;
import dev.rowflow.pipeline.topology.FlushBeforeCommit;
import dev.rowflow.keying.log.LogMapping;
import dev.rowflow.pipeline.topology.DeadLetterTopics;
import dev.rowflow.pipeline.topology.OrderTopology;
import dev.rowflow.sinks.hbase.SinkMetrics;
import dev.rowflow.pipeline.topology.SinkFactory;
import org.apache.kafka.streams.StreamsBuilder;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.sinks.hbase.HBaseRowSink;
import dev.rowflow.sinks.hbase.HBaseUidStore;
import dev.rowflow.sinks.hbase.LayoutMismatchException;
import dev.rowflow.sinks.hbase.TableAdmin;
import dev.rowflow.sinks.hbase.TableDefinition;
import org.apache.kafka.common.config.ConfigException;
import dev.rowflow.sinks.hbase.SinkSettings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import com.google.cloud.bigtable.hbase.BigtableConfiguration;
import com.google.cloud.bigtable.hbase.BigtableOptionsFactory;
import dev.rowflow.sinks.hbase.Store;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * A running rowflow: the HBase connection, the tables, and one Kafka Streams instance running the
 * topologies of the configured pipelines and declared inputs ({@link InputTopology}, {@link OrderTopology}). Start it with {@link #start}, stop it with {@link #close()}, which
 * commits (and so flushes) before it leaves the consumer group.
 */
public final class RowflowPipeline implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RowflowPipeline.class);

    private final RowflowConfig config;
    private final Connection hbase;
    private final KafkaStreams streams;
    private final KafkaStreamsMetrics streamsMetrics;
    private final CountDownLatch terminated;
    /** The declared inputs' formats, closed first on close (a registry wait ends). */
    private final List<RecordFormat> formats;
    /** Probes HBase in the background, so a readiness check never waits on a slow HBase client. */
    private final java.util.concurrent.ScheduledExecutorService hbaseProbe;
    private volatile long hbaseLastReachedNanos = System.nanoTime();

    /** How often HBase is probed, and how long without an answer makes the pipeline not ready. */
    static final Duration HBASE_PROBE_INTERVAL = Duration.ofSeconds(5);
    static final Duration HBASE_UNREACHABLE_AFTER = Duration.ofSeconds(30);

    private RowflowPipeline(RowflowConfig config, Connection hbase, KafkaStreams streams,
                            KafkaStreamsMetrics streamsMetrics, CountDownLatch terminated, List<RecordFormat> formats,
                            TableName probeTable, MeterRegistry registry) {
        this.config = config;
        this.hbase = hbase;
        this.streams = streams;
        this.streamsMetrics = streamsMetrics;
        this.terminated = terminated;
        this.formats = formats;
        this.hbaseProbe = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rowflow-hbase-probe");
            t.setDaemon(true);
            return t;
        });
        hbaseProbe.scheduleWithFixedDelay(() -> {
            try (Admin admin = hbase.getAdmin()) {
                if (admin.tableExists(probeTable)) {
                    hbaseLastReachedNanos = System.nanoTime();
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("HBase probe failed: {}", e.toString());
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
     * Connects to HBase, creates the tables of the configured pipelines and the dead-letter topics
     * if absent, and starts the streams.
     *
     * @throws ConfigException naming the key, e.g. for an input topic that does not exist or a
     *                         table that holds another key layout
     */
    public static RowflowPipeline start(RowflowConfig config, MeterRegistry registry)
            throws IOException, InterruptedException {
        SinkSettings sinkSettings = new SinkSettings(
                config.getLong(RowflowConfig.WRITE_BUFFER_BYTES_CONFIG),
                config.getLong(RowflowConfig.PERIODIC_FLUSH_MS_CONFIG));

        Connection hbase = connect(config);
        try {
            UidResolver uids = null;
            Map<TableRole, TableDefinition> tables;
            try (Admin admin = hbase.getAdmin()) {
                if (usesUids(config.tables(null))) {
                    TableName uidTable = TableName.valueOf(config.getString(RowflowConfig.UID_TABLE_CONFIG));
                    HBaseUidStore.createIfAbsent(admin, uidTable);
                    uids = new HBaseUidStore(hbase, uidTable);
                }
                tables = config.tables(uids);
                createOrCheck(new TableAdmin(admin), tables, config);
            }

            FlushBeforeCommit flushBeforeCommit = new FlushBeforeCommit();
            SinkMetrics sinkMetrics = new SinkMetrics(registry, tables);
            SinkFactory sinks = () -> new HBaseRowSink(hbase, tables, sinkSettings, sinkMetrics);
            StreamsBuilder builder = new StreamsBuilder();
            List<RecordFormat> formats = new ArrayList<>();
            int largestRecord;
            try (org.apache.kafka.clients.admin.Admin kafka = org.apache.kafka.clients.admin.Admin.create(
                    config.kafkaProperties())) {
                largestRecord = createDeadLetterTopics(kafka, config.deadLetterTopics());
                if (config.runs(RowflowConfig.LOGS_PIPELINE)) {
                    // The log pipeline is a declared input like any other: the LogMapping preset over LogEvent.
                    InputTopology.addTo(builder, RowflowConfig.LOGS_PIPELINE,
                            config.getString(RowflowConfig.LOGS_TOPIC_CONFIG), LogMapping.format(), config.logMapping(uids),
                            config.timestampPolicy(), sinks, flushBeforeCommit);
                }
                for (InputConfig input : config.inputs()) {
                    KafkaTopics.partitions(kafka, input.topic()).orElseThrow(() -> new ConfigException(
                            input.key(InputConfig.TOPIC), input.topic(), "no such topic"));
                    RecordFormat format = input.format();
                    formats.add(format);
                    if (format instanceof dev.rowflow.pipeline.registry.RegistryAvroFormat registryFormat) {
                        registryFormat.bindTo(registry, input.name());
                    }
                    InputTopology.addTo(builder, input.name(), input.topic(), format, input.mapping(format, uids),
                            config.timestampPolicy(), sinks, flushBeforeCommit);
                }
                if (config.runs(RowflowConfig.ORDERS_PIPELINE)) {
                    String customers = config.getString(RowflowConfig.CUSTOMERS_TOPIC_CONFIG);
                    int partitions = KafkaTopics.partitions(kafka, customers).orElseThrow(() -> new ConfigException(
                            RowflowConfig.CUSTOMERS_TOPIC_CONFIG, customers, "no such topic; create it (compacted, "
                            + "keyed by customer number) before starting the orders pipeline"));
                    OrderTopology.addTo(builder, customers, config.getString(RowflowConfig.ORDERS_TOPIC_CONFIG),
                            partitions, config.getInt(RowflowConfig.MAX_LINE_ITEMS_CONFIG), config.orderRows(uids), config.timestampPolicy(), sinks, flushBeforeCommit);
                }
            }
            Topology topology = builder.build();
            java.util.Properties streamsProperties = StreamsProperties.of(config);
            streamsProperties.put(DeadLetterTopics.METRICS_CONFIG, registry);
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
            return new RowflowPipeline(config, hbase, streams, streamsMetrics, terminated, formats,
                    tables.values().iterator().next().name(), registry);
        } catch (IOException | InterruptedException | RuntimeException e) {
            hbase.close();
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
     * Creates the tables that are missing and checks the key layout recorded in each.
     *
     * @throws ConfigException naming the layout key when a table holds another layout
     */
    public static void createOrCheck(TableAdmin admin, Map<TableRole, TableDefinition> tables, RowflowConfig config)
            throws IOException {
        for (Map.Entry<TableRole, TableDefinition> table : tables.entrySet()) {
            try {
                boolean created = admin.createOrCheck(table.getValue());
                LOG.info("table {} {} with key layout {}", table.getValue().name(), created ? "created" : "checked",
                        table.getValue().layout().spec());
            } catch (LayoutMismatchException e) {
                String key = config.layoutKeyOf(table.getKey());
                throw new ConfigException(key, config.originals().get(key), e.getMessage());
            }
        }
    }

    private static boolean usesUids(Map<TableRole, TableDefinition> tables) {
        return tables.values().stream().flatMap(table -> table.layout().parts().stream())
                .anyMatch(part -> part.encoding().needsUids());
    }

    /**
     * Opens the HBase-API connection to the configured store. Bigtable's comes from Google's
     * adapter factory rather than {@link ConnectionFactory}: HBase 2.6's factory looks for a
     * constructor with connection attributes, which the adapter (built against HBase 2.5) lacks.
     */
    public static Connection connect(RowflowConfig config) throws java.io.IOException {
        Configuration conf = hbaseConfiguration(config);
        return config.store() == Store.BIGTABLE ? BigtableConfiguration.connect(conf) : ConnectionFactory.createConnection(conf);
    }

    /**
     * The HBase client configuration: for Bigtable the adapter's project and instance (and the
     * emulator), then hbase-site.xml if configured, then the hbase.* and google.bigtable.* keys.
     */
    public static Configuration hbaseConfiguration(RowflowConfig config) {
        Configuration conf = HBaseConfiguration.create();
        // The client would otherwise unpack server-side jars (custom filters) into
        // ${hbase.tmp.dir}/local/jars; rowflow uses none, and the container's root is read-only.
        conf.setBoolean("hbase.use.dynamic.jars", false);
        if (config.store() == Store.BIGTABLE) {
            // One code path: Google's adapter is an HBase Connection (see connect).
            BigtableConfiguration.configure(conf, config.getString(RowflowConfig.BIGTABLE_PROJECT_CONFIG),
                    config.getString(RowflowConfig.BIGTABLE_INSTANCE_CONFIG));
            // rowflow's write buffer is the adapter's bound on bytes in flight (its flow control), as
            // it is HBase's write buffer: memory stays bounded by configuration on both stores. A
            // batch must be smaller than that bound, so two batches fit. google.bigtable.* keys of
            // the user's configuration, applied below, win.
            long buffer = config.getLong(RowflowConfig.WRITE_BUFFER_BYTES_CONFIG);
            if (buffer > 0) {
                conf.setLong(BigtableOptionsFactory.BIGTABLE_BUFFERED_MUTATOR_MAX_MEMORY_KEY, buffer);
                conf.setLong(BigtableOptionsFactory.BIGTABLE_BULK_MAX_REQUEST_SIZE_BYTES, buffer / 2);
            }
            String emulator = config.getString(RowflowConfig.BIGTABLE_EMULATOR_HOST_CONFIG);
            if (!emulator.isEmpty()) {
                conf.set(BigtableOptionsFactory.BIGTABLE_EMULATOR_HOST_KEY, emulator);
            }
        }
        String site = config.getString(RowflowConfig.HBASE_SITE_PATH_CONFIG);
        if (!site.isEmpty()) {
            if (!new java.io.File(site).isFile()) {
                throw new org.apache.kafka.common.config.ConfigException(RowflowConfig.HBASE_SITE_PATH_CONFIG, site,
                        "no such file");
            }
            conf.addResource(new Path(site));
        }
        config.hbaseProperties().forEach(conf::set);
        return conf;
    }

    public KafkaStreams.State state() {
        return streams.state();
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
        formats.forEach(RecordFormat::close);
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
