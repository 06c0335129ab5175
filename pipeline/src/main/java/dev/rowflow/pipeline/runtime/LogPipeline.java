package dev.rowflow.pipeline.runtime;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.topology.FlushBeforeCommit;
import dev.rowflow.pipeline.topology.LogEventTopology;
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
 * A running log pipeline: the HBase connection, the tables, and the Kafka Streams instance of
 * {@link LogEventTopology}. Start it with {@link #start}, stop it with {@link #close()}, which
 * commits (and so flushes) before it leaves the consumer group.
 */
public final class LogPipeline implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogPipeline.class);

    private final RowflowConfig config;
    private final Connection hbase;
    private final KafkaStreams streams;
    private final KafkaStreamsMetrics streamsMetrics;
    private final CountDownLatch terminated;

    private LogPipeline(RowflowConfig config, Connection hbase, KafkaStreams streams,
                        KafkaStreamsMetrics streamsMetrics, CountDownLatch terminated) {
        this.config = config;
        this.hbase = hbase;
        this.streams = streams;
        this.streamsMetrics = streamsMetrics;
        this.terminated = terminated;
    }

    /**
     * Connects to HBase, creates the log tables and the dead-letter topic if absent, and starts
     * the streams.
     */
    public static LogPipeline start(RowflowConfig config, MeterRegistry registry)
            throws IOException, InterruptedException {
        SinkSettings sinkSettings = new SinkSettings(
                config.getLong(RowflowConfig.WRITE_BUFFER_BYTES_CONFIG),
                config.getLong(RowflowConfig.PERIODIC_FLUSH_MS_CONFIG));

        Connection hbase = ConnectionFactory.createConnection(hbaseConfiguration(config));
        try {
            LogEventRows rows;
            Map<TableRole, TableDefinition> tables;
            try (Admin admin = hbase.getAdmin()) {
                UidResolver uids = null;
                if (usesUids(config.logEventRows(null))) {
                    TableName uidTable = TableName.valueOf(config.getString(RowflowConfig.UID_TABLE_CONFIG));
                    HBaseUidStore.createIfAbsent(admin, uidTable);
                    uids = new HBaseUidStore(hbase, uidTable);
                }
                rows = config.logEventRows(uids);
                tables = config.logTables(rows);
                createOrCheck(new TableAdmin(admin), tables, config);
            }
            try (org.apache.kafka.clients.admin.Admin kafka = org.apache.kafka.clients.admin.Admin.create(
                    config.kafkaProperties())) {
                KafkaTopics.createIfAbsent(kafka, config.getString(RowflowConfig.LOGS_DEAD_LETTER_TOPIC_CONFIG),
                        Optional.empty(), Duration.ofSeconds(60));
            }

            FlushBeforeCommit flushBeforeCommit = new FlushBeforeCommit();
            Topology topology = LogEventTopology.build(
                    config.getString(RowflowConfig.LOGS_TOPIC_CONFIG),
                    rows,
                    () -> new HBaseRowSink(hbase, tables, sinkSettings),
                    flushBeforeCommit);
            KafkaStreams streams = new KafkaStreams(topology, StreamsProperties.of(config),
                    flushBeforeCommit.clientSupplier());
            // A failed commit (HBase flush) or write kills the stream thread; a new thread re-reads
            // from the last committed offsets, so nothing is skipped.
            streams.setUncaughtExceptionHandler(e -> {
                LOG.error("stream thread failed; replacing it, records since the last commit will be reprocessed", e);
                return StreamThreadExceptionResponse.REPLACE_THREAD;
            });
            CountDownLatch terminated = new CountDownLatch(1);
            streams.setStateListener((newState, oldState) -> {
                LOG.info("streams {} -> {}", oldState, newState);
                if (newState == KafkaStreams.State.ERROR || newState == KafkaStreams.State.NOT_RUNNING) {
                    terminated.countDown();
                }
            });
            KafkaStreamsMetrics streamsMetrics = new KafkaStreamsMetrics(streams);
            streamsMetrics.bindTo(registry);
            streams.start();
            return new LogPipeline(config, hbase, streams, streamsMetrics, terminated);
        } catch (IOException | InterruptedException | RuntimeException e) {
            hbase.close();
            throw e;
        }
    }

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
                String key = table.getKey() == TableRole.LOG_DATA ? RowflowConfig.LOG_DATA_LAYOUT_CONFIG
                        : RowflowConfig.LOG_INDEX_LAYOUT_CONFIG;
                throw new ConfigException(key, config.getString(key), e.getMessage());
            }
        }
    }

    private static boolean usesUids(LogEventRows rows) {
        return java.util.stream.Stream.concat(rows.dataLayout().parts().stream(), rows.indexLayout().parts().stream())
                .anyMatch(part -> part.encoding().token().equals("uid"));
    }

    /** The HBase client configuration: hbase-site.xml if configured, then the hbase.* keys. */
    public static Configuration hbaseConfiguration(RowflowConfig config) {
        Configuration conf = HBaseConfiguration.create();
        // The client would otherwise unpack server-side jars (custom filters) into
        // ${hbase.tmp.dir}/local/jars; rowflow uses none, and the container's root is read-only.
        conf.setBoolean("hbase.use.dynamic.jars", false);
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

    /** Commits (flushing the sinks), leaves the group, closes the HBase connection. */
    @Override
    public void close() {
        Duration timeout = Duration.ofMillis(config.getLong(RowflowConfig.SHUTDOWN_TIMEOUT_MS_CONFIG));
        // Leaving the group at once: without it, close() waited a whole session timeout here.
        boolean closed = streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(timeout));
        if (!closed) {
            LOG.warn("streams did not close within {}; uncommitted records will be reprocessed on restart", timeout);
        }
        streamsMetrics.close();
        try {
            hbase.close();
        } catch (IOException e) {
            LOG.warn("closing the HBase connection failed", e);
        }
    }
}
