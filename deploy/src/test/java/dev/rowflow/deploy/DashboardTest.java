package dev.rowflow.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Grafana dashboard against a JSON schema of Grafana's dashboard model, generated from
 * {@code @grafana/schema} (deploy/grafana/generate-schema.sh) and committed.
 */
class DashboardTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static JsonSchema schema() throws Exception {
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7)
                .getSchema(JSON.readTree(Path.of("grafana", "dashboard.schema.json").toFile()));
    }

    /** Every PromQL expression of the dashboard's panels. */
    static List<String> expressions() throws Exception {
        List<String> exprs = new ArrayList<>();
        for (JsonNode panel : JSON.readTree(Promtool.DASHBOARD.toFile()).path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                exprs.add(target.path("expr").asText());
            }
        }
        return exprs;
    }

    @Test
    void shouldMatchGrafanasDashboardModel() throws Exception {
        Set<ValidationMessage> errors = schema().validate(JSON.readTree(Promtool.DASHBOARD.toFile()));

        assertThat(errors).isEmpty();
    }

    @Test
    void shouldBeRefusedByTheSchemaWhenBroken() throws Exception {
        ObjectNode broken = (ObjectNode) JSON.readTree(Promtool.DASHBOARD.toFile());
        broken.put("panels", "not a list");
        broken.remove("schemaVersion");

        assertThat(schema().validate(broken)).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void shouldGiveEveryPanelAUniqueIdAndEveryTargetAnExpression() throws Exception {
        Set<Integer> ids = new HashSet<>();
        for (JsonNode panel : JSON.readTree(Promtool.DASHBOARD.toFile()).path("panels")) {
            assertThat(ids.add(panel.path("id").asInt())).as("panel id %s unique", panel.path("id")).isTrue();
            assertThat(panel.path("title").asText()).isNotEmpty();
            if (!panel.path("type").asText().equals("row")) {
                assertThat(panel.path("targets")).as("targets of %s", panel.path("title")).isNotEmpty();
                assertThat(panel.path("description").asText()).as("description of %s", panel.path("title")).isNotEmpty();
            }
        }
        assertThat(expressions()).allSatisfy(e -> assertThat(e).isNotBlank());
    }
}
