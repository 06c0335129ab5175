package dev.rowflow.pipeline.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No guarantee loses its test: every row of docs/guarantees.md names, in its "proven by" column,
 * at least one test class, and every test class it names exists and runs in the default
 * {@code mvn verify} (not only in a profile: the benches' {@code *BenchIT} are {@code -Pbench}'s).
 */
class GuaranteesTableTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern TEST_CLASS = Pattern.compile("`([A-Z][A-Za-z0-9]*(?:Test|IT))`");
    /** Test classes the default suite leaves to a profile (the demo module's failsafe excludes). */
    private static final Pattern PROFILE_ONLY = Pattern.compile(".*BenchIT");

    @Test
    void shouldNameATestOfTheDefaultSuiteInEveryRow() throws IOException {
        Set<String> defaultSuite = testClasses();
        List<String> rows = Files.readAllLines(ROOT.resolve("docs/guarantees.md")).stream()
                .filter(line -> line.startsWith("| ") && !line.startsWith("| promise") && !line.startsWith("|---"))
                .toList();
        assertThat(rows).as("rows of docs/guarantees.md").hasSizeGreaterThan(10);
        List<String> problems = new ArrayList<>();
        for (String row : rows) {
            String[] cells = row.split(" \\| ");
            String provenBy = cells[cells.length - 1];
            String promise = cells[0].substring(2, Math.min(cells[0].length(), 80));
            Matcher named = TEST_CLASS.matcher(provenBy);
            int tests = 0;
            while (named.find()) {
                tests++;
                String test = named.group(1);
                if (!defaultSuite.contains(test)) {
                    problems.add("'" + promise + "...' names " + test + ", which no module has");
                } else if (PROFILE_ONLY.matcher(test).matches()) {
                    problems.add("'" + promise + "...' names " + test + ", which runs only in a profile");
                }
            }
            if (tests == 0) {
                problems.add("'" + promise + "...' names no test");
            }
        }
        assertThat(problems).isEmpty();
    }

    /** The simple names of every test class of every module. */
    private static Set<String> testClasses() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT, 12)) {
            return files.filter(file -> file.toString().contains("/src/test/java/"))
                    .map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith("Test.java") || name.endsWith("IT.java"))
                    .map(name -> name.substring(0, name.length() - ".java".length()))
                    .collect(Collectors.toSet());
        }
    }
}
