package dev.rowflow.pipeline.ingest;

import dev.rowflow.keying.format.AvroFormat;
import dev.rowflow.keying.format.DebeziumEnvelope;
import dev.rowflow.keying.format.JsonFormat;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.keying.logical.LogicalType;
import dev.rowflow.pipeline.config.InputConfig;
import dev.rowflow.pipeline.otlp.OtlpLogsFormat;
import dev.rowflow.pipeline.registry.RegistryAvroFormat;
import dev.rowflow.pipeline.registry.RegistryJsonSchemaFormat;
import dev.rowflow.pipeline.registry.RegistryProtobufFormat;
import dev.rowflow.pipeline.registry.SchemaRegistryClient;
import org.apache.avro.Schema;
import org.apache.kafka.common.config.ConfigException;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Opens the format an input declares: reads its {@code .avsc} files, or connects its schema
 * registry client and fetches the reader subject's latest schema. The one place a declaration
 * turns into I/O; {@link PipelinePlan} calls it once per input and start.
 */
final class RecordFormats {
    private RecordFormats() {
    }

    /**
     * @throws ConfigException naming the key, for a schema file that cannot be read, a registry
     *                         that cannot be reached for the reader subject, a trust store that
     *                         cannot be read
     */
    static RecordFormat open(InputConfig input) {
        String name = input.getString(InputConfig.FORMAT);
        Map<String, LogicalType> types = input.declaredTypes();
        if (input.changeEvents()) {
            if (name.equals(JsonFormat.NAME)) {
                return new DebeziumEnvelope(new JsonFormat(), null, types);
            }
            if (name.equals(RegistryAvroFormat.NAME)) {
                RegistryAvroFormat avro = registry(input);
                return new DebeziumEnvelope(avro, avro::writerSchema, types);
            }
            throw new ConfigException(input.key(InputConfig.ENVELOPE), DebeziumEnvelope.NAME, "change events are "
                    + "read from format json (Kafka Connect's JsonConverter, with or without schemas) or avro-registry "
                    + "(a Connect Avro converter through a Schema Registry); " + input.key(InputConfig.FORMAT) + " is "
                    + name);
        }
        if (name.equals(JsonFormat.NAME)) {
            return new JsonFormat();
        }
        if (name.equals(OtlpLogsFormat.PROTO)) {
            return OtlpLogsFormat.proto();
        }
        if (name.equals(OtlpLogsFormat.JSON)) {
            return OtlpLogsFormat.json();
        }
        if (name.equals(RegistryAvroFormat.NAME)) {
            return registry(input);
        }
        if (name.equals(RegistryProtobufFormat.NAME)) {
            SchemaRegistryClient client = registryClient(input);
            String subject = input.getString(InputConfig.REGISTRY_READER_SUBJECT);
            com.google.protobuf.Descriptors.Descriptor reader = null;
            if (!subject.isEmpty()) {
                try {
                    reader = RegistryProtobufFormat.latestMessage(client, subject);
                } catch (RuntimeException e) {
                    throw new ConfigException(input.key(InputConfig.REGISTRY_READER_SUBJECT), subject, e.getMessage());
                }
            }
            return new RegistryProtobufFormat(client, reader, input.getInt(InputConfig.REGISTRY_CACHE_IDS));
        }
        if (name.equals(RegistryJsonSchemaFormat.NAME)) {
            SchemaRegistryClient client = registryClient(input);
            String subject = input.getString(InputConfig.REGISTRY_READER_SUBJECT);
            com.fasterxml.jackson.databind.JsonNode reader = null;
            if (!subject.isEmpty()) {
                try {
                    reader = RegistryJsonSchemaFormat.latestSchema(client, subject);
                } catch (RuntimeException e) {
                    throw new ConfigException(input.key(InputConfig.REGISTRY_READER_SUBJECT), subject, e.getMessage());
                }
            }
            return new RegistryJsonSchemaFormat(client, reader, input.getInt(InputConfig.REGISTRY_CACHE_IDS));
        }
        List<String> files = input.getList(InputConfig.AVRO_SCHEMAS);
        List<Schema> schemas = new ArrayList<>();
        for (String file : files) {
            schemas.add(parse(input, InputConfig.AVRO_SCHEMAS, file));
        }
        try {
            return new AvroFormat(schemas.get(0), schemas.subList(1, schemas.size()));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(input.key(InputConfig.AVRO_SCHEMAS), files.get(0), e.getMessage());
        }
    }

    private static RegistryAvroFormat registry(InputConfig input) {
        SchemaRegistryClient client = registryClient(input);
        String file = input.getString(InputConfig.REGISTRY_READER_SCHEMA);
        String subject = input.getString(InputConfig.REGISTRY_READER_SUBJECT);
        Schema reader = null;
        if (!file.isEmpty()) {
            reader = parse(input, InputConfig.REGISTRY_READER_SCHEMA, file);
        } else if (!subject.isEmpty()) {
            try {
                reader = client.latest(subject);
            } catch (RuntimeException e) {
                throw new ConfigException(input.key(InputConfig.REGISTRY_READER_SUBJECT), subject, e.getMessage());
            }
        }
        try {
            return new RegistryAvroFormat(client, reader, input.getInt(InputConfig.REGISTRY_CACHE_IDS));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(input.key(file.isEmpty() ? InputConfig.REGISTRY_READER_SUBJECT
                    : InputConfig.REGISTRY_READER_SCHEMA), file.isEmpty() ? subject : file, e.getMessage());
        }
    }

    private static SchemaRegistryClient registryClient(InputConfig input) {
        List<URI> urls = input.registryUrls();
        String userInfo = input.getPassword(InputConfig.REGISTRY_BASIC_AUTH_USER_INFO).value();
        String trustStore = input.getString(InputConfig.REGISTRY_TRUSTSTORE_LOCATION);
        try {
            return new SchemaRegistryClient(urls, userInfo.isEmpty() ? Optional.empty() : Optional.of(userInfo),
                    trustStore.isEmpty() ? null : java.nio.file.Path.of(trustStore),
                    input.getPassword(InputConfig.REGISTRY_TRUSTSTORE_PASSWORD).value().toCharArray(),
                    Duration.ofMillis(input.getInt(InputConfig.REGISTRY_REQUEST_TIMEOUT_MS)),
                    Duration.ofMillis(input.getInt(InputConfig.REGISTRY_RETRY_BACKOFF_MAX_MS)));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(input.key(InputConfig.REGISTRY_TRUSTSTORE_LOCATION), trustStore, e.getMessage());
        }
    }

    private static Schema parse(InputConfig input, String key, String file) {
        try {
            return new Schema.Parser().parse(new File(file));
        } catch (IOException | RuntimeException e) {
            throw new ConfigException(input.key(key), file, "cannot be read as an Avro schema: " + e.getMessage());
        }
    }
}
