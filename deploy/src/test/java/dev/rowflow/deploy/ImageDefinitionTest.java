package dev.rowflow.deploy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Dockerfile and build-image.sh describe one image: same base, packages, preparation, files,
 * user, environment, port, entrypoint, command and labels. (ImageIT checks a built image.)
 */
class ImageDefinitionTest {

    @Test
    void shouldBuildWithTheScriptWhatTheDockerfileDescribes() throws Exception {
        TreeSet<String> dockerfile = ImageDefinition.ofDockerfile(ImageDefinition.DOCKERFILE);
        TreeSet<String> script = ImageDefinition.ofScript();

        // The values a build supplies: --build-arg in the Dockerfile, computed by the script.
        assertThat(dockerfile).contains("label org.opencontainers.image.version=${VERSION}",
                "label org.opencontainers.image.revision=${REVISION}", "label org.opencontainers.image.created=${CREATED}");
        assertThat(value(script, "label org.opencontainers.image.revision=")).matches("[0-9a-f]{40}|unknown");
        assertThat(value(script, "label org.opencontainers.image.created=")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        assertThat(masked(script)).isEqualTo(masked(dockerfile));

        // What the comparison covers, so that an instruction neither reads is not passed over.
        assertThat(dockerfile.stream().map(l -> l.substring(0, l.indexOf(' '))).collect(Collectors.toSet()))
                .isEqualTo(Set.of("base", "package", "run", "copy", "user", "env", "port", "entrypoint", "cmd", "label"));
        assertThat(dockerfile).contains("base debian bookworm", "package openjdk-17-jre-headless", "user 10001:10001",
                "run deploy/image/prepare-root", "run deploy/image/archive-classes",
                "copy pipeline/target/lib/ /opt/rowflow/lib/", "port 8080",
                "entrypoint [\"java\",\"-XX:SharedArchiveFile=/opt/rowflow/rowflow.jsa\",\"-jar\",\"/opt/rowflow/rowflow-pipeline.jar\"]");
    }

    @Test
    void shouldTellADockerfileThatDiffersFromTheScript(@TempDir Path dir) throws Exception {
        String original = Files.readString(ImageDefinition.DOCKERFILE);
        TreeSet<String> script = masked(ImageDefinition.ofScript());
        for (String[] change : List.of(
                new String[] {"USER 10001:10001", "USER 0:0"},
                new String[] {"FROM debian:bookworm-slim", "FROM eclipse-temurin:17-jre-jammy"},
                new String[] {"--no-install-recommends", ""},
                new String[] {"EXPOSE 8080", "EXPOSE 9090"},
                new String[] {"COPY pipeline/target/lib/ /opt/rowflow/lib/", "COPY pipeline/target/lib/ /opt/lib/"},
                new String[] {"\"-jar\", ", "\"-Xmx1g\", \"-jar\", "},
                new String[] {"sh /tmp/rowflow-image/archive-classes", "true"})) {
            assertThat(original).contains(change[0]);
            Path changed = dir.resolve("Dockerfile");
            Files.writeString(changed, original.replace(change[0], change[1]));
            assertThat(masked(ImageDefinition.ofDockerfile(changed))).as("with %s", change[1]).isNotEqualTo(script);
        }
    }

    @Test
    void shouldSendDockerTheFilesTheImageTakesAndNothingElse() throws Exception {
        List<String> ignore = Files.readAllLines(ImageDefinition.DEPLOY.resolve("Dockerfile.dockerignore"));
        assertThat(ignore).contains("*", "!deploy/image/");
        for (String[] instruction : ImageDefinition.instructions(ImageDefinition.DOCKERFILE)) {
            if (instruction[0].equals("COPY")) {
                assertThat(ignore).contains("!" + instruction[1].split(" ")[0]);
            }
        }
    }

    /** The definition with the values a build supplies replaced by their names. */
    private static TreeSet<String> masked(TreeSet<String> lines) {
        TreeSet<String> masked = new TreeSet<>();
        for (String line : lines) {
            String label = ImageDefinition.BUILD_LABELS.stream().filter(l -> line.startsWith("label " + l + "="))
                    .findFirst().orElse(null);
            masked.add(label == null ? line : "label " + label + "=<supplied by the build>");
        }
        return masked;
    }

    private static String value(Set<String> lines, String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length()))
                .findFirst().orElseThrow(() -> new AssertionError("no " + prefix + " in " + lines));
    }
}
