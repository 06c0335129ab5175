package dev.rowflow.pipeline.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/inputs.md's recipes are the files ShipperRecipesIT runs, word for word; the README's input
 * example is a configuration rowflow accepts.
 */
class ReadmeRecipesTest {

    @Test
    void shouldShowEachRecipeFileAsItIs() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "inputs.md"));
        String cdc = Files.readString(Path.of("..", "docs", "cdc.md"));
        String otel = Files.readString(Path.of("..", "docs", "opentelemetry.md"));
        Map<String, Integer> inputs = Map.of("filebeat", 1, "logstash", 1, "fluent-bit", 1, "vector", 1, "debezium", 1,
                "debezium-join", 2, "otel-collector", 1);
        for (String recipe : List.of("filebeat", "logstash", "fluent-bit", "vector", "debezium", "debezium-join",
                "otel-collector")) {
            String page = recipe.startsWith("debezium") ? cdc : recipe.startsWith("otel") ? otel : doc;
            String file = Files.readString(Path.of("..", "deploy", "recipes", recipe + ".properties"));
            assertThat(page).as("docs shows deploy/recipes/%s.properties", recipe)
                    .contains("```properties\n" + file + "```");
            assertThat(new RowflowConfig(ConfigSources.load(Path.of("..", "deploy", "recipes", recipe + ".properties"),
                    java.util.Map.of())).inputs()).hasSize(inputs.get(recipe));
        }
    }

    @Test
    void shouldShowAnInputExampleInTheReadmeThatRowflowAccepts(@TempDir Path dir) throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf("```properties\n");
        assertThat(start).as("README.md has a properties example").isNotNegative();
        String example = readme.substring(start + "```properties\n".length(), readme.indexOf("```", start + 3));
        Path file = Files.writeString(dir.resolve("rowflow.properties"), example);

        RowflowConfig config = new RowflowConfig(ConfigSources.load(file, java.util.Map.of()));

        assertThat(config.inputs()).hasSize(1);
        assertThat(config.runs(RowflowConfig.LOGS_PIPELINE)).isFalse();
    }
}
