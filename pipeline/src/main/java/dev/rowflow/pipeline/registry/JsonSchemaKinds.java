package dev.rowflow.pipeline.registry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.SchemaKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The paths and kinds of values a JSON Schema allows a record, for checking a declaration at
 * start-up: an object's {@code properties} by name, an array's {@code items}; a path is refused
 * only where the schema forbids it ({@code additionalProperties: false}), a kind only where the
 * schema gives one {@code type} (besides {@code null}). Under {@code $ref}, combinators
 * ({@code anyOf}, {@code oneOf}, {@code allOf}) and {@code number} nothing is checked: the records
 * decide.
 */
final class JsonSchemaKinds {
    private JsonSchemaKinds() {
    }

    /** Why no record valid against {@code schema} has a value at {@code path}, or empty. */
    static Optional<String> cannotYield(JsonNode schema, FieldPath path) {
        JsonNode node = schema;
        String at = "$";
        for (Object step : path.steps()) {
            if (node == null || opaque(node)) {
                return Optional.empty();
            }
            List<String> types = types(node);
            if (step instanceof String name) {
                if (!types.isEmpty() && !types.contains("object")) {
                    return Optional.of(at + " is " + String.join(" or ", types) + ", so " + path
                            + " has nothing under it");
                }
                JsonNode property = node.path("properties").get(name);
                if (property == null && node.path("additionalProperties").isBoolean()
                        && !node.path("additionalProperties").asBoolean()) {
                    return Optional.of("the JSON Schema's object at " + at + " has no property '" + name
                            + "' and takes no other");
                }
                node = property;
                at = at + "." + name;
            } else {
                if (!types.isEmpty() && !types.contains("array")) {
                    return Optional.of(at + " is " + String.join(" or ", types) + ", so " + path
                            + " has no element there");
                }
                node = node.get("items");
                at = at + "[" + step + "]";
            }
        }
        return Optional.empty();
    }

    /** What every value at {@code path} of a record valid against {@code schema} is, or empty. */
    static Optional<SchemaKind> kindAt(JsonNode schema, FieldPath path) {
        if (cannotYield(schema, path).isPresent()) {
            return Optional.empty();
        }
        JsonNode node = schema;
        for (Object step : path.steps()) {
            if (node == null || opaque(node)) {
                return Optional.empty();
            }
            node = step instanceof String name ? node.path("properties").get(name) : node.get("items");
        }
        if (node == null || opaque(node)) {
            return Optional.empty();
        }
        List<String> types = types(node);
        return types.size() != 1 ? Optional.empty() : Optional.ofNullable(switch (types.get(0)) {
            case "string" -> SchemaKind.TEXT;
            case "integer" -> SchemaKind.WHOLE_NUMBER;
            case "boolean" -> SchemaKind.BOOLEAN;
            case "object" -> SchemaKind.OBJECT;
            case "array" -> SchemaKind.ARRAY;
            default -> null;
        });
    }

    /** Whether the schema at a node says more than a checker of paths and types reads. */
    private static boolean opaque(JsonNode node) {
        return node.has("$ref") || node.has("anyOf") || node.has("oneOf") || node.has("allOf") || !node.isObject();
    }

    /** The node's types besides null: {@code "type": "string"} or {@code ["string", "null"]}; none if open. */
    private static List<String> types(JsonNode node) {
        JsonNode type = node.get("type");
        List<String> types = new ArrayList<>();
        if (type != null && type.isTextual()) {
            types.add(type.asText());
        } else if (type != null && type.isArray()) {
            type.forEach(t -> types.add(t.asText()));
        }
        types.remove("null");
        return types;
    }
}
