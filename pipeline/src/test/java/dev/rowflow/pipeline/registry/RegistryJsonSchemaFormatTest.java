package dev.rowflow.pipeline.registry;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.ValidationMessage;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * JSON Schemas as the registry holds them, loaded with their references by the names the
 * {@code $ref}s give them, and the validator's messages a record set aside carries.
 */
class RegistryJsonSchemaFormatTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ADDRESS = """
            {"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": "string"}},
             "required": ["city"]}
            """;

    private static SchemaRegistryClient.RegisteredSchema json(String text, String... references) {
        List<SchemaRegistryClient.Reference> refs = new java.util.ArrayList<>();
        for (String name : references) {
            refs.add(new SchemaRegistryClient.Reference(name, name + "-subject", 1));
        }
        return new SchemaRegistryClient.RegisteredSchema("JSON", text, refs);
    }

    private static Set<String> errors(JsonSchema schema, String record) throws Exception {
        return schema.validate(JSON.readTree(record)).stream().map(ValidationMessage::getMessage)
                .collect(Collectors.toSet());
    }

    @Test
    void shouldValidateThroughAReferenceNamedAsItsRelativeRef() throws Exception {
        // Draft 7, as the registry's serializers write it: no $schema, no $id.
        SchemaRegistryClient.RegisteredSchema customer = json("""
                {"type": "object",
                 "properties": {"id": {"type": "integer"}, "address": {"$ref": "address.json"}},
                 "required": ["id"]}
                """, "address.json");
        Map<String, SchemaRegistryClient.RegisteredSchema> references = Map.of("address.json", json(ADDRESS));
        JsonSchema schema = RegistryJsonSchemaFormat.load(7, customer, references);

        assertThat(errors(schema, "{\"id\": 1, \"address\": {\"city\": \"Ghent\"}}")).isEmpty();
        assertThat(errors(schema, "{\"id\": \"one\", \"address\": {\"city\": 9}}"))
                .containsExactlyInAnyOrder("$.id: string found, integer expected",
                        "$.address.city: integer found, string expected");
        assertThat(errors(schema, "{\"address\": {}}"))
                .containsExactlyInAnyOrder("$: required property 'id' not found",
                        "$.address: required property 'city' not found");
    }

    @Test
    void shouldResolveReferencesAgainstTheSchemasOwnIdAndFollowNestedOnes() throws Exception {
        SchemaRegistryClient.RegisteredSchema order = json("""
                {"$schema": "https://json-schema.org/draft/2020-12/schema",
                 "$id": "https://shop.example/schemas/order.json",
                 "type": "object",
                 "properties": {"total": {"$ref": "money.json"}, "ship_to": {"$ref": "address.json"}}}
                """, "money.json", "address.json");
        // money.json refers to currency.json in turn: referencesOf gives it before money.json.
        Map<String, SchemaRegistryClient.RegisteredSchema> references = new LinkedHashMap<>();
        references.put("currency.json", json("{\"type\": \"string\", \"pattern\": \"^[A-Z]{3}$\"}"));
        references.put("money.json", json("""
                {"type": "object", "properties": {"units": {"type": "integer"}, "currency": {"$ref": "currency.json"}}}
                """, "currency.json"));
        references.put("address.json", json(ADDRESS));
        JsonSchema schema = RegistryJsonSchemaFormat.load(8, order, references);

        assertThat(errors(schema, "{\"total\": {\"units\": 5, \"currency\": \"EUR\"}, \"ship_to\": {\"city\": \"Oslo\"}}"))
                .isEmpty();
        assertThat(errors(schema, "{\"total\": {\"units\": 5.5, \"currency\": \"euro\"}}"))
                .containsExactlyInAnyOrder("$.total.units: number found, integer expected",
                        "$.total.currency: does not match the regex pattern ^[A-Z]{3}$");
    }

    @Test
    void shouldRefuseASchemaWhoseReferenceIsNotGiven() throws Exception {
        SchemaRegistryClient.RegisteredSchema customer = json("""
                {"type": "object", "properties": {"address": {"$ref": "address.json"}}}
                """);
        assertThatThrownBy(() -> RegistryJsonSchemaFormat.load(9, customer, Map.of()))
                .hasMessageContaining("address.json");
    }
}
