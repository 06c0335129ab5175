package dev.rowflow.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The class-data sharing archive the bench's rowflow runs map, as the image's entrypoint maps its
 * own: the classes of {@code deploy/image/rowflow.classlist} (the image's list, carried in this
 * jar) archived by this JVM's java for this JVM's class path, which the children are started with
 * ({@link ChildJvm}). A class path the JVM cannot archive (a directory of classes, as in a test's)
 * gets none, and the runs load every class from the jars.
 */
final class ClassArchive {
    private ClassArchive() {
    }

    /** The option that maps the archive made in {@code dir}, or none (the reason printed on {@code err}). */
    static List<String> jvmOptions(Path dir, PrintWriter err) throws IOException, InterruptedException {
        return make(dir, err).map(archive -> List.of("-XX:SharedArchiveFile=" + archive)).orElse(List.of());
    }

    private static Optional<Path> make(Path dir, PrintWriter err) throws IOException, InterruptedException {
        Path list = dir.resolve("rowflow.classlist");
        try (InputStream in = ClassArchive.class.getResourceAsStream("/rowflow.classlist")) {
            if (in == null) {
                err.println("bench --external: no rowflow.classlist in the class path: rowflow runs without a class archive");
                return Optional.empty();
            }
            Files.copy(in, list);
        }
        Path archive = dir.resolve("rowflow.jsa");
        Path log = dir.resolve("rowflow-jsa.log");
        Process dump = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:dump", "-XX:SharedClassListFile=" + list, "-XX:SharedArchiveFile=" + archive,
                "-cp", System.getProperty("java.class.path")).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!dump.waitFor(5, TimeUnit.MINUTES) || dump.exitValue() != 0 || !Files.exists(archive)) {
            dump.destroyForcibly();
            List<String> said = Files.readAllLines(log);
            err.printf("bench --external: no class archive for this class path (%s): rowflow runs load every class "
                    + "from the jars%n", said.isEmpty() ? "java -Xshare:dump said nothing" : said.get(said.size() - 1));
            return Optional.empty();
        }
        err.printf("bench --external: rowflow's classes archived for class-data sharing, as the image does (%,d MB)%n",
                Files.size(archive) >> 20);
        return Optional.of(archive);
    }
}
