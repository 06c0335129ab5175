package dev.rowflow.demo;

import dev.rowflow.embedded.EmbeddedRegistry;
import dev.rowflow.embedded.load.Offsets;
import dev.rowflow.embedded.load.RegistryWire;

import com.fasterxml.jackson.core.JsonFactory;
import com.google.protobuf.CodedOutputStream;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.log.LogMapping;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.embedded.load.TopicProducer;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * {@code rowflow bench --format json,avro-registry}'s further phases: the events of (b) written in
 * another format to a topic of their own and ingested through a declared input that makes the
 * same rows as the log pipeline (its key, index and columns of {@link LogMapping}), timed the same
 * way -- (b') as JSON objects, (b'') in the Schema Registry wire format, the LogEvent schema
 * registered in a registry (Apicurio) started for the phase, (b''') as Debezium change events
 * (creates, JsonConverter without schemas) whose after image is the JSON object, with full before
 * images (a create writes without reading) or partial ones (each batch of changes reads its rows),
 * or joined by hostname with a table of hosts ({@code join.*}: each change through the foreign-key
 * join's topics, each row read before it is written).
 */
final class InputBench {
    static final List<String> FORMATS = List.of("json", "avro-registry", "protobuf-registry", "debezium",
            "debezium-partial", "debezium-join");
    /** The LogEvent schema as Protobuf: the same field names, the time in epoch ms as Avro has it. */
    static final String LOG_EVENT_PROTO = """
            syntax = "proto3";
            package dev.rowflow.events;
            message LogEvent {
              enum Severity { SEVERITY_UNSET = 0; TRACE = 1; DEBUG = 2; INFO = 3; WARN = 4; ERROR = 5; FATAL = 6; }
              string hostname = 1;
              int64 timestamp = 2;
              string eventType = 3;
              string message = 4;
              optional Severity severity = 5;
              map<string, string> attributes = 6;
            }
            """;
    private static final JsonFactory JSON = new JsonFactory();

    private InputBench() {
    }

    /** One format's phase, and the pipeline's memory on its records where measured. */
    record Result(BenchCommand.Phase phase, PipelineMemory.Result memory) {
    }

    /**
     * Runs the phase of {@code format}; with {@code memoryDir}, then also {@code rowflow run} in a
     * JVM of its own over the same records ({@link PipelineMemory}).
     */
    static Result endToEnd(String format, Map<String, Object> benchProps, List<LogEvent> events, Path memoryDir,
                           PrintWriter err) throws Exception {
        if (format.equals("avro-registry")) {
            try (EmbeddedRegistry registry = EmbeddedRegistry.launch()) {
                int id = registry.register("bench-registry-value", LogEvent.getClassSchema());
                Map<String, Object> props = new LinkedHashMap<>(benchProps);
                props.put("input.benchregistry.registry.url", registry.url());
                props.put("input.benchregistry.registry.reader.subject", "bench-registry-value");
                return endToEnd("benchregistry", format, props, events, event -> RegistryWire.encode(id, event),
                        memoryDir, err);
            }
        }
        if (format.equals("protobuf-registry")) {
            try (EmbeddedRegistry registry = EmbeddedRegistry.launch()) {
                int id = registry.register("bench-protobuf-value", "PROTOBUF", LOG_EVENT_PROTO, List.of());
                Map<String, Object> props = new LinkedHashMap<>(benchProps);
                props.put("input.benchprotobuf.registry.url", registry.url());
                return endToEnd("benchprotobuf", format, props, events, event -> protobuf(id, event), memoryDir, err);
            }
        }
        if (format.startsWith("debezium")) {
            return endToEnd("benchcdc", format, benchProps, events, InputBench::change, memoryDir, err);
        }
        return endToEnd("benchjson", format, benchProps, events, InputBench::json, memoryDir, err);
    }

    private static Result endToEnd(String input, String format, Map<String, Object> benchProps, List<LogEvent> events,
                                   Function<LogEvent, byte[]> encoding, Path memoryDir, PrintWriter err)
            throws Exception {
        String topic = "bench-" + format;
        String group = "rowflow-bench-" + format;
        Map<String, Object> props = new LinkedHashMap<>(benchProps);
        String table = "bench_" + format.replace('-', '_');
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, group);
        declare(props, input, topic, format, table);
        String prefix = "input." + input + ".";
        boolean join = format.equals("debezium-join");
        if (format.startsWith("debezium")) {
            props.put(prefix + "format", "json");
            props.put(prefix + "envelope", "debezium");
            if (!join) {
                props.put(prefix + "before.image", format.equals("debezium") ? "full" : "partial");
            }
        }
        if (join) {
            // The hosts table, joined by hostname; its one column on every event's data row.
            props.put(RowflowConfig.INPUTS_CONFIG, "benchhosts," + input);
            props.put("input.benchhosts.topic", topic + "-hosts");
            props.put("input.benchhosts.envelope", "debezium");
            props.put("input.benchhosts.time", "$source.ts_ms");
            props.put("input.benchhosts.time.format", "epoch-ms");
            props.put("input.benchhosts.table", table + "_hosts");
            props.put("input.benchhosts.key", "hostname:text");
            props.put("input.benchhosts.columns", "datacenter=dc");
            props.put(prefix + "join.input", "benchhosts");
            props.put(prefix + "join.on", "hostname");
            props.put(prefix + "join.field", "hostname");
            props.put(prefix + "join.as", "host");
            props.put(prefix + "columns", LogMapping.COLUMNS + ", host.datacenter=hdc");
        }
        RowflowConfig config = new RowflowConfig(props);
        BenchCommand.Phase phase;
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, topic, Optional.of(4), Duration.ofSeconds(30));
            if (join) {
                KafkaTopics.createIfAbsent(admin, topic + "-hosts", Optional.of(4), Duration.ofSeconds(30));
                try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), topic + "-hosts")) {
                    events.stream().map(LogEvent::getHostname).distinct().forEach(host -> producer.send(host, null,
                            hostChange(host)));
                    producer.flush();
                }
            }
            try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), topic)) {
                long n = 0;
                for (LogEvent event : events) {
                    // A joining input's records are keyed by their row's primary key, one per event.
                    producer.send(join ? event.getHostname() + "/" + n++ : event.getHostname(), null,
                            encoding.apply(event));
                }
                producer.flush();
            }
            try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry())) {
                while (pipeline.state() != KafkaStreams.State.RUNNING) {
                    Thread.sleep(10);
                }
                CpuMeter cpu = new CpuMeter();
                long start = System.nanoTime();
                if (join) {
                    if (!Offsets.awaitCommittedThroughInternalTopics(admin, group, List.of(topic, topic + "-hosts"),
                            3, Duration.ofMinutes(10), committed -> { })) {
                        throw new IllegalStateException("the pipeline did not finish within 10 minutes");
                    }
                }
                while (Offsets.uncommitted(admin, group, topic) > 0) {
                    if (System.nanoTime() - start > TimeUnit.MINUTES.toNanos(10)) {
                        throw new IllegalStateException("the pipeline did not finish within 10 minutes");
                    }
                    Thread.sleep(50);
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                long written = 2L * events.size();
                CpuMeter.Usage usage = cpu.stop();
                err.printf("rowflow %-13s %,d rows in %.1f s, %,.0f rows/s (RUNNING -> last offset committed); "
                        + "%.1f us CPU per row, machine %.0f%% busy%n", format + ":", written, seconds, written / seconds,
                        usage.microsPerRow(written), usage.machineBusy() * 100);
                err.flush();
                phase = new BenchCommand.Phase(written / seconds, usage.microsPerRow(written), usage.machineBusy());
            }
            // A record set aside is committed too: the phase counts only if every event became its row.
            try (org.apache.hadoop.hbase.client.Connection connection =
                         dev.rowflow.pipeline.runtime.HBaseConnections.connect(config)) {
                long rows = dev.rowflow.embedded.load.TableRows.count(connection, table + "_data");
                if (rows != events.size()) {
                    throw new IllegalStateException("format " + format + ": " + rows + " data rows for " + events.size()
                            + " events; see " + topic + ".dead-letter");
                }
            }
        }
        if (memoryDir == null || join) {
            return new Result(phase, null); // a join's memory is its state stores': not what this measures
        }
        // The same records again, by rowflow run in a JVM of its own, into tables of its own.
        Map<String, Object> memoryProps = new LinkedHashMap<>(props);
        memoryProps.put(prefix + "table", table + "_memory_data");
        memoryProps.put(prefix + "index.log.table", table + "_memory_index");
        memoryProps.remove(prefix + "summary.key");
        memoryProps.remove(prefix + "summary.table");
        return new Result(phase, PipelineMemory.measure(memoryProps, topic, events.size(), memoryDir, err));
    }

    /**
     * Replaces the log pipeline of {@code props} by a declared input {@code input} reading
     * {@code topic} in {@code format} that makes the log pipeline's rows: its data key, the index
     * of {@link LogMapping} and its columns (and its summary, if the log summary is on), into
     * tables {@code table_data}, {@code table_index} (and {@code table_summary}).
     */
    static void declare(Map<String, Object> props, String input, String topic, String format, String table) {
        props.put(RowflowConfig.PIPELINES_CONFIG, "");
        props.put(RowflowConfig.INPUTS_CONFIG, input);
        String prefix = "input." + input + ".";
        props.put(prefix + "topic", topic);
        props.put(prefix + "format", format);
        props.put(prefix + "time", LogMapping.TIME_PATH);
        props.put(prefix + "time.format", "epoch-ms");
        props.put(prefix + "table", table + "_data");
        props.put(prefix + "key", String.valueOf(props.getOrDefault(RowflowConfig.LOG_DATA_LAYOUT_CONFIG,
                dev.rowflow.keying.log.LogEventRows.DEFAULT_DATA_LAYOUT)));
        props.put(prefix + "columns", LogMapping.COLUMNS);
        props.put(prefix + "indexes", "log");
        props.put(prefix + "index.log.table", table + "_index");
        props.put(prefix + "index.log.key", String.valueOf(props.getOrDefault(RowflowConfig.LOG_INDEX_LAYOUT_CONFIG,
                dev.rowflow.keying.log.LogEventRows.DEFAULT_INDEX_LAYOUT)));
        if (Boolean.parseBoolean(String.valueOf(props.get(RowflowConfig.LOG_SUMMARY_ENABLED_CONFIG)))) {
            props.put(prefix + "summary.key", dev.rowflow.keying.log.LogSummary.LAYOUT);
            props.put(prefix + "summary.table", table + "_summary");
        }
    }

    /** The event as the after image of a Debezium create, as the JsonConverter writes it without schemas. */
    static byte[] change(LogEvent event) {
        byte[] after = json(event);
        long millis = event.getTimestamp().toEpochMilli();
        byte[] head = "{\"before\":null,\"after\":".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] tail = (",\"source\":{\"connector\":\"postgresql\",\"db\":\"bench\",\"table\":\"events\","
                + "\"ts_ms\":" + millis + "},\"op\":\"c\",\"ts_ms\":" + millis + "}")
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] change = java.util.Arrays.copyOf(head, head.length + after.length + tail.length);
        System.arraycopy(after, 0, change, head.length, after.length);
        System.arraycopy(tail, 0, change, head.length + after.length, tail.length);
        return change;
    }

    /** A host's row as the snapshot read of a Debezium connector, without schemas. */
    private static byte[] hostChange(String host) {
        return ("{\"before\":null,\"after\":{\"hostname\":\"" + host + "\",\"datacenter\":\"dc-" + (host.hashCode() & 3)
                + "\"},\"source\":{\"connector\":\"postgresql\",\"db\":\"bench\",\"table\":\"hosts\",\"ts_ms\":0},"
                + "\"op\":\"r\",\"ts_ms\":0}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The event as a JSON object with the Avro record's field names. */
    /**
     * The event in the Schema Registry wire format as Protobuf of {@link #LOG_EVENT_PROTO}
     * (registered as {@code id}), as Confluent's serializer writes it ({@link RegistryWire#protobuf}).
     */
    static byte[] protobuf(int id, LogEvent event) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try {
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            out.writeString(1, event.getHostname());
            out.writeInt64(2, event.getTimestamp().toEpochMilli());
            out.writeString(3, event.getEventType());
            out.writeString(4, event.getMessage());
            if (event.getSeverity() != null) {
                out.writeEnum(5, event.getSeverity().ordinal() + 1);
            }
            for (Map.Entry<String, String> attribute : event.getAttributes().entrySet()) {
                out.writeTag(6, com.google.protobuf.WireFormat.WIRETYPE_LENGTH_DELIMITED);
                out.writeUInt32NoTag(CodedOutputStream.computeStringSize(1, attribute.getKey())
                        + CodedOutputStream.computeStringSize(2, attribute.getValue()));
                out.writeString(1, attribute.getKey());
                out.writeString(2, attribute.getValue());
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return RegistryWire.protobuf(id, bytes.toByteArray());
    }

    static byte[] json(LogEvent event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("hostname", event.getHostname());
            json.writeNumberField("timestamp", event.getTimestamp().toEpochMilli());
            json.writeStringField("eventType", event.getEventType());
            json.writeStringField("message", event.getMessage());
            if (event.getSeverity() != null) {
                json.writeStringField("severity", event.getSeverity().name());
            }
            json.writeObjectFieldStart("attributes");
            for (Map.Entry<String, String> attribute : event.getAttributes().entrySet()) {
                json.writeStringField(attribute.getKey(), attribute.getValue());
            }
            json.writeEndObject();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
