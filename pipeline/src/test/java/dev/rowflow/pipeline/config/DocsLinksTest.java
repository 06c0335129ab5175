package dev.rowflow.pipeline.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The documentation's relative links reach what they name: every {@code [text](path#anchor)} of the
 * README, {@code docs/} and the modules' READMEs points to a file that exists and, with an anchor,
 * to a heading of that file (GitHub's anchor of it); every alert's {@code runbook_url} points to its
 * section of docs/runbook.md.
 */
class DocsLinksTest {
    private static final Path ROOT = Path.of("..");
    private static final String RUNBOOK_URL = "https://github.com/rowflow/rowflow/blob/main/docs/runbook.md#";

    private static final Pattern FENCE = Pattern.compile("(?m)^ {0,3}(```|~~~).*?^ {0,3}\\1[^\\n]*$", Pattern.DOTALL);
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1", Pattern.DOTALL);
    private static final Pattern LINK = Pattern.compile("!?\\[([^\\]]*)\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern HEADING = Pattern.compile("(?m)^ {0,3}#{1,6}[ \\t]+(.*?)(?:[ \\t]+#+)?[ \\t]*$");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:|^//");

    @Test
    void shouldLinkOnlyToFilesAndHeadingsThatExist() throws IOException {
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : pages()) {
            Matcher link = LINK.matcher(prose(Files.readString(page)));
            while (link.find()) {
                String target = link.group(2);
                if (target.isEmpty() || SCHEME.matcher(target).find()) {
                    continue;
                }
                links++;
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                String where = ROOT.relativize(page) + ": [" + link.group(1) + "](" + target + ")";
                if (!Files.exists(resolved)) {
                    broken.add(where + " -> no file " + ROOT.relativize(resolved));
                } else if (hash >= 0) {
                    String anchor = target.substring(hash + 1);
                    if (!resolved.toString().endsWith(".md")) {
                        broken.add(where + " -> an anchor into a file that is not Markdown");
                    } else if (!anchors(resolved).contains(anchor)) {
                        broken.add(where + " -> no heading #" + anchor + " in " + ROOT.relativize(resolved)
                                + " (its anchors: " + anchors(resolved) + ")");
                    }
                }
            }
        }

        assertThat(links).as("relative links found").isGreaterThan(20);
        assertThat(broken).as("links that reach no file or heading").isEmpty();
    }

    @Test
    void shouldPointEveryAlertAtItsRunbookSection() throws IOException {
        Set<String> sections = anchors(ROOT.resolve("docs/runbook.md"));
        Path rules = ROOT.resolve("helm/rowflow/files/prometheus-rules.yaml");
        List<String> alerts = matches(Pattern.compile("(?m)^\\s*- alert: (\\S+)"), Files.readString(rules));

        for (Path file : List.of(rules, ROOT.resolve("deploy/prometheus/rules.test.yaml"))) {
            List<String> urls = matches(Pattern.compile("runbook_url: \"([^\"]*)\""), Files.readString(file));
            assertThat(urls).as("runbook_urls of %s", file).isNotEmpty();
            for (String url : urls) {
                assertThat(url).as("%s: a runbook_url", file).startsWith(RUNBOOK_URL);
                assertThat(sections).as("%s: %s names a section of docs/runbook.md", file, url)
                        .contains(url.substring(RUNBOOK_URL.length()));
            }
        }
        assertThat(alerts).isNotEmpty();
        assertThat(matches(Pattern.compile("runbook_url: \"" + Pattern.quote(RUNBOOK_URL) + "([^\"]*)\""),
                Files.readString(rules)))
                .as("each alert of %s points at the section named for it", rules)
                .containsExactlyElementsOf(alerts.stream().map(a -> a.toLowerCase(Locale.ROOT)).toList());
    }

    @Test
    void shouldMakeAnchorsAsGitHubDoes() {
        assertThat(slug("`rowflow bench --external`: each process on its own"))
                .isEqualTo("rowflow-bench---external-each-process-on-its-own");
        assertThat(slug("Declared inputs' keys")).isEqualTo("declared-inputs-keys");
        assertThat(slug("How `keys decode` prints values")).isEqualTo("how-keys-decode-prints-values");
        assertThat(slug("Stores: HBase and Bigtable")).isEqualTo("stores-hbase-and-bigtable");
        assertThat(slug("RowflowConsumerLagGrowing")).isEqualTo("rowflowconsumerlaggrowing");
    }

    /** README.md, the modules' READMEs and docs/*.md. */
    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        for (String module : List.of("deploy", "helm")) {
            Path readme = ROOT.resolve(module).resolve("README.md");
            if (Files.exists(readme)) {
                pages.add(readme);
            }
        }
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** The text outside code blocks, with code spans blanked (a link inside code is no link). */
    private static String prose(String markdown) {
        String withoutBlocks = FENCE.matcher(markdown).replaceAll("");
        return CODE_SPAN.matcher(withoutBlocks).replaceAll("code");
    }

    /** GitHub's anchors of a Markdown file's headings, a repeated one numbered -1, -2, ... */
    static Set<String> anchors(Path markdown) throws IOException {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        Matcher heading = HEADING.matcher(FENCE.matcher(Files.readString(markdown)).replaceAll(""));
        while (heading.find()) {
            String slug = slug(heading.group(1));
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            anchors.add(n == 0 ? slug : slug + "-" + n);
        }
        return anchors;
    }

    /** GitHub's slug: the heading's text lower-cased, punctuation dropped, each space a '-'. */
    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\p{M} _-]", "").replace(' ', '-');
    }

    private static List<String> matches(Pattern pattern, String text) {
        List<String> found = new ArrayList<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }
}
