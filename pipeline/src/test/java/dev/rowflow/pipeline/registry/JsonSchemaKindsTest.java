package dev.rowflow.pipeline.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.SchemaKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The paths and kinds a JSON Schema allows, as start-up checks a declaration against a subject's latest. */
class JsonSchemaKindsTest {
    private static final String PAYMENT = """
            {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
             "properties": {
               "id": {"type": "string"}, "amount": {"type": "number"}, "count": {"type": ["integer", "null"]},
               "paid": {"type": "boolean"}, "tags": {"type": "array", "items": {"type": "string"}},
               "card": {"type": "object", "additionalProperties": false,
                        "properties": {"last4": {"type": "string"}}},
               "address": {"$ref": "address.json"}, "note": {}}}
            """;

    private static JsonNode schema() throws Exception {
        return new ObjectMapper().readTree(PAYMENT);
    }

    @Test
    void shouldGiveTheKindsTheSchemaFixesAndRefuseOnlyWhatItForbids() throws Exception {
        assertThat(JsonSchemaKinds.kindAt(schema(), FieldPath.parse("id"))).contains(SchemaKind.TEXT);
        assertThat(JsonSchemaKinds.kindAt(schema(), FieldPath.parse("count"))).contains(SchemaKind.WHOLE_NUMBER);
        assertThat(JsonSchemaKinds.kindAt(schema(), FieldPath.parse("paid"))).contains(SchemaKind.BOOLEAN);
        assertThat(JsonSchemaKinds.kindAt(schema(), FieldPath.parse("tags"))).contains(SchemaKind.ARRAY);
        assertThat(JsonSchemaKinds.kindAt(schema(), FieldPath.parse("tags[0]"))).contains(SchemaKind.TEXT);
        assertThat(JsonSchemaKinds.kindAt(schema(), FieldPath.parse("card"))).contains(SchemaKind.OBJECT);
        assertThat(JsonSchemaKinds.kindAt(schema(), FieldPath.parse("amount"))).isEmpty();
        assertThat(JsonSchemaKinds.kindAt(schema(), FieldPath.parse("address.city"))).isEmpty();
        assertThat(JsonSchemaKinds.kindAt(schema(), FieldPath.parse("note"))).isEmpty();
        assertThat(JsonSchemaKinds.kindAt(schema(), FieldPath.parse("other"))).isEmpty();

        // Other properties are allowed unless the schema says otherwise.
        assertThat(JsonSchemaKinds.cannotYield(schema(), FieldPath.parse("other"))).isEmpty();
        assertThat(JsonSchemaKinds.cannotYield(schema(), FieldPath.parse("card.number")))
                .contains("the JSON Schema's object at $.card has no property 'number' and takes no other");
        assertThat(JsonSchemaKinds.cannotYield(schema(), FieldPath.parse("id.first"))).contains("$.id is string, so "
                + "id.first has nothing under it");
    }
}
