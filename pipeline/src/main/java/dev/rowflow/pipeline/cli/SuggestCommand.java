package dev.rowflow.pipeline.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.keying.mapping.MappingSuggestion;
import dev.rowflow.keying.mapping.Suggestion;
import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.MappingCheck;
import dev.rowflow.pipeline.ingest.SuggestionCheck;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code rowflow mapping suggest}: samples the topic and prints a declaration of it that
 * {@code rowflow run} takes as it is ({@link MappingSuggestion}), then, as comments, what the
 * declaration makes of every sampled record -- judged by the pipeline's own decision, as
 * {@code mapping check} judges -- the records the inference left out, and what the sample showed
 * of each field.
 */
@Command(name = "suggest", mixinStandardHelpOptions = true,
        description = "Sample a topic (JSON, Avro with --registry-url or --avro-schema, Debezium change events) "
                + "and print a declared input for it: the event time and its "
                + "formats, a salted time-led key that keeps every sampled record apart, host, service and "
                + "customer indexes, columns; then what it makes of every sampled record (as mapping check "
                + "judges) and the fields seen, as comments.")
final class SuggestCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandSpec spec;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", required = true,
            description = "Properties file with the kafka.* settings to read the topic with.")
    Path configFile;

    @Option(names = "--topic", paramLabel = "TOPIC", required = true, description = "The topic to sample.")
    String topic;

    @Option(names = "--input", paramLabel = "NAME",
            description = "The input's name in the declaration (default: the topic's letters and digits).")
    String input;

    @Mixin
    MappingCommand.Sampling sampling;

    @Option(names = "--registry-url", paramLabel = "URL", split = ",",
            description = "Base URLs of a Schema Registry: records in its wire format are read with the writer "
                    + "schema of their id through the latest schema of <topic>-value, as format=avro-registry does.")
    List<URI> registryUrls;

    @Option(names = "--avro-schema", paramLabel = "FILE",
            description = "An .avsc file: single-object Avro records are read with it, as format=avro does.")
    Path avroSchema;

    @Option(names = "--explain", description = "Say why each part of the declaration was chosen.")
    boolean explain;

    @Option(names = "--json", description = "Print the suggestion and the report as one JSON object.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        Map<String, String> loaded = ConfigSources.load(configFile, System.getenv());
        RowflowConfig config = new RowflowConfig(loaded);
        MappingSuggestion suggestion = new MappingSuggestion();
        List<MappingCheck.Sampled> sampled = new ArrayList<>();
        long started = System.nanoTime();
        int partitions;
        String declaredFormat;
        try (SampleFormats formats = new SampleFormats(topic, registryUrls, avroSchema, spec)) {
            partitions = sampling.read(spec, config, topic, record -> {
                sampled.add(new MappingCheck.Sampled(record.partition(), record.offset(), record.timestamp(),
                        record.key(), record.value(), record.headers()));
                add(suggestion, formats, record);
            });
            declaredFormat = String.join("\n", formats.declaration());
        }
        long read = System.nanoTime();
        String name = input != null ? input : topic.replaceAll("[^A-Za-z0-9]", "");
        Suggestion result = suggestion.suggest(name.isEmpty() ? "input" : name, topic, partitions);
        String declaration = result.properties(List.of(declaredFormat.split("\n")));
        double inferSeconds = (System.nanoTime() - read) / 1e9;
        SuggestionCheck.Verified verified = SuggestionCheck.verify(loaded, declaration, topic, sampled,
                new MappingCommand.DryRunUids());
        print(result, declaration, verified, (read - started) / 1e9, inferSeconds);
        return 0;
    }

    /** Reads one sampled record for the inference: an event, a change event, or a record it cannot read. */
    private static void add(MappingSuggestion suggestion, SampleFormats formats, ConsumerRecord<byte[], byte[]> record) {
        String at = record.partition() + "@" + record.offset();
        if (record.value() == null) {
            return; // a tombstone: what it does is the declaration's, checked with the rest
        }
        try {
            RecordFormat format = formats.of(record.value());
            Map<String, Object> tree = format.read(record.value()).tree();
            formats.read(format);
            if (!SampleFormats.isChange(tree)) {
                suggestion.add(tree, at);
                return;
            }
            ReadRecord change = formats.envelope(format).read(record.value());
            suggestion.addChange(change.tree(), SampleFormats.key(record.key()), change.change().op().code(),
                    change.change().before(), tree, at);
        } catch (InvalidEventException e) {
            // By kind, not by the reason's text: a parser's detail (an offset) differs per record.
            suggestion.addRefused(e.field() + ": " + e.refusal().description(), at);
        }
    }

    private void print(Suggestion result, String declaration, SuggestionCheck.Verified verified, double readSeconds,
                       double inferSeconds) throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("topic", topic);
            root.put("records", result.records());
            root.put("tombstones", verified.tombstones());
            root.put("readSeconds", readSeconds);
            root.put("inferSeconds", inferSeconds);
            root.put("declaration", declaration);
            root.put("time", result.timePath());
            root.put("timeFormats", result.timeFormats());
            root.put("key", result.key());
            root.put("collisions", result.collisions());
            root.put("uniqueWithoutTime", result.unique());
            root.put("indexes", result.indexes());
            root.put("columns", result.columns());
            root.put("check", verified.report());
            root.put("outliers", result.outliers());
            root.put("fields", result.fields());
            root.put("reasons", result.reasons());
            out.println(JSON.writeValueAsString(root));
            out.flush();
            return;
        }
        out.print(declaration);
        out.printf("#%n# %d records sampled: %d would be %s, %d set aside%s%n", result.records(),
                verified.written(), result.beforeImage() == null ? "rows" : "changes", verified.setAside(),
                verified.tombstones() == 0 ? "" : "; " + verified.tombstones() + " tombstones (null values) "
                        + verified.tombstonesDo());
        out.printf(Locale.ROOT, "# read in %.2f s, inferred in %.2f s; judged by the pipeline's decision, as "
                + "mapping check judges%n", readSeconds, inferSeconds);
        for (MappingCheck.Reason reason : verified.report().deadLetters()) {
            out.printf("#   %d %s (first at %s)%n", reason.records(), reason.reason(), reason.firstAt());
        }
        verified.report().warnings().forEach(warning -> out.println("# warning: " + warning));
        if (!result.outliers().isEmpty()) {
            out.println("# Left out of the inference (never used to choose):");
            for (Suggestion.Outlier outlier : result.outliers()) {
                out.printf("#   %d %s (at %s)%n", outlier.records(), outlier.reason(), String.join(", ",
                        outlier.at()));
            }
        }
        if (explain) {
            out.println("# Why:");
            result.reasons().forEach(reason -> out.println("#   " + reason));
        }
        out.println("# field | present | kinds | distinct | top values | min..max");
        for (Suggestion.Field field : result.fields()) {
            out.printf("#   %s | %d | %s | %s%d | %s%s%n", field.path(), field.present(), field.kinds(),
                    field.distinctCapped() ? ">=" : "", field.distinct(), field.top(), field.min() == null ? ""
                            : " | " + field.min().toPlainString() + ".." + field.max().toPlainString());
        }
        out.flush();
    }
}
