package dev.rowflow.pipeline.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/configuration.md's tables are generated; this keeps them from drifting from the code. */
class ReadmeConfigurationTest {

    @Test
    void shouldCarryTheTableGeneratedFromTheConfigDefinition() throws Exception {
        Path doc = Path.of("..", "docs", "configuration.md");

        assertThat(Files.readString(doc))
                .as("docs/configuration.md's configuration tables; regenerate them with `./rowflow config`")
                .contains(ConfigDocs.markdownTable())
                .contains(ConfigDocs.inputMarkdownTable());
    }
}
