package dev.rowflow.pipeline.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaException;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.SpecVersionDetector;
import com.networknt.schema.ValidationMessage;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.mapping.RecordTree;

import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code json-schema-registry}: JSON in the Schema Registry wire format, as Confluent's
 * {@code KafkaJsonSchemaSerializer} writes it:
 * <pre>
 * byte 0      magic byte, 0
 * bytes 1-4   schema id, big-endian, as the registry assigned it
 * bytes 5-    the record as UTF-8 JSON
 * </pre>
 * The JSON Schema of an id is fetched once with the schemas it refers to, and each record is
 * validated against it with networknt's {@code json-schema-validator}, which implements drafts 4,
 * 6, 7, 2019-09 and 2020-12: the draft the schema's {@code $schema} names, draft 7 (what the
 * registry's serializers write) when it names none. A reference's name is the {@code $ref} that
 * reaches it, resolved against the schema's {@code $id} (or, without one, a base of rowflow's):
 * {@code "$ref": "address.json"} with a reference named {@code address.json}, or an absolute
 * {@code $ref} with a reference of that name. A valid record becomes a record tree as
 * {@code json} reads it.
 *
 * <p>Set aside with the reason (the record's fault): no magic byte, an id the registry does not
 * know (404), an id of a schema that is not a JSON Schema or does not load, a body that is not
 * JSON, a record the schema does not validate -- the validator's messages, each naming the path
 * ({@code $.total: string found, number expected}). Not the record's fault: an unavailable
 * registry, which {@link SchemaRegistryClient} waits out.
 */
public final class RegistryJsonSchemaFormat extends RegistryFormat<JsonSchema> {
    public static final String NAME = "json-schema-registry";
    /** The base a schema without an absolute {@code $id} and its relative references resolve against. */
    private static final URI BASE = URI.create("https://schema-registry.rowflow.invalid/schemas/");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The validator's messages named in a reason; the rest are counted. */
    private static final int MESSAGES_NAMED = 3;

    /** The schema a declaration is checked against at start-up, or null for none. */
    private final JsonNode reader;

    public RegistryJsonSchemaFormat(SchemaRegistryClient registry, int cacheCapacity) {
        this(registry, null, cacheCapacity);
    }

    /**
     * @param reader the JSON Schema field paths and their kinds are checked against at start-up
     *               (records are still validated against their own schema), or null for none
     */
    public RegistryJsonSchemaFormat(SchemaRegistryClient registry, JsonNode reader, int cacheCapacity) {
        super(NAME, registry, cacheCapacity);
        this.reader = reader;
    }

    /**
     * The latest schema of {@code subject}: what a declaration is checked against at start-up.
     *
     * @throws IllegalArgumentException if the subject is unknown, not a JSON Schema, or not JSON
     */
    public static JsonNode latestSchema(SchemaRegistryClient registry, String subject) {
        SchemaRegistryClient.RegisteredSchema schema = registry.latestRegistered(subject);
        if (!schema.type().equals("JSON")) {
            throw new IllegalArgumentException("subject " + subject + " is a " + schema.type() + " schema, not a "
                    + "JSON Schema");
        }
        try {
            return JSON.readTree(schema.text());
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("subject " + subject + " has a JSON Schema that is not JSON: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public Optional<String> cannotYield(dev.rowflow.keying.mapping.FieldPath path) {
        return reader == null ? Optional.empty() : JsonSchemaKinds.cannotYield(reader, path);
    }

    @Override
    public Optional<dev.rowflow.keying.mapping.SchemaKind> kindAt(dev.rowflow.keying.mapping.FieldPath path) {
        return reader == null ? Optional.empty() : JsonSchemaKinds.kindAt(reader, path);
    }

    @Override
    public ReadRecord read(byte[] bytes) {
        int id = schemaId(bytes);
        JsonSchema schema = schema(id);
        byte[] body = Arrays.copyOfRange(bytes, HEADER, bytes.length);
        JsonNode node;
        try {
            node = JSON.readTree(body);
        } catch (IOException e) {
            throw new InvalidEventException(Refusal.UNREADABLE,
                    "value", "(" + bytes.length + " bytes)", "is not JSON after the header "
                    + "of schema id " + id + ": " + (e instanceof JsonProcessingException j ? j.getOriginalMessage()
                    : e.getMessage()));
        }
        Set<ValidationMessage> errors = schema.validate(node);
        if (!errors.isEmpty()) {
            String named = errors.stream().limit(MESSAGES_NAMED).map(ValidationMessage::getMessage)
                    .collect(Collectors.joining("; "));
            throw new InvalidEventException(Refusal.UNREADABLE,
                    "value", "(" + bytes.length + " bytes)", "does not match its JSON Schema, "
                    + "id " + id + ": " + named + (errors.size() > MESSAGES_NAMED
                    ? " (and " + (errors.size() - MESSAGES_NAMED) + " more)" : ""));
        }
        return new ReadRecord(RecordTree.parseJson(body), () -> bytes);
    }

    @Override
    protected JsonSchema build(int id) {
        Fetched fetched = fetch(id, "JSON", "JSON Schema");
        try {
            return load(id, fetched.schema(), fetched.references());
        } catch (IOException | JsonSchemaException | IllegalArgumentException e) {
            throw new InvalidEventException(Refusal.UNREADABLE,
                    "value", "schema id " + id, "has a JSON Schema that cannot be loaded: "
                    + e.getMessage());
        }
    }

    /**
     * The validator of a schema, its references served from memory under the IRIs their names
     * resolve to (the validator fetches nothing itself).
     */
    static JsonSchema load(int id, SchemaRegistryClient.RegisteredSchema schema,
                           Map<String, SchemaRegistryClient.RegisteredSchema> references) throws IOException {
        JsonNode node = JSON.readTree(schema.text());
        URI base = BASE.resolve("ids/" + id + ".json");
        JsonNode declaredId = node.get("$id");
        if (declaredId != null && declaredId.isTextual() && URI.create(declaredId.asText()).isAbsolute()) {
            base = URI.create(declaredId.asText());
        }
        Map<String, String> texts = new HashMap<>();
        for (Map.Entry<String, SchemaRegistryClient.RegisteredSchema> reference : references.entrySet()) {
            texts.put(base.resolve(reference.getKey()).toString(), reference.getValue().text());
        }
        SpecVersion.VersionFlag draft = SpecVersionDetector.detectOptionalVersion(node, false)
                .orElse(SpecVersion.VersionFlag.V7);
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(draft, builder -> builder
                .schemaLoaders(loaders -> loaders.schemas(texts)));
        JsonSchema loaded = factory.getSchema(SchemaLocation.of(base.toString()), node);
        loaded.initializeValidators(); // resolves every $ref now, so a missing one fails here, not per record
        return loaded;
    }
}
