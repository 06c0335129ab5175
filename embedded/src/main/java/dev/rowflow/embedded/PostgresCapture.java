package dev.rowflow.embedded;

import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.storage.Converter;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Debezium's PostgreSQL connector (pgoutput) run by Debezium's embedded engine against a real
 * server, writing into Kafka as a Kafka Connect worker does: each change's key and value through a
 * converter, then produced to the change's topic -- once per converter given, each under its own
 * topic prefix (JsonConverter with schemas, without, a registry's Avro converter). A batch is
 * marked processed only once the producer has every record of it, and its offsets are committed to
 * the engine's offsets file after each batch, so a restart resends at most the batch it stopped in
 * (at least once, as a Connect worker).
 */
public final class PostgresCapture implements AutoCloseable {
    /** A converter pair and the prefix of its topics, in place of the connector's {@code topic.prefix}. */
    public record Shape(String prefix, Converter keys, Converter values) {
        public static Shape json(String prefix, boolean schemas) {
            return new Shape(prefix, jsonConverter(schemas, true), jsonConverter(schemas, false));
        }
    }

    private final EmbeddedPostgres postgres;
    private final String database;
    private final Path offsets;
    private final List<Shape> shapes;
    private final KafkaProducer<byte[], byte[]> producer;
    private final org.apache.kafka.clients.admin.Admin admin;
    /** Topics made so far: a Connect worker creates a table's topic before its first change (topic.creation). */
    private final Set<String> created = ConcurrentHashMap.newKeySet();
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final AtomicLong changes = new AtomicLong();
    private DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;
    private ExecutorService runner;
    private volatile Throwable failure;

    public PostgresCapture(EmbeddedPostgres postgres, String database, Path offsets, Map<String, Object> kafka, List<Shape> shapes) {
        this.postgres = postgres;
        this.database = database;
        this.offsets = offsets;
        this.shapes = shapes;
        Map<String, Object> props = new HashMap<>(kafka);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        this.producer = new KafkaProducer<>(props);
        this.admin = org.apache.kafka.clients.admin.Admin.create(kafka);
    }

    private static JsonConverter jsonConverter(boolean schemas, boolean key) {
        JsonConverter converter = new JsonConverter();
        converter.configure(Map.of("schemas.enable", Boolean.toString(schemas)), key);
        return converter;
    }

    /** Starts the connector: a snapshot of the tables first time, else streaming from its offsets. */
    public void start() {
        failure = null;
        Properties props = new Properties();
        props.setProperty("name", "rowflow-it");
        props.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        props.setProperty("offset.storage", "org.apache.kafka.connect.storage.FileOffsetBackingStore");
        props.setProperty("offset.storage.file.filename", offsets.toString());
        // Offsets committed after every batch: a stop right after a batch must not lose the snapshot's
        // completion, or the restarted connector snapshots again -- and a row deleted meanwhile
        // would never be deleted downstream (a snapshot sends no deletes).
        props.setProperty("offset.flush.interval.ms", "0");
        props.setProperty("database.hostname", postgres.host());
        props.setProperty("database.port", Integer.toString(postgres.port()));
        props.setProperty("database.user", EmbeddedPostgres.USER);
        props.setProperty("database.password", "");
        props.setProperty("database.dbname", database);
        props.setProperty("topic.prefix", "shop");
        props.setProperty("plugin.name", "pgoutput");
        props.setProperty("slot.name", "rowflow_it");
        props.setProperty("publication.autocreate.mode", "all_tables");
        props.setProperty("snapshot.mode", "initial");
        props.setProperty("tombstones.on.delete", "true");
        props.setProperty("poll.interval.ms", "100");
        engine = DebeziumEngine.create(ChangeEventFormat.of(io.debezium.embedded.Connect.class))
                .using(props)
                .using(io.debezium.engine.spi.OffsetCommitPolicy.always())
                .notifying(this::handle)
                .using((success, message, error) -> {
                    if (!success && error != null) {
                        failure = error;
                    }
                })
                .build();
        runner = Executors.newSingleThreadExecutor(r -> new Thread(r, "debezium-engine"));
        runner.execute(engine);
    }

    private void handle(List<RecordChangeEvent<SourceRecord>> batch,
                        DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer) throws InterruptedException {
        try {
            for (RecordChangeEvent<SourceRecord> event : batch) {
                SourceRecord record = event.record();
                String table = record.topic().substring(record.topic().indexOf('.') + 1);
                for (Shape shape : shapes) {
                    String topic = shape.prefix() + "." + table;
                    if (created.add(topic)) {
                        createTopic(topic);
                    }
                    byte[] key = shape.keys().fromConnectData(topic, record.keySchema(), record.key());
                    byte[] value = record.value() == null ? null
                            : shape.values().fromConnectData(topic, record.valueSchema(), record.value());
                    producer.send(new ProducerRecord<>(topic, key, value));
                }
                if (record.value() instanceof org.apache.kafka.connect.data.Struct change
                        && change.schema().field("after") != null && change.get("after") instanceof org.apache.kafka.connect.data.Struct after
                        && after.schema().field("name") != null && after.get("name") instanceof String name) {
                    seen.add(name);
                }
                changes.incrementAndGet();
            }
            producer.flush();
            for (RecordChangeEvent<SourceRecord> event : batch) {
                committer.markProcessed(event);
            }
            committer.markBatchFinished();
        } catch (RuntimeException e) {
            failure = e;
            throw e;
        }
    }

    private void createTopic(String topic) {
        try {
            admin.createTopics(Set.of(new org.apache.kafka.clients.admin.NewTopic(topic, 2, (short) 1))).all().get();
        } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
                throw new IllegalStateException("cannot create topic " + topic, e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted creating topic " + topic, e);
        }
    }

    /** Waits (at most 2 minutes) until a change of a row whose {@code name} column is {@code name} was produced. */
    public void awaitName(String name) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!seen.contains(name)) {
            if (failure != null) {
                throw new IllegalStateException("the connector failed", failure);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no change naming '" + name + "' after 2 minutes ("
                        + changes.get() + " changes); the server's log:\n" + postgres.log());
            }
            Thread.sleep(100);
        }
    }

    /** Changes produced so far (each once per shape), restarts counting what they sent again. */
    public long changes() {
        return changes.get();
    }

    /** Stops the connector, its offsets flushed; {@link #start} resumes from them. */
    public void stop() throws Exception {
        if (engine != null) {
            engine.close();
            runner.shutdown();
            if (!runner.awaitTermination(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the connector did not stop");
            }
            engine = null;
            // What the engine reported while stopping (an offset flush interrupted by the stop) is no failure of its run.
            failure = null;
        }
    }

    @Override
    public void close() throws Exception {
        try {
            stop();
        } finally {
            producer.close();
            admin.close();
        }
    }
}
