package dev.rowflow.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A CustomResourceDefinition's OpenAPI v3 schema, checking objects as an API server with strict
 * field validation would: the schema's types, enums, required fields and bounds (networknt, whose
 * draft 4 is what OpenAPI v3's schema object is built on), and no field the schema does not name --
 * structural schemas do not say {@code additionalProperties: false}, the API server prunes or
 * refuses unknown fields by itself, so that part is walked here.
 */
final class CustomResourceSchema {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private final String kind;
    private final JsonNode schema;
    private final JsonSchema validator;

    private CustomResourceSchema(String kind, JsonNode schema) {
        this.kind = kind;
        this.schema = schema;
        this.validator = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(schema);
    }

    /** The schema of the served version {@code version} of the CRD in the class path resource {@code resource}. */
    static CustomResourceSchema load(String resource, String version) {
        try (InputStream in = CustomResourceSchema.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + resource);
            }
            JsonNode crd = YAML.readTree(in);
            for (JsonNode served : crd.path("spec").path("versions")) {
                if (served.path("name").asText().equals(version)) {
                    return new CustomResourceSchema(crd.path("spec").path("names").path("kind").asText(),
                            served.path("schema").path("openAPIV3Schema"));
                }
            }
            throw new IllegalArgumentException(resource + " serves no version " + version);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What is wrong with {@code object}, empty when an API server would take it. */
    List<String> problems(JsonNode object) {
        List<String> problems = new ArrayList<>();
        if (!object.path("kind").asText().equals(kind)) {
            problems.add("kind " + object.path("kind") + " is not " + kind);
        }
        for (ValidationMessage message : validator.validate(object)) {
            problems.add(message.getMessage());
        }
        unknownFields("", object, schema, problems);
        return problems;
    }

    private static void unknownFields(String at, JsonNode value, JsonNode schema, List<String> problems) {
        if (schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false) || at.equals(".metadata")) {
            return;
        }
        if (value.isObject()) {
            JsonNode properties = schema.path("properties");
            JsonNode additional = schema.path("additionalProperties");
            for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                String path = at + "." + field.getKey();
                if (properties.has(field.getKey())) {
                    unknownFields(path, field.getValue(), properties.get(field.getKey()), problems);
                } else if (additional.isObject()) {
                    unknownFields(path, field.getValue(), additional, problems);
                } else {
                    problems.add("unknown field " + path);
                }
            }
        } else if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                unknownFields(at + "[" + i + "]", value.get(i), schema.path("items"), problems);
            }
        }
    }
}
