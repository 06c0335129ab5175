package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.format.AvroFormat;
import dev.rowflow.keying.format.DebeziumEnvelope;
import dev.rowflow.keying.format.JsonFormat;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.pipeline.registry.RegistryAvroFormat;
import dev.rowflow.pipeline.registry.SchemaRegistryClient;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The formats {@code mapping suggest} reads records in, each told by its first bytes: the
 * Schema Registry wire format (magic byte 0) with {@code --registry-url}, single-object Avro
 * ({@code C3 01}) with {@code --avro-schema}, JSON otherwise. The declaration takes the format
 * most sampled records were read in.
 */
final class SampleFormats implements AutoCloseable {
    private final JsonFormat json = new JsonFormat();
    private final DebeziumEnvelope jsonChanges = new DebeziumEnvelope(new JsonFormat());
    private final RegistryAvroFormat registry;
    private final DebeziumEnvelope registryChanges;
    private final List<String> registryLines = new ArrayList<>();
    private final AvroFormat avro;
    private final Path avroSchema;
    private final Map<RecordFormat, Long> counts = new java.util.HashMap<>();

    SampleFormats(String topic, List<URI> registryUrls, Path avroSchema, CommandSpec spec) {
        if (registryUrls != null && !registryUrls.isEmpty()) {
            SchemaRegistryClient client = new SchemaRegistryClient(registryUrls, Optional.empty(), null, null,
                    Duration.ofSeconds(10), Duration.ofSeconds(5));
            String subject = topic + "-value";
            org.apache.avro.Schema reader;
            try {
                reader = client.latest(subject);
            } catch (RuntimeException e) { // no such subject: each record read as written
                reader = null;
            }
            registry = new RegistryAvroFormat(client, reader, 1000);
            registryChanges = new DebeziumEnvelope(registry, registry::writerSchema, java.util.Map.of());
            registryLines.add("format=" + RegistryAvroFormat.NAME);
            registryLines.add("registry.url=" + String.join(",", registryUrls.stream().map(URI::toString)
                    .toList()));
            if (reader != null) {
                registryLines.add("registry.reader.subject=" + subject);
            }
        } else {
            registry = null;
            registryChanges = null;
        }
        this.avroSchema = avroSchema;
        if (avroSchema != null) {
            try {
                avro = new AvroFormat(new org.apache.avro.Schema.Parser().parse(avroSchema.toFile()), List.of());
            } catch (java.io.IOException | RuntimeException e) {
                throw new ParameterException(spec.commandLine(), "--avro-schema " + avroSchema
                        + ": cannot be read as an Avro schema: " + e.getMessage());
            }
        } else {
            avro = null;
        }
    }

    /** The format {@code value} is in, by its first bytes. */
    RecordFormat of(byte[] value) {
        if (value.length > 0 && value[0] == 0) {
            if (registry == null) {
                throw new InvalidEventException(Refusal.UNREADABLE,
                        "value", null, "is in the Schema Registry wire format (magic "
                        + "byte 0): sample it with --registry-url");
            }
            return registry;
        }
        if (value.length > 1 && value[0] == (byte) 0xC3 && value[1] == 1) {
            if (avro == null) {
                throw new InvalidEventException(Refusal.UNREADABLE,
                        "value", null, "is single-object Avro (C3 01): sample it with "
                        + "--avro-schema");
            }
            return avro;
        }
        return json;
    }

    /** Counts a record read in {@code format}. */
    void read(RecordFormat format) {
        counts.merge(format, 1L, Long::sum);
    }

    /** The change-event reader over {@code format}. */
    DebeziumEnvelope envelope(RecordFormat format) {
        if (format == registry) {
            return registryChanges;
        }
        if (format == json) {
            return jsonChanges;
        }
        throw new InvalidEventException(Refusal.UNREADABLE,
                "value", null, "is a change event in single-object Avro, which "
                + "envelope=debezium does not read");
    }

    /** The input's format keys: those of the format most records were read in. */
    List<String> declaration() {
        RecordFormat most = counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElse(json);
        if (most == registry) {
            return registryLines;
        }
        if (most == avro) {
            return List.of("format=" + AvroFormat.NAME, "avro.schemas=" + avroSchema);
        }
        return List.of("format=" + JsonFormat.NAME);
    }

    @Override
    public void close() {
        if (registry != null) {
            registry.close();
        }
    }

    /**
     * Whether a record is a Debezium change event: {@code op} and a row image, bare or as the
     * payload of {@code JsonConverter}'s {@code schemas.enable=true} shape.
     */
    static boolean isChange(Map<String, Object> tree) {
        Map<?, ?> event = tree.size() == 2 && tree.get("schema") instanceof Map<?, ?>
                && tree.get("payload") instanceof Map<?, ?> payload ? payload : tree;
        return event.get("op") instanceof String && (event.containsKey("after") || event.containsKey("before"));
    }

    /** A record key as a tree (a JSON object, {@code schemas.enable=true}'s payload), or null. */
    static Map<String, Object> key(byte[] key) {
        if (key == null) {
            return null;
        }
        try {
            Map<String, Object> tree = new JsonFormat().read(key).tree();
            if (tree.size() == 2 && tree.get("schema") instanceof Map<?, ?> && tree.get("payload") instanceof Map<?, ?>) {
                @SuppressWarnings("unchecked")
                Map<String, Object> payload = (Map<String, Object>) tree.get("payload");
                return payload;
            }
            return tree;
        } catch (InvalidEventException e) {
            return null; // not a JSON object: no key columns to take
        }
    }
}
