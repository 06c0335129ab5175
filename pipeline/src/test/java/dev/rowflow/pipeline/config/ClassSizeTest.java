package dev.rowflow.pipeline.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each class one job: no source file of any module's {@code src/main} is over {@value #MOST}
 * lines, so a class that grows a second job is split when it does, not an issue later.
 */
class ClassSizeTest {
    private static final int MOST = 450;

    @Test
    void shouldKeepEveryProductionClassWithinItsSize() throws IOException {
        List<String> over = new ArrayList<>();
        int classes = 0;
        try (Stream<Path> modules = Files.list(Path.of(".."))) {
            for (Path module : modules.filter(dir -> Files.isDirectory(dir.resolve("src/main/java"))).toList()) {
                try (Stream<Path> sources = Files.walk(module.resolve("src/main/java"))) {
                    for (Path source : sources.filter(path -> path.toString().endsWith(".java")).toList()) {
                        classes++;
                        long lines;
                        try (Stream<String> text = Files.lines(source)) {
                            lines = text.count();
                        }
                        if (lines > MOST) {
                            over.add(source + " (" + lines + " lines)");
                        }
                    }
                }
            }
        }
        assertThat(classes).as("production classes found").isGreaterThan(200);
        assertThat(over).as("classes over %d lines: split them by job", MOST).isEmpty();
    }
}
