package dev.rowflow.pipeline.runtime;

import dev.rowflow.embedded.load.TableRows;
import dev.rowflow.embedded.load.Offsets;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.events.LogEvent;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.sinks.hbase.Store;
import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.embedded.load.LogEventProducer;
import dev.rowflow.embedded.load.OrderGenerator;
import dev.rowflow.pipeline.serde.EventSerdes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import dev.rowflow.keying.layout.RowKeyLayout;
import java.nio.charset.StandardCharsets;
import org.apache.commons.codec.digest.MurmurHash3;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The walking skeleton end to end on the real embedded stack: events produced to a real KRaft
 * broker, the production topology, rows read back with plain hbase-client from each store: a
 * real HBase, and the Bigtable emulator through Google's adapter.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
@ParameterizedClass(name = "{0}")
@EnumSource(Store.class)
class LogPipelineIT {
    private static final int SALT_BUCKETS = 8;
    private static EmbeddedStack stack;
    private static Store store;

    @Parameter
    Store storeOfThisInvocation;

    @BeforeParameterizedClassInvocation
    static void shareStack(Store storeUnderTest, EmbeddedStack shared) {
        EmbeddedStackExtension.assumeStoreAvailable(storeUnderTest.token());
        stack = shared;
        store = storeUnderTest;
    }

    /** Kafka-side behaviour does not depend on the store: it runs once, on HBase. */
    private static void onHBaseOnly() {
        Assumptions.assumeTrue(store == Store.HBASE, "Kafka-side behaviour, independent of the store: runs on hbase");
    }

    /** The connection to the store under test, shared by the JVM: not to be closed. */
    private static Connection connection() {
        return stack.connection(store.token());
    }

    @Test
    void shouldWriteEveryEventAsOneDataRowAndOneIndexRow() throws Exception {
        // Rows leave the write buffer only when a commit flushes it (the buffer never fills and the
        // periodic flush is a minute away), so a commit that ran ahead of its flush would show.
        RowflowConfig config = config("it-10k", Map.of(RowflowConfig.PERIODIC_FLUSH_MS_CONFIG, "60000"));
        List<LogEvent> sent = new ArrayList<>();
        LogEventGenerator generator = new LogEventGenerator(42, 60, 1_700_000_000_000L);
        for (int i = 0; i < 10_000; i++) {
            sent.add(generator.next());
        }
        createTopic(config);
        try (LogEventProducer producer = LogEventProducer.open(config.kafkaProperties(), topic(config))) {
            sent.forEach(producer::send);
        }

        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        runUntilEverythingCommitted(config, registry, committed -> assertThat(
                count(config.getString(RowflowConfig.LOG_DATA_TABLE_CONFIG)))
                .as("data rows in HBase when %d events were committed", committed)
                .isGreaterThanOrEqualTo(committed));

        // The sink's meters count what was flushed: every row once, spread over the 8 buckets.
        String dataTable = config.getString(RowflowConfig.LOG_DATA_TABLE_CONFIG);
        assertThat(registry.get("rowflow.sink.rows").tag("table", dataTable).counter().count()).isEqualTo(10_000);
        assertThat(registry.get("rowflow.sink.rows").tag("table", config.getString(RowflowConfig.LOG_INDEX_TABLE_CONFIG))
                .counter().count()).isEqualTo(10_000);
        var buckets = registry.get("rowflow.sink.bucket.rows").tag("table", dataTable).counters();
        assertThat(buckets).hasSize(SALT_BUCKETS).allSatisfy(c -> assertThat(c.count())
                .isBetween(10_000.0 / SALT_BUCKETS * 0.8, 10_000.0 / SALT_BUCKETS * 1.2));
        assertThat(buckets.stream().mapToDouble(io.micrometer.core.instrument.Counter::count).sum()).isEqualTo(10_000.0);
        assertThat(registry.get("rowflow.sink.flush").timer().count()).isPositive();
        assertThat(registry.get("rowflow.sink.failed.mutations").tag("table", dataTable).counter().count()).isZero();
        assertThat(registry.get("rowflow.sink.counter.updates").counters()).isNotEmpty();

        Map<ByteBuffer, Result> dataRows = scan(config.getString(RowflowConfig.LOG_DATA_TABLE_CONFIG));
        Map<ByteBuffer, Result> indexRows = scan(config.getString(RowflowConfig.LOG_INDEX_TABLE_CONFIG));
        assertThat(dataRows).hasSize(10_000);
        assertThat(indexRows).hasSize(10_000);
        for (LogEvent event : sent) {
            long ts = event.getTimestamp().toEpochMilli();
            byte[] dataKey = expectedDataKey(event);
            Result data = dataRows.get(ByteBuffer.wrap(dataKey));
            assertThat(data).as("data row of %s", event).isNotNull();
            assertThat(string(data, "d", "h")).isEqualTo(event.getHostname());
            assertThat(string(data, "d", "e")).isEqualTo(event.getEventType());
            assertThat(string(data, "d", "m")).isEqualTo(event.getMessage());
            assertThat(string(data, "d", "s")).isEqualTo(event.getSeverity().name());
            for (Map.Entry<String, String> attribute : event.getAttributes().entrySet()) {
                assertThat(string(data, "d", "a." + attribute.getKey())).isEqualTo(attribute.getValue());
            }
            assertThat(data.rawCells()).hasSize(4 + event.getAttributes().size())
                    .allSatisfy(cell -> assertThat(cell.getTimestamp()).isEqualTo(ts));

            Result index = indexRows.get(ByteBuffer.wrap(expectedIndexKey(event)));
            assertThat(index).as("index row of %s", event).isNotNull();
            assertThat(index.getValue(bytes("i"), bytes("r"))).isEqualTo(dataKey);
        }
    }

    @Test
    void shouldCountEveryEventOnceInTheSummaryTableAlsoAfterAForcedReplay() throws Exception {
        RowflowConfig config = config("it-summary", Map.of());
        // Events 1 ms apart from 3 s before an hour boundary: two hours of counts.
        long hour = 1_700_002_800_000L;
        LogEventGenerator generator = new LogEventGenerator(5, 12, hour - 3_000);
        Map<String, Long> expected = new java.util.TreeMap<>();
        java.util.Set<Long> hours = new java.util.TreeSet<>();
        dev.rowflow.keying.log.LogSummary summary = new dev.rowflow.keying.log.LogSummary();
        createTopic(config);
        try (LogEventProducer producer = LogEventProducer.open(config.kafkaProperties(), topic(config))) {
            for (int i = 0; i < 6_000; i++) {
                LogEvent event = generator.next();
                producer.send(event);
                expected.merge(Bytes.toStringBinary(summary.key(event.getHostname(), event.getEventType(),
                        event.getTimestamp().toEpochMilli())), 1L, Long::sum);
                hours.add(dev.rowflow.keying.log.LogSummary.hourOf(event.getTimestamp().toEpochMilli()));
            }
        }
        String table = config.getString(RowflowConfig.LOG_SUMMARY_TABLE_CONFIG);

        runUntilEverythingCommitted(config, committed -> { });
        Map<String, Long> counted = summaryCounts(table);
        assertThat(counted.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(6_000);
        assertThat(counted).isEqualTo(expected);
        assertThat(hours).containsExactly(hour - 3_600_000, hour);

        // Forced replay: the group's offsets back to the start, every event processed again.
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.consumer.OffsetAndMetadata> start =
                    new HashMap<>();
            KafkaTopics.endOffsets(admin, topic(config)).keySet().forEach(tp ->
                    start.put(tp, new org.apache.kafka.clients.consumer.OffsetAndMetadata(0)));
            admin.alterConsumerGroupOffsets(config.getString(RowflowConfig.APPLICATION_ID_CONFIG), start).all().get();
            assertThat(Offsets.uncommitted(admin, config.getString(RowflowConfig.APPLICATION_ID_CONFIG),
                    topic(config))).isEqualTo(6_000);
        }
        runUntilEverythingCommitted(config, committed -> { });

        assertThat(summaryCounts(table)).isEqualTo(expected);
        assertThat(count(config.getString(RowflowConfig.LOG_DATA_TABLE_CONFIG))).isEqualTo(6_000);
    }

    @Test
    void shouldPackTheEventsOfAHostTypeAndFiveMinutesIntoColumnsOfOneRow() throws Exception {
        RowflowConfig config = config("it-columns", Map.of(
                RowflowConfig.LOG_DATA_LAYOUT_CONFIG, "hostname:text, eventType:text, timestamp:ts",
                RowflowConfig.LOG_TIME_BUCKET_SECONDS_CONFIG, "300",
                RowflowConfig.LOG_INDEX_ENABLED_CONFIG, "false",
                RowflowConfig.LOG_SUMMARY_ENABLED_CONFIG, "false"));
        // 20 events per second for 12 minutes: three buckets, some of them partial.
        List<LogEvent> sent = new ArrayList<>();
        LogEventGenerator generator = new LogEventGenerator(9, 4, 1_700_000_100_000L);
        for (int i = 0; i < 14_400; i++) {
            LogEvent event = generator.next();
            sent.add(LogEvent.newBuilder(event).setTimestamp(java.time.Instant.ofEpochMilli(
                    1_700_000_100_000L + 50L * i)).build());
        }
        createTopic(config);
        try (LogEventProducer producer = LogEventProducer.open(config.kafkaProperties(), topic(config))) {
            sent.forEach(producer::send);
        }

        runUntilEverythingCommitted(config, committed -> { });

        Map<ByteBuffer, Map<ByteBuffer, LogEvent>> expected = new HashMap<>();
        var layout = RowKeyLayout.parse("hostname:text, eventType:text, timestamp:ts", null);
        for (LogEvent event : sent) {
            long t = event.getTimestamp().toEpochMilli();
            long bucket = t - t % 300_000;
            expected.computeIfAbsent(ByteBuffer.wrap(layout.encode(event.getHostname(), event.getEventType(), bucket)),
                    k -> new HashMap<>()).put(ByteBuffer.wrap(ByteBuffer.allocate(4).putInt((int) (t - bucket)).array()),
                    event);
        }
        Map<ByteBuffer, Result> rows = scan(config.getString(RowflowConfig.LOG_DATA_TABLE_CONFIG));
        assertThat(rows.keySet()).isEqualTo(expected.keySet());
        long cells = 0;
        for (Map.Entry<ByteBuffer, Result> row : rows.entrySet()) {
            Map<ByteBuffer, LogEvent> columns = expected.get(row.getKey());
            assertThat(row.getValue().rawCells()).hasSize(columns.size());
            for (org.apache.hadoop.hbase.Cell cell : row.getValue().rawCells()) {
                LogEvent event = columns.get(ByteBuffer.wrap(org.apache.hadoop.hbase.CellUtil.cloneQualifier(cell)));
                assertThat(LogEvent.getDecoder().decode(org.apache.hadoop.hbase.CellUtil.cloneValue(cell)))
                        .isEqualTo(event);
                assertThat(cell.getTimestamp()).isEqualTo(event.getTimestamp().toEpochMilli());
                cells++;
            }
        }
        assertThat(cells).isEqualTo(14_400);
    }

    /** Summary row (printable key) -> count, read with plain hbase-client. */
    private static Map<String, Long> summaryCounts(String table) throws Exception {
        Map<String, Long> counts = new java.util.TreeMap<>();
        for (Result row : scan(table).values()) {
            counts.put(Bytes.toStringBinary(row.getRow()),
                    dev.rowflow.sinks.hbase.CounterCells.total(row, bytes("s"), bytes("n")));
        }
        return counts;
    }

    @Test
    void shouldLoseNothingWhenTheBrokerRestartsInTheMiddleOfARun() throws Exception {
        onHBaseOnly();
        RowflowConfig config = config("it-broker", Map.of());
        createTopic(config);
        int events = 20_000;
        // Events arrive at about 2,000/s while the pipeline runs, so the restart (once 1,000 are
        // committed) comes mid-run however fast the pipeline is: most events are sent after it.
        java.util.concurrent.ExecutorService sender = java.util.concurrent.Executors.newSingleThreadExecutor();
        long committedAtRestart = -1;
        try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry());
             Admin admin = Admin.create(config.kafkaProperties())) {
            java.util.concurrent.Future<?> sent = sender.submit(() -> {
                try (LogEventProducer producer = LogEventProducer.openAcrossBrokerRestarts(config.kafkaProperties(),
                        topic(config))) {
                    producer.sendPaced(new LogEventGenerator(17, 40, 1_700_000_000_000L), events, 2_000);
                }
                return null;
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            long committed = 0;
            // The topic's records once the producer is done: its retries across the restart can write a
            // batch twice (seen once: 20,006 records for 20,000 events), which rowflow must read like any other.
            long written = -1;
            while (System.nanoTime() < deadline && committed != written) {
                assertThat(pipeline.state()).isNotEqualTo(org.apache.kafka.streams.KafkaStreams.State.ERROR);
                committed = Offsets.committed(admin, config.getString(RowflowConfig.APPLICATION_ID_CONFIG), topic(config));
                if (committedAtRestart < 0 && committed >= 1_000) {
                    committedAtRestart = committed;
                    // Mid-run: the broker goes away for 5 s and comes back on the same port.
                    stack.kafka().restart(Duration.ofSeconds(5));
                }
                if (written < 0 && sent.isDone()) {
                    written = Offsets.written(admin, topic(config));
                }
                Thread.sleep(200);
            }
            sent.get(60, TimeUnit.SECONDS);
            assertThat(written).as("records in the topic").isGreaterThanOrEqualTo(events);
            assertThat(committed).as("records committed").isEqualTo(written);
        } finally {
            sender.shutdownNow();
        }

        assertThat(committedAtRestart).as("events committed when the broker restarted").isBetween(1_000L, events - 1L);
        assertThat(count(config.getString(RowflowConfig.LOG_DATA_TABLE_CONFIG))).isEqualTo(events);
        assertThat(count(config.getString(RowflowConfig.LOG_INDEX_TABLE_CONFIG))).isEqualTo(events);
    }

    @Test
    void shouldSetBadRecordsAsideWithTheirReasonAndKeepGoing() throws Exception {
        onHBaseOnly();
        // A 100 kB cell limit stands in for HBase's 10 MB default, which Kafka's 1 MB records cannot reach.
        RowflowConfig config = config("it-bad", Map.of("hbase.client.keyvalue.maxsize", "100000"));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        createTopic(config);
        LogEventGenerator generator = new LogEventGenerator(7, 3, 1_700_000_000_000L);
        LogEvent emptyHost = LogEvent.newBuilder(generator.next()).setHostname("").build();
        LogEvent hugeMessage = LogEvent.newBuilder(generator.next()).setMessage("x".repeat(200_000)).build();
        LogEvent hugeHost = LogEvent.newBuilder(generator.next()).setHostname("h".repeat(40_000)).build();
        LogEvent first = generator.next();
        byte[] good = EventSerdes.logEvents().serializer().serialize("t", generator.next());
        byte[] truncated = java.util.Arrays.copyOf(good, good.length / 2);
        byte[] unknownSchema = good.clone();
        unknownSchema[2] ^= 0x5A; // another writer-schema fingerprint
        byte[] notUtf8 = EventSerdes.logEvents().serializer().serialize("t",
                LogEvent.newBuilder(generator.next()).setHostname("web-\u00e91").build());
        for (int i = 10; i < notUtf8.length - 1; i++) {
            if ((notUtf8[i] & 0xFF) == 0xC3 && (notUtf8[i + 1] & 0xFF) == 0xA9) {
                notUtf8[i + 1] = '('; // C3 28: not UTF-8
                break;
            }
        }
        LogEvent negative = LogEvent.newBuilder(generator.next()).setTimestamp(java.time.Instant.ofEpochMilli(-5)).build();
        LogEvent farAhead = LogEvent.newBuilder(generator.next())
                .setTimestamp(java.time.Instant.now().plus(java.time.Duration.ofDays(2))).build();
        byte[] customer = EventSerdes.customers().serializer().serialize("t", OrderGenerator.customer(1));
        try (LogEventProducer producer = LogEventProducer.open(config.kafkaProperties(), topic(config))) {
            producer.send(first);
            producer.sendRaw("k", "this is not avro".getBytes(StandardCharsets.UTF_8));
            producer.send(emptyHost);
            producer.sendRaw("k", null);
            producer.send(hugeMessage);
            producer.send(hugeHost);
            producer.send(generator.next());
            producer.sendRaw("k", truncated);
            producer.sendRaw("k", unknownSchema);
            producer.sendRaw("k", notUtf8);
            producer.send(negative);
            // Its record gets the producer's time (now): the event claims two days later.
            producer.sendRaw("k", EventSerdes.logEvents().serializer().serialize("t", farAhead));
            producer.sendRaw("k", new byte[0]);
            producer.send(first); // a duplicate: the same row again, not a second one
            producer.sendRaw("k", customer); // a record of another type
        }

        InstanceStatus status = runUntilEverythingCommitted(config, registry, committed -> { });

        // What /status says of it: every record read, the three good ones' rows (the duplicate written
        // again), the twelve set aside, the last of them with its reason, and the commit.
        InstanceStatus.Input logs = status.inputs().get(0);
        assertThat(status.state()).isEqualTo("RUNNING");
        assertThat(logs.name()).isEqualTo("logs");
        assertThat(logs.state()).isEqualTo("RUNNING");
        assertThat(logs.partitions()).isEqualTo(4);
        assertThat(logs.lag()).isZero();
        assertThat(logs.recordsIn()).isEqualTo(15);
        assertThat(logs.rowsOut()).as("data and index rows of 3 good records").isEqualTo(6);
        assertThat(logs.deadLetters()).isEqualTo(12);
        assertThat(logs.lastError().topic()).isEqualTo(topic(config));
        assertThat(logs.lastCommit()).isNotNull().isAfterOrEqualTo(logs.lastError().at());
        assertThat(status.lastCommit()).isAfterOrEqualTo(logs.lastCommit());

        assertThat(scan(config.getString(RowflowConfig.LOG_DATA_TABLE_CONFIG))).hasSize(2);
        assertThat(scan(config.getString(RowflowConfig.LOG_INDEX_TABLE_CONFIG))).hasSize(2);
        String deadLetterTopic = config.getString(RowflowConfig.LOGS_DEAD_LETTER_TOPIC_CONFIG);
        Map<String, Double> deadLettersByReason = new java.util.TreeMap<>();
        registry.get("rowflow.dead.letters").tag("topic", deadLetterTopic).counters()
                .forEach(c -> deadLettersByReason.put(c.getId().getTag("reason"), c.count()));
        assertThat(deadLettersByReason).isEqualTo(Map.of("SerializationException", 5.0, "invalid hostname", 1.0,
                "invalid value", 1.0, "invalid cell m", 1.0, "invalid row key", 1.0, "invalid text key part", 1.0,
                "invalid timestamp", 2.0));
        List<ConsumerRecord<byte[], byte[]>> dead = TopicReader.readAll(stack.kafka().bootstrapServers(), deadLetterTopic, 12);
        assertThat(dead).hasSize(12);
        assertThat(dead).extracting(r -> TopicReader.header(r, "__streams.errors.message")).anySatisfy(m -> assertThat(m)
                .startsWith("invalid cell m '").contains("over the cell size limit of 100000 bytes"));
        assertThat(dead).extracting(r -> TopicReader.header(r, "__streams.errors.message")).anySatisfy(m -> assertThat(m)
                .startsWith("invalid row key '").contains("HBase row keys are 1 to 32767 bytes"));
        assertThat(dead).extracting(r -> TopicReader.header(r, "__streams.errors.message")).anySatisfy(m -> assertThat(m)
                .isEqualTo("invalid hostname '': must not be empty"));
        assertThat(dead).extracting(r -> TopicReader.header(r, "__streams.errors.message")).anySatisfy(m -> assertThat(m)
                .contains("no tombstones"));
        assertThat(dead).extracting(r -> TopicReader.header(r, "__streams.errors.message")).anySatisfy(m -> assertThat(m)
                .contains("the producer sent bytes that are not UTF-8"));
        assertThat(dead).extracting(r -> TopicReader.header(r, "__streams.errors.message")).anySatisfy(m -> assertThat(m)
                .isEqualTo("invalid timestamp '-5': is before 1970"));
        assertThat(dead).extracting(r -> TopicReader.header(r, "__streams.errors.message")).anySatisfy(m -> assertThat(m)
                .contains("ms ahead of the record's timestamp"));
        // Set aside unchanged: the bytes on the dead-letter topic are the bytes produced.
        assertThat(dead).extracting(ConsumerRecord::value).anySatisfy(v -> assertThat(v).isEqualTo(truncated))
                .anySatisfy(v -> assertThat(v).isEqualTo(unknownSchema)).anySatisfy(v -> assertThat(v).isEqualTo(notUtf8))
                .anySatisfy(v -> assertThat(v).isEqualTo(customer)).anySatisfy(v -> assertThat(v).isEmpty());
        assertThat(dead).allSatisfy(r -> assertThat(TopicReader.header(r, "__streams.errors.topic")).isEqualTo(topic(config)));
        // Where it came from and who set it aside: partition, offset, the source timestamp, rowflow's version.
        assertThat(dead).allSatisfy(r -> {
            assertThat(Integer.parseInt(TopicReader.header(r, "__streams.errors.partition"))).isBetween(0, 3);
            assertThat(Long.parseLong(TopicReader.header(r, "__streams.errors.offset"))).isNotNegative();
            assertThat(TopicReader.header(r, dev.rowflow.pipeline.topology.DeadLetterTopics.VERSION_HEADER))
                    .isEqualTo(dev.rowflow.pipeline.RowflowBuild.version());
        });
        assertThat(dead.stream().map(r -> TopicReader.header(r, "__streams.errors.partition") + "@"
                + TopicReader.header(r, "__streams.errors.offset")).distinct()).hasSize(12);
        assertThat(dead).filteredOn(r -> TopicReader.header(r, "__streams.errors.exception").contains("Serialization"))
                .hasSize(5).anySatisfy(r -> assertThat(new String(r.value(), StandardCharsets.UTF_8))
                        .isEqualTo("this is not avro"));
    }

    @Test
    void shouldRefuseToStartAgainstATableWrittenWithAnotherSaltBucketCountAndWriteNothing() throws Exception {
        RowflowConfig eight = config("it-layout", Map.of());
        RowflowConfig sixteen = config("it-layout", Map.of(RowflowConfig.LOG_DATA_LAYOUT_CONFIG,
                "bucket(16) | timestamp:ts, hostname:text, eventType:text"));
        createTopic(eight);
        try (org.apache.hadoop.hbase.client.Admin admin = connection().getAdmin()) {
            RowflowPipeline.createOrCheck(new dev.rowflow.sinks.hbase.TableAdmin(admin),
                    dev.rowflow.pipeline.ingest.PipelinePlan.build(eight, null));
        }
        try (LogEventProducer producer = LogEventProducer.open(sixteen.kafkaProperties(), topic(sixteen))) {
            producer.sendAll(new LogEventGenerator(3, 5, 1_700_000_000_000L), 100, () -> false);
        }

        assertThatThrownBy(() -> RowflowPipeline.start(sixteen, new SimpleMeterRegistry()))
                .isInstanceOf(org.apache.kafka.common.config.ConfigException.class)
                .hasMessageContaining("keying.layout.log.data")
                .hasMessageContaining("written with key layout 'bucket(8) | timestamp:ts, hostname:text, eventType:text'")
                .hasMessageContaining("configured with 'bucket(16) | timestamp:ts, hostname:text, eventType:text'");
        assertThat(count(sixteen.getString(RowflowConfig.LOG_DATA_TABLE_CONFIG))).isZero();
        assertThat(count(sixteen.getString(RowflowConfig.LOG_INDEX_TABLE_CONFIG))).isZero();
        try (Admin admin = Admin.create(sixteen.kafkaProperties())) {
            assertThat(admin.listConsumerGroupOffsets(sixteen.getString(RowflowConfig.APPLICATION_ID_CONFIG))
                    .partitionsToOffsetAndMetadata().get())
                    .as("no offsets committed").isEmpty();
        }
    }

    @Test
    void shouldBackfillAndVerifyTheIndexOfDataWrittenWithTheIndexOff(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        RowflowConfig config = config("it-backfill", Map.of(RowflowConfig.LOG_INDEX_ENABLED_CONFIG, "false"));
        createTopic(config);
        try (LogEventProducer producer = LogEventProducer.open(config.kafkaProperties(), topic(config))) {
            producer.sendAll(new LogEventGenerator(5, 30, 1_700_000_000_000L), 1_000, () -> false);
        }
        runUntilEverythingCommitted(config, committed -> { });
        assertThat(count(config.getString(RowflowConfig.LOG_INDEX_TABLE_CONFIG))).isZero();
        java.nio.file.Path file = dir.resolve("rowflow.properties");
        java.util.Properties props = new java.util.Properties();
        config.originals().forEach((k, v) -> props.setProperty(k, String.valueOf(v)));
        try (var out = java.nio.file.Files.newOutputStream(file)) {
            props.store(out, null);
        }

        java.io.StringWriter verify = new java.io.StringWriter();
        assertThat(cli(verify).execute("index", "verify", "-c", file.toString())).isEqualTo(1);
        assertThat(verify.toString()).startsWith("data rows 1000, index rows 0, unindexed data rows 1000, "
                + "dangling index rows 0 -- NOT clean");
        java.io.StringWriter backfill = new java.io.StringWriter();
        assertThat(cli(backfill).execute("index", "backfill", "--repair", "-c", file.toString())).isZero();
        assertThat(backfill.toString()).contains("dangling index rows deleted: 0").contains("index rows written: 1000");
        java.io.StringWriter again = new java.io.StringWriter();
        assertThat(cli(again).execute("index", "verify", "-c", file.toString())).isZero();
        assertThat(again.toString()).isEqualTo("data rows 1000, index rows 1000, unindexed data rows 0, "
                + "dangling index rows 0 -- clean\n");
    }

    private static picocli.CommandLine cli(java.io.StringWriter out) {
        picocli.CommandLine cli = dev.rowflow.pipeline.cli.Rowflow.commandLine();
        cli.setOut(new java.io.PrintWriter(out, true));
        return cli;
    }

    @Test
    void shouldLeaveTheTablesByteIdenticalWhenTheSameInputIsConsumedAgain() throws Exception {
        RowflowConfig first = config("it-replay", Map.of());
        createTopic(first);
        try (LogEventProducer producer = LogEventProducer.open(first.kafkaProperties(), topic(first))) {
            producer.sendAll(new LogEventGenerator(21, 40, 1_700_000_000_000L), 3_000, () -> false);
        }
        runUntilEverythingCommitted(first, committed -> { });
        Map<String, String> before = contents(first);

        // A new application id over the same topic and tables: every record is consumed again.
        Map<String, String> overrides = new HashMap<>();
        overrides.put(RowflowConfig.LOGS_TOPIC_CONFIG, topic(first));
        overrides.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, first.getString(RowflowConfig.LOG_DATA_TABLE_CONFIG));
        overrides.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, first.getString(RowflowConfig.LOG_INDEX_TABLE_CONFIG));
        RowflowConfig replay = config("it-replay-again", overrides);
        runUntilEverythingCommitted(replay, committed -> { });

        assertThat(before).hasSize(2 * 3_000);
        assertThat(contents(replay)).isEqualTo(before);
    }

    /** Every visible row of both tables: key -> its cells (family, qualifier, timestamp, value) in hex. */
    private static Map<String, String> contents(RowflowConfig config) throws Exception {
        Map<String, String> contents = new java.util.TreeMap<>();
        for (String table : List.of(config.getString(RowflowConfig.LOG_DATA_TABLE_CONFIG),
                config.getString(RowflowConfig.LOG_INDEX_TABLE_CONFIG))) {
            for (Map.Entry<ByteBuffer, Result> row : scan(table).entrySet()) {
                StringBuilder cells = new StringBuilder();
                for (var cell : row.getValue().rawCells()) {
                    cells.append(Bytes.toHex(org.apache.hadoop.hbase.CellUtil.cloneFamily(cell))).append(':')
                            .append(Bytes.toHex(org.apache.hadoop.hbase.CellUtil.cloneQualifier(cell))).append('@')
                            .append(cell.getTimestamp()).append('=')
                            .append(Bytes.toHex(org.apache.hadoop.hbase.CellUtil.cloneValue(cell))).append(' ');
                }
                contents.put(table + "/" + Bytes.toHex(row.getKey().array()), cells.toString());
            }
        }
        return contents;
    }

    @Test
    void shouldSubstituteHostsAndTypesWithIdsFromTheUidTable() throws Exception {
        RowflowConfig config = config("it-uid", Map.of(RowflowConfig.LOG_DATA_LAYOUT_CONFIG,
                "bucket(4) | timestamp:ts, hostname:uid, eventType:uid", RowflowConfig.UID_TABLE_CONFIG, "it_uid"));
        createTopic(config);
        List<LogEvent> sent = new ArrayList<>();
        LogEventGenerator generator = new LogEventGenerator(99, 25, 1_700_000_000_000L);
        try (LogEventProducer producer = LogEventProducer.open(config.kafkaProperties(), topic(config))) {
            for (int i = 0; i < 500; i++) {
                sent.add(generator.next());
                producer.send(sent.get(i));
            }
        }

        runUntilEverythingCommitted(config, committed -> { });

        Map<ByteBuffer, Result> dataRows = scan(config.getString(RowflowConfig.LOG_DATA_TABLE_CONFIG));
        assertThat(dataRows).hasSize(500);
        {
            var uids = new dev.rowflow.sinks.hbase.HBaseUidStore(connection(), TableName.valueOf("it_uid"));
            var layout = dev.rowflow.pipeline.ingest.LogIngest.rows(config, null).dataLayout();
            for (Result row : dataRows.values()) {
                assertThat(row.getRow()).hasSize(1 + 8 + 8 + 8);
                var fields = layout.decode(row.getRow()).fields();
                assertThat(uids.nameOf("hostname", (Long) fields.get("hostname"))).contains(string(row, "d", "h"));
                assertThat(uids.nameOf("eventType", (Long) fields.get("eventType"))).contains(string(row, "d", "e"));
            }
        }
        assertThat(sent.stream().map(LogEvent::getHostname).distinct().count())
                .as("25 hosts, ids 1..25").isEqualTo(25);
    }

    /** The data row key, computed from the layout spec's javadoc (RowKeyLayout, Salt), not by calling it. */
    private static byte[] expectedDataKey(LogEvent event) throws Exception {
        byte[] host = bytes(event.getHostname());
        byte[] type = bytes(event.getEventType());
        byte[] unsalted = ByteBuffer.allocate(8 + host.length + 1 + type.length)
                .putLong(event.getTimestamp().toEpochMilli()).put(host).put((byte) 0).put(type).array();
        int hash = MurmurHash3.hash32x86(unsalted, 0, unsalted.length, 0);
        return ByteBuffer.allocate(1 + unsalted.length)
                .put((byte) Math.floorMod(hash, SALT_BUCKETS)).put(unsalted).array();
    }

    /** The index row key, computed from the javadoc of the text and rts encodings (KeyEncodings). */
    private static byte[] expectedIndexKey(LogEvent event) {
        byte[] host = bytes(event.getHostname());
        byte[] type = bytes(event.getEventType());
        return ByteBuffer.allocate(host.length + 1 + type.length + 1 + 8)
                .put(host).put((byte) 0).put(type).put((byte) 0)
                .putLong(Long.MAX_VALUE - event.getTimestamp().toEpochMilli()).array();
    }

    private static RowflowConfig config(String test, Map<String, String> overrides) {
        // Kafka is shared by both stores' runs: their topics and groups keep apart by name.
        String name = store == Store.HBASE ? test : test + "-" + store.token();
        Map<String, Object> props = new HashMap<>(stack.rowflowProperties(store.token()));
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, name);
        props.put(RowflowConfig.LOGS_TOPIC_CONFIG, name + "-logs");
        props.put(RowflowConfig.LOGS_DEAD_LETTER_TOPIC_CONFIG, name + "-logs.dead-letter");
        props.put(RowflowConfig.LOG_DATA_TABLE_CONFIG, name.replace('-', '_') + "_data");
        props.put(RowflowConfig.LOG_INDEX_TABLE_CONFIG, name.replace('-', '_') + "_index");
        props.put(RowflowConfig.LOG_DATA_LAYOUT_CONFIG,
                "bucket(" + SALT_BUCKETS + ") | timestamp:ts, hostname:text, eventType:text");
        props.put("kafka.commit.interval.ms", "500");
        props.putAll(overrides);
        return new RowflowConfig(props);
    }

    private static String topic(RowflowConfig config) {
        return config.getString(RowflowConfig.LOGS_TOPIC_CONFIG);
    }

    private static void createTopic(RowflowConfig config) throws Exception {
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, topic(config), Optional.of(4), Duration.ofSeconds(30));
        }
    }

    /**
     * Runs the pipeline until the group has committed every record of the topic, then stops it;
     * on each poll hands {@code whileRunning} the number of records committed so far.
     */
    private static void runUntilEverythingCommitted(RowflowConfig config, CommittedCheck whileRunning)
            throws Exception {
        runUntilEverythingCommitted(config, new SimpleMeterRegistry(), whileRunning);
    }

    /** Runs the pipeline until every record of its topic is committed; returns its status then. */
    private static InstanceStatus runUntilEverythingCommitted(RowflowConfig config, io.micrometer.core.instrument.MeterRegistry
            registry, CommittedCheck whileRunning) throws Exception {
        try (RowflowPipeline pipeline = RowflowPipeline.start(config, registry);
             Admin admin = Admin.create(config.kafkaProperties())) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            long total = KafkaTopics.endOffsets(admin, topic(config)).values().stream().mapToLong(Long::longValue).sum();
            long uncommitted = Long.MAX_VALUE;
            while (System.nanoTime() < deadline && uncommitted != 0) {
                assertThat(pipeline.state()).isNotEqualTo(org.apache.kafka.streams.KafkaStreams.State.ERROR);
                uncommitted = Offsets.uncommitted(admin, config.getString(RowflowConfig.APPLICATION_ID_CONFIG),
                        topic(config));
                whileRunning.check(total - uncommitted);
                if (uncommitted != 0) {
                    Thread.sleep(200);
                }
            }
            assertThat(uncommitted).as("records not committed by the pipeline").isZero();
            // The commit is recorded when commitSync returns, just after the offsets are readable.
            long statusDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            InstanceStatus status = pipeline.status();
            while ((status.lastCommit() == null || status.inputs().get(0).lag() == null
                    || status.inputs().get(0).lag() != 0) && System.nanoTime() < statusDeadline) {
                Thread.sleep(100);
                status = pipeline.status();
            }
            return status;
        }
    }

    @FunctionalInterface
    private interface CommittedCheck {
        void check(long committed) throws Exception;
    }

    private static long count(String table) throws Exception {
        return dev.rowflow.embedded.load.TableRows.count(connection(), table);
    }

    private static Map<ByteBuffer, Result> scan(String table) throws Exception {
        return TableRows.scan(connection(), table);
    }

    private static String string(Result result, String family, String qualifier) {
        byte[] value = result.getValue(bytes(family), bytes(qualifier));
        return value == null ? null : Bytes.toString(value);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
