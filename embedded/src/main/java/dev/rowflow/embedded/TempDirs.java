package dev.rowflow.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Temporary directories of the stack and the benches, removed on close and, as a last resort, at JVM exit. */
public final class TempDirs {
    private TempDirs() {
    }

    public static Path create(String prefix) {
        try {
            Path dir = Files.createTempDirectory(prefix);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir), "delete " + dir));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory", e);
        }
    }

    public static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // Best effort: a file still held open by a stopping server must not fail the shutdown.
        }
    }
}
