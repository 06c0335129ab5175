package dev.rowflow.deploy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The image definition in one comparable form, from either of its two sources: {@code
 * deploy/Dockerfile} (read here, the way Docker reads its instructions) and {@code
 * deploy/build-image.sh --definition}. Each is a sorted set of lines, {@code <what> <value>}:
 * {@code base}, {@code package}, {@code run} (the two RUNs by their scripts), {@code copy}, {@code user}, {@code env}, {@code
 * port}, {@code entrypoint}, {@code cmd} (JSON arrays, normalized) and {@code label}.
 */
final class ImageDefinition {
    static final Path DEPLOY = Path.of("").toAbsolutePath();
    static final Path PROJECT = DEPLOY.getParent();
    static final Path DOCKERFILE = DEPLOY.resolve("Dockerfile");
    static final Path SCRIPT = DEPLOY.resolve("build-image.sh");
    static final Path PACKAGES = DEPLOY.resolve("image/packages");
    /** What Debian's base images (debian:bookworm-slim among them) set; their only Env. */
    static final String DEBIAN_BASE_PATH = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
    /** Labels whose value the build supplies ({@code --build-arg}; the script computes them). */
    static final List<String> BUILD_LABELS = List.of("org.opencontainers.image.version",
            "org.opencontainers.image.revision", "org.opencontainers.image.created");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SLIM_DEBIAN = Pattern.compile("debian:(\\w+)-slim");
    private static final Pattern PAIR = Pattern.compile("([\\w.-]+)=(\"(?:[^\"\\\\]|\\\\.)*\"|\\S+)");
    /** The one RUN: the packages file installed without Recommends, then prepare-root, both bind-mounted. */
    private static final Pattern INSTALL = Pattern.compile("--mount=type=bind,source=deploy/image,target=(\\S+) "
            + "apt-get update && grep -v '\\^#' \\1/packages \\| xargs apt-get install -y --no-install-recommends "
            + "&& sh \\1/prepare-root");

    /** The RUN after the jars are copied: the class-data sharing archive, its script bind-mounted. */
    private static final Pattern ARCHIVE = Pattern.compile("--mount=type=bind,source=deploy/image,target=(\\S+) "
            + "sh \\1/archive-classes");

    private ImageDefinition() {
    }

    /** The Dockerfile's instructions, continuation lines joined and comments dropped: {keyword, arguments}. */
    static List<String[]> instructions(Path dockerfile) throws IOException {
        List<String[]> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : Files.readAllLines(dockerfile)) {
            String trimmed = line.strip();
            if (trimmed.startsWith("#") || (trimmed.isEmpty() && current.length() == 0)) {
                continue;
            }
            boolean continued = trimmed.endsWith("\\");
            current.append(continued ? trimmed.substring(0, trimmed.length() - 1).strip() : trimmed).append(' ');
            if (!continued) {
                String text = current.toString().strip();
                int space = text.indexOf(' ');
                instructions.add(new String[] {text.substring(0, space).toUpperCase(), text.substring(space + 1).strip()});
                current.setLength(0);
            }
        }
        return instructions;
    }

    /** The definition the Dockerfile gives; {@code ${ARG}} label values stay as written. */
    static TreeSet<String> ofDockerfile(Path dockerfile) throws IOException {
        TreeSet<String> lines = new TreeSet<>();
        for (String[] instruction : instructions(dockerfile)) {
            String args = instruction[1];
            switch (instruction[0]) {
                case "FROM" -> {
                    Matcher slim = SLIM_DEBIAN.matcher(args);
                    lines.add(slim.matches() ? "base debian " + slim.group(1) : "base " + args);
                    if (slim.matches()) {
                        lines.add("env " + DEBIAN_BASE_PATH);
                    }
                }
                case "RUN" -> {
                    if (INSTALL.matcher(args).matches()) {
                        packages().forEach(p -> lines.add("package " + p));
                        lines.add("run deploy/image/prepare-root");
                    } else if (ARCHIVE.matcher(args).matches()) {
                        lines.add("run deploy/image/archive-classes");
                    } else {
                        lines.add("run " + args);
                    }
                }
                case "COPY", "USER", "EXPOSE" -> lines.add(instruction[0].toLowerCase().replace("expose", "port") + " " + args);
                case "ENV", "LABEL" -> pairs(args).forEach((k, v) -> lines.add(
                        (instruction[0].equals("ENV") ? "env " : "label ") + k + "=" + v));
                case "ENTRYPOINT", "CMD" -> lines.add(instruction[0].toLowerCase() + " " + jsonArray(args));
                case "ARG" -> { }
                default -> lines.add(instruction[0].toLowerCase() + " " + args);
            }
        }
        return lines;
    }

    /** The definition build-image.sh builds, as it prints it with {@code --definition}. */
    static TreeSet<String> ofScript() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("bash", SCRIPT.toString(), "--definition").redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new AssertionError("build-image.sh --definition failed:\n" + out);
        }
        TreeSet<String> lines = new TreeSet<>();
        for (String line : out.strip().split("\n")) {
            lines.add(line.startsWith("entrypoint ") || line.startsWith("cmd ")
                    ? line.substring(0, line.indexOf(' ')) + " " + jsonArray(line.substring(line.indexOf(' ') + 1))
                    : line);
        }
        return lines;
    }

    /** The Debian packages of deploy/image/packages. */
    static List<String> packages() throws IOException {
        return Files.readAllLines(PACKAGES).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    }

    /** ENV or LABEL arguments: key=value pairs, double quotes removed. */
    static Map<String, String> pairs(String args) {
        Map<String, String> pairs = new LinkedHashMap<>();
        Matcher m = PAIR.matcher(args);
        while (m.find()) {
            String value = m.group(2);
            if (value.startsWith("\"")) {
                value = value.substring(1, value.length() - 1).replace("\\\"", "\"");
            }
            pairs.put(m.group(1), value);
        }
        return pairs;
    }

    /** An exec-form ENTRYPOINT/CMD as a list. */
    static List<String> list(String json) throws IOException {
        return JSON.readValue(json, new TypeReference<List<String>>() { });
    }

    private static String jsonArray(String json) throws IOException {
        return JSON.writeValueAsString(list(json));
    }
}
