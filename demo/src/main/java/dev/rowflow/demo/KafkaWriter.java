package dev.rowflow.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.events.LogEvent;
import dev.rowflow.events.Severity;
import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.HBaseConnections;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fair peer of {@code rowflow bench --external}: the Kafka-to-HBase client a user would write
 * instead of running rowflow, in a JVM of its own. {@code threads} threads, each a
 * {@link KafkaConsumer} of the group, decoding every record as such a client would (JSON into a
 * Jackson tree, or single-object Avro with the generated class's decoder), making the same rows
 * as rowflow ({@link LogEventRows}) as {@code Put}s through a {@link BufferedMutator} per table of
 * its own, with HBase's client defaults; at-least-once: each thread flushes its mutators and only
 * then commits its offsets, every {@code commitMs} and once all events are read. The tables exist
 * before it starts (the bench creates them split as rowflow splits its own).
 * <pre>
 * java -cp ... dev.rowflow.demo.KafkaWriter CONFIG TOPIC avro|json THREADS TABLE_PREFIX GROUP EVENTS COMMIT_MS
 * </pre>
 * prints {@code CONSUMING} when its first record is read, then {@code RESULT rows=... seconds=...
 * cpuSeconds=... processCpuSeconds=... ...} as {@link RawWriter} does, over the span from its first
 * record to its last row acknowledged by HBase ({@code processCpuSeconds}: the whole process, its
 * start-up included).
 */
final class KafkaWriter {
    private static final ObjectMapper JSON = new ObjectMapper();

    private KafkaWriter() {
    }

    public static void main(String[] args) throws Exception {
        RowflowConfig config = new RowflowConfig(ConfigSources.load(Path.of(args[0]), Map.of()));
        String topic = args[1];
        String format = args[2];
        int threads = Integer.parseInt(args[3]);
        String prefix = args[4];
        String group = args[5];
        long events = Long.parseLong(args[6]);
        long commitMs = Long.parseLong(args[7]);
        LogEventRows rows = dev.rowflow.pipeline.ingest.LogIngest.rows(config, null);
        Map<TableRole, TableName> tables = new HashMap<>();
        dev.rowflow.pipeline.ingest.LogIngest.of(config, null).tables().forEach(table -> tables.put(table.role(),
                TableName.valueOf(prefix + table.definition().name().getNameAsString())));
        // HBase's client defaults (one request in flight per region), as a hand-written client has them.
        org.apache.hadoop.conf.Configuration conf = HBaseConnections.configuration(config);
        conf.setInt(HBaseConnections.PER_REGION_TASKS, HConstants.DEFAULT_HBASE_CLIENT_MAX_PERREGION_TASKS);
        try (Connection connection = ConnectionFactory.createConnection(conf)) {
            AtomicLong read = new AtomicLong();
            AtomicLong written = new AtomicLong();
            AtomicBoolean first = new AtomicBoolean();
            long[] t0 = new long[1];
            ThreadCpu[] cpu0 = new ThreadCpu[1];
            long[] allocated0 = new long[1];
            List<Thread> workers = new ArrayList<>();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < threads; t++) {
                Thread worker = new Thread(() -> {
                    Map<String, Object> props = new HashMap<>();
                    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.kafkaProperties().get("bootstrap.servers"));
                    props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
                    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
                    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
                    Map<TableRole, BufferedMutator> mutators = new HashMap<>();
                    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                            new ByteArrayDeserializer())) {
                        for (Map.Entry<TableRole, TableName> table : tables.entrySet()) {
                            mutators.put(table.getKey(), connection.getBufferedMutator(table.getValue()));
                        }
                        consumer.subscribe(List.of(topic));
                        long lastCommit = System.nanoTime();
                        while (read.get() < events) {
                            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                            if (!records.isEmpty() && first.compareAndSet(false, true)) {
                                t0[0] = System.nanoTime();
                                cpu0[0] = ThreadCpu.self();
                                allocated0[0] = RawWriter.allocatedBytes();
                                System.out.println("CONSUMING");
                                System.out.flush();
                            }
                            for (ConsumerRecord<byte[], byte[]> record : records) {
                                LogEvent event = format.equals("json") ? fromJson(record.value())
                                        : LogEvent.getDecoder().decode(record.value());
                                for (Row row : rows.rowsOf(event)) {
                                    Put put = new Put(row.key(), row.timestamp());
                                    for (Cell cell : row.cells()) {
                                        put.addColumn(cell.family(), cell.qualifier(), row.timestamp(), cell.value());
                                    }
                                    mutators.get(row.table()).mutate(put);
                                    written.incrementAndGet();
                                }
                            }
                            read.addAndGet(records.count());
                            if (System.nanoTime() - lastCommit >= commitMs * 1_000_000L || read.get() >= events) {
                                // At-least-once: the rows of every record polled are in HBase before its offset is committed.
                                for (BufferedMutator mutator : mutators.values()) {
                                    mutator.flush();
                                }
                                consumer.commitSync();
                                lastCommit = System.nanoTime();
                            }
                        }
                        for (BufferedMutator mutator : mutators.values()) {
                            mutator.flush();
                        }
                        consumer.commitSync();
                    } catch (Exception | Error e) {
                        failures.add(e);
                    } finally {
                        for (BufferedMutator mutator : mutators.values()) {
                            try {
                                mutator.close();
                            } catch (IOException e) {
                                failures.add(e);
                            }
                        }
                    }
                }, "kafka-writer-" + t);
                worker.start();
                workers.add(worker);
            }
            // Half-way by events read.
            ThreadCpu.HalfWay halfWay = ThreadCpu.awaitHalfWay(workers, read::get, events / 2, written::get);
            ThreadCpu half = halfWay == null ? null : halfWay.cpu();
            long halfRows = halfWay == null ? 0 : halfWay.rows();
            if (!failures.isEmpty()) {
                failures.get(0).printStackTrace();
                System.exit(1);
            }
            double seconds = (System.nanoTime() - t0[0]) / 1e9;
            ThreadCpu process = ThreadCpu.self();
            ThreadCpu cpu = process.since(cpu0[0]);
            long allocated = RawWriter.allocatedBytes() - allocated0[0];
            long total = written.get();
            ThreadCpu secondHalf = half == null ? cpu : process.since(half);
            System.out.printf("RESULT rows=%d seconds=%.3f cpuSeconds=%.3f jitSeconds=%.3f gcSeconds=%.3f "
                            + "hbaseClientSeconds=%.3f allocatedBytes=%d peakRssMb=%d secondHalfRows=%d "
                            + "secondHalfCpuSeconds=%.3f processCpuSeconds=%.3f%n",
                    total, seconds, cpu.total(), cpu.jit(), cpu.gc(), cpu.hbaseClient(), allocated, RawWriter.peakRssMb(),
                    half == null ? total : total - halfRows, secondHalf.total(), process.total());
            System.out.flush();
        }
        System.exit(0);
    }

    /** The bench's JSON object ({@link InputBench#json}) as an event, read through Jackson's tree. */
    static LogEvent fromJson(byte[] value) {
        try {
            JsonNode tree = JSON.readTree(value);
            Map<String, String> attributes = new HashMap<>();
            JsonNode given = tree.path("attributes");
            for (Iterator<Map.Entry<String, JsonNode>> fields = given.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                attributes.put(field.getKey(), field.getValue().asText());
            }
            JsonNode severity = tree.get("severity");
            return LogEvent.newBuilder()
                    .setHostname(tree.get("hostname").asText())
                    .setTimestamp(Instant.ofEpochMilli(tree.get("timestamp").asLong()))
                    .setEventType(tree.get("eventType").asText())
                    .setMessage(tree.get("message").asText())
                    .setSeverity(severity == null || severity.isNull() ? null : Severity.valueOf(severity.asText()))
                    .setAttributes(new HashMap<>(attributes))
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
