package dev.rowflow.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The chart in helm/rowflow, rendered offline with helm-java (embedded Helm). */
final class Chart {
    static final Path DIR = Path.of("..", "helm", "rowflow").toAbsolutePath().normalize();
    static final Path CI_VALUES = DIR.resolve("ci");
    static final String RELEASE = "rowflow";
    static final String NAMESPACE = "ingest";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private Chart() {
    }

    /** {@code helm template rowflow helm/rowflow -n ingest [-f values] [--set k=v...]}. */
    static String template(Path valuesFile, Map<String, Object> set) {
        TemplateCommand template = new Helm(DIR).template().withName(RELEASE).withNamespace(NAMESPACE)
                .withKubeVersion("1.30.0");
        if (valuesFile != null) {
            template = template.withValuesFile(valuesFile);
        }
        for (Map.Entry<String, Object> value : set.entrySet()) {
            template = template.set(value.getKey(), value.getValue());
        }
        return template.call();
    }

    /** The documents of a rendered manifest, empty ones dropped. */
    static List<JsonNode> documents(String manifest) {
        List<JsonNode> docs = new ArrayList<>();
        try (YAMLParser parser = new YAMLFactory().createParser(manifest)) {
            for (JsonNode doc : YAML.readValues(parser, JsonNode.class).readAll()) {
                if (doc != null && !doc.isNull() && !doc.isEmpty()) {
                    docs.add(doc);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("rendered manifest is not YAML", e);
        }
        return docs;
    }
}
