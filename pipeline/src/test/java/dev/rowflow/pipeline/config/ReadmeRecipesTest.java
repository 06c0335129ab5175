package dev.rowflow.pipeline.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's recipes are the files ShipperRecipesIT runs, word for word. */
class ReadmeRecipesTest {

    @Test
    void shouldShowEachRecipeFileAsItIs() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        for (String recipe : List.of("filebeat", "logstash", "fluent-bit", "vector")) {
            String file = Files.readString(Path.of("..", "deploy", "recipes", recipe + ".properties"));
            assertThat(readme).as("README.md shows deploy/recipes/%s.properties", recipe)
                    .contains("```properties\n" + file + "```");
            assertThat(new RowflowConfig(ConfigSources.load(Path.of("..", "deploy", "recipes", recipe + ".properties"),
                    java.util.Map.of())).inputs()).hasSize(1);
        }
    }
}
