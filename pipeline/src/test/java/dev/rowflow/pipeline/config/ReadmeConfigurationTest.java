package dev.rowflow.pipeline.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's configuration table is generated; this keeps it from drifting from the code. */
class ReadmeConfigurationTest {

    @Test
    void shouldCarryTheTableGeneratedFromTheConfigDefinition() throws Exception {
        Path readme = Path.of("..", "README.md");

        assertThat(Files.readString(readme))
                .as("README.md's configuration table; regenerate it with `./rowflow config`")
                .contains(ConfigDocs.markdownTable())
                .contains(ConfigDocs.inputMarkdownTable());
    }
}
