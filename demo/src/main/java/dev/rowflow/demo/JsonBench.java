package dev.rowflow.demo;

import dev.rowflow.embedded.load.Offsets;

import com.fasterxml.jackson.core.JsonFactory;
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
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@code rowflow bench --format json}'s (b'): the events of (b) written as JSON objects to a topic
 * of their own and ingested through a declared input that makes the same rows as the log
 * pipeline (its key, index and columns of {@link LogMapping}), timed the same way.
 */
final class JsonBench {
    private static final String TOPIC = "bench-json";
    private static final JsonFactory JSON = new JsonFactory();

    private JsonBench() {
    }

    static BenchCommand.Phase endToEnd(Map<String, Object> benchProps, List<LogEvent> events, PrintWriter err)
            throws Exception {
        Map<String, Object> props = new LinkedHashMap<>(benchProps);
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, "rowflow-bench-json");
        props.put(RowflowConfig.PIPELINES_CONFIG, "");
        props.put(RowflowConfig.INPUTS_CONFIG, "benchjson");
        props.put("input.benchjson.topic", TOPIC);
        props.put("input.benchjson.time", LogMapping.TIME_PATH);
        props.put("input.benchjson.time.format", "epoch-ms");
        props.put("input.benchjson.table", "bench_json_data");
        props.put("input.benchjson.key", String.valueOf(props.get(RowflowConfig.LOG_DATA_LAYOUT_CONFIG)));
        props.put("input.benchjson.columns", LogMapping.COLUMNS);
        props.put("input.benchjson.indexes", "log");
        props.put("input.benchjson.index.log.table", "bench_json_index");
        props.put("input.benchjson.index.log.key", "hostname:text, eventType:text, timestamp:rts");
        if (Boolean.parseBoolean(String.valueOf(props.get(RowflowConfig.LOG_SUMMARY_ENABLED_CONFIG)))) {
            props.put("input.benchjson.summary.key", dev.rowflow.keying.log.LogSummary.LAYOUT);
            props.put("input.benchjson.summary.table", "bench_json_summary");
        }
        RowflowConfig config = new RowflowConfig(props);
        try (Admin admin = Admin.create(config.kafkaProperties())) {
            KafkaTopics.createIfAbsent(admin, TOPIC, Optional.of(4), Duration.ofSeconds(30));
            try (TopicProducer producer = TopicProducer.open(config.kafkaProperties(), TOPIC)) {
                for (LogEvent event : events) {
                    producer.send(event.getHostname(), null, json(event));
                }
                producer.flush();
            }
            try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry())) {
                while (pipeline.state() != KafkaStreams.State.RUNNING) {
                    Thread.sleep(10);
                }
                CpuMeter cpu = new CpuMeter();
                long start = System.nanoTime();
                while (Offsets.uncommitted(admin, "rowflow-bench-json", TOPIC) > 0) {
                    if (System.nanoTime() - start > TimeUnit.MINUTES.toNanos(10)) {
                        throw new IllegalStateException("the pipeline did not finish within 10 minutes");
                    }
                    Thread.sleep(50);
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                long written = 2L * events.size();
                CpuMeter.Usage usage = cpu.stop();
                err.printf("rowflow JSON:        %,d rows in %.1f s, %,.0f rows/s (RUNNING -> last offset committed); "
                        + "%.1f us CPU per row, machine %.0f%% busy%n", written, seconds, written / seconds,
                        usage.microsPerRow(written), usage.machineBusy() * 100);
                err.flush();
                return new BenchCommand.Phase(written / seconds, usage.microsPerRow(written), usage.machineBusy());
            }
        }
    }

    /** The event as a JSON object with the Avro record's field names. */
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
