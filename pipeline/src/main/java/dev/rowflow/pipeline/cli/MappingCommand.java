package dev.rowflow.pipeline.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.format.AvroFormat;
import dev.rowflow.keying.format.DebeziumEnvelope;
import dev.rowflow.keying.format.JsonFormat;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.keying.mapping.MappingSuggestion;
import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.DeclaredInput;
import dev.rowflow.pipeline.ingest.MappingCheck;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.pipeline.registry.RegistryAvroFormat;
import dev.rowflow.pipeline.registry.SchemaRegistryClient;
import dev.rowflow.pipeline.runtime.HBaseConnections;
import dev.rowflow.pipeline.runtime.TopicSample;
import dev.rowflow.sinks.hbase.RowLimits;
import dev.rowflow.pipeline.runtime.TopicSample.From;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** {@code rowflow mapping}: try a declaration on a topic's records before running it. */
@Command(name = "mapping", mixinStandardHelpOptions = true,
        description = "Try the declared inputs of a topic on its records, writing nothing.",
        subcommands = {MappingCommand.Check.class, MappingCommand.Suggest.class})
final class MappingCommand {

    /** How much of a topic the commands read: the options they share. */
    static final class Sampling {
        @Option(names = "--sample", paramLabel = "N", defaultValue = "10000",
                description = "Records to read at most (default: ${DEFAULT-VALUE}).")
        int sample;

        @Option(names = "--from", paramLabel = "start|end", defaultValue = "start",
                description = "Read from the start of every partition, or the last records of each (an equal share "
                        + "of --sample; default: ${DEFAULT-VALUE}).")
        From from;

        @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30",
                description = "Stop reading after this long (default: ${DEFAULT-VALUE} s).")
        int timeoutSeconds;

        /** {@link #sample} with these options. */
        int read(CommandSpec spec, RowflowConfig config, String topic,
                 java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> each) {
            return sample(spec, config, topic, sample, from, Duration.ofSeconds(timeoutSeconds), each);
        }
    }

    /**
     * Reads at most {@code sample} records of {@code topic} (see {@link TopicSample#read}).
     *
     * @return the topic's partitions
     * @throws ParameterException if the topic does not exist
     */
    static int sample(CommandSpec spec, RowflowConfig config, String topic, int sample, From from, Duration timeout,
                      java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> each) {
        return TopicSample.read(config, topic, sample, from, timeout, each).orElseThrow(() ->
                new ParameterException(spec.commandLine(), "--topic " + topic + ": no such topic"));
    }

    /**
     * {@code rowflow mapping check}: samples the topic (every partition from its start, no
     * consumer group, nothing committed) and reports what the declared inputs reading it would
     * make of each record. Exit 0, or 1 when different records would share a data row key.
     */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Run the declared inputs of a topic over a sample of its records without writing "
                    + "anything: records that would become rows, dead letters by reason, key collisions. Exit 1 "
                    + "when records would collide.")
    static final class Check implements Callable<Integer> {
        private static final ObjectMapper JSON = new ObjectMapper();

        @Spec
        CommandSpec spec;

        @Option(names = {"-c", "--config"}, paramLabel = "FILE", required = true,
                description = "Properties file declaring the inputs, as for `rowflow run`.")
        Path configFile;

        @Option(names = "--topic", paramLabel = "TOPIC", required = true,
                description = "The topic whose declared inputs to check.")
        String topic;

        @Mixin
        Sampling sampling;

        @Option(names = "--json", description = "Print the report as one JSON object.")
        boolean json;

        @Override
        public Integer call() throws Exception {
            RowflowConfig config = new RowflowConfig(ConfigSources.load(configFile, System.getenv()));
            try (PipelinePlan plan = PipelinePlan.build(config, new DryRunUids())) {
                List<DeclaredInput> inputs = MappingCheck.inputsOf(plan, topic);
                if (inputs.isEmpty()) {
                    throw new ParameterException(spec.commandLine(), "--topic " + topic + ": no declared input reads "
                            + "it (inputs: " + plan.declaredInputNames() + ")");
                }
                MappingCheck check = new MappingCheck(topic, inputs, RowLimits.of(HBaseConnections.configuration(config)));
                sampling.read(spec, config, topic, record -> check.add(new MappingCheck.Sampled(record.partition(), record.offset(),
                                record.timestamp(), record.key(), record.value(), record.headers())));
                MappingCheck.Report report = check.report();
                print(report, spec.commandLine().getOut());
                return report.collisions() > 0 ? 1 : 0;
            }
        }

        private void print(MappingCheck.Report report, PrintWriter out) throws Exception {
            if (json) {
                Map<String, Object> root = new java.util.LinkedHashMap<>();
                root.put("topic", report.topic());
                root.put("records", report.records());
                root.put("good", report.good());
                root.put("unrouted", report.unrouted());
                root.put("collisions", report.collisions());
                root.put("inputs", report.inputs());
                root.put("deadLetters", report.deadLetters());
                out.println(JSON.writeValueAsString(root));
                out.flush();
                return;
            }
            out.printf("topic %s: %d records read, %d would become rows or deletes, %d set aside, %d taken by no "
                            + "input%n", report.topic(), report.records(), report.good(),
                    report.deadLetters().stream().mapToLong(MappingCheck.Reason::records).sum(), report.unrouted());
            for (MappingCheck.InputReport input : report.inputs()) {
                out.printf("input %s: %d records, %d data rows (%d rows in all), %d deletes, %d tombstones ignored, "
                                + "%d set aside, %d key collisions%s, %d records sent twice%n", input.input(),
                        input.taken(), input.dataRows(), input.rows(), input.deletes(), input.ignored(),
                        input.deadLetters(), input.collisions(),
                        input.collisionAt() == null ? "" : " (first: " + input.collisionAt() + ")", input.duplicates());
            }
            for (MappingCheck.Reason reason : report.deadLetters()) {
                out.printf("set aside %d: %s%n    first at %s: %s%n", reason.records(), reason.reason(),
                        reason.firstAt(), reason.firstMessage());
            }
            out.flush();
        }
    }

    /**
     * {@code rowflow mapping suggest}: samples the topic and prints a declaration of it that
     * {@code rowflow run} takes as it is ({@link MappingSuggestion}), then as comments the sampled
     * records it would set aside and what the sample showed of each field.
     */
    @Command(name = "suggest", mixinStandardHelpOptions = true,
            description = "Sample a topic (JSON, Avro with --registry-url or --avro-schema, Debezium change events) "
                    + "and print a declared input for it: the event time and its "
                    + "formats, a salted time-led key that keeps every sampled record apart, host, service and "
                    + "customer indexes, columns; then the records it would set aside and the fields seen, as "
                    + "comments.")
    static final class Suggest implements Callable<Integer> {
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
        Sampling sampling;

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
            RowflowConfig config = new RowflowConfig(ConfigSources.load(configFile, System.getenv()));
            MappingSuggestion suggestion = new MappingSuggestion();
            AtomicLong tombstones = new AtomicLong();
            Formats formats = new Formats(topic, registryUrls, avroSchema, spec);
            long started = System.nanoTime();
            int partitions;
            try (formats) {
                partitions = sampling.read(spec, config, topic, record -> {
                    String at = record.partition() + "@" + record.offset();
                    if (record.value() == null) {
                        tombstones.incrementAndGet();
                        return;
                    }
                    try {
                        RecordFormat format = formats.of(record.value());
                        Map<String, Object> tree = format.read(record.value()).tree();
                        formats.read(format);
                        if (!isChange(tree)) {
                            suggestion.add(tree, at);
                            return;
                        }
                        ReadRecord change = formats.envelope(format).read(record.value());
                        suggestion.addChange(change.tree(), key(record.key()), change.change().op().code(),
                                change.change().before(), tree, at);
                    } catch (InvalidEventException e) {
                        // By the reason's first clause: a parser's detail (an offset) differs per record.
                        String reason = e.field() + " " + e.reason();
                        suggestion.addRefused(reason.contains(": ") ? reason.substring(0, reason.indexOf(": "))
                                : reason, at);
                    }
                });
            }
            long read = System.nanoTime();
            String name = input != null ? input : topic.replaceAll("[^A-Za-z0-9]", "");
            MappingSuggestion.Suggestion result = suggestion.suggest(name.isEmpty() ? "input" : name, topic,
                    partitions);
            double readSeconds = (read - started) / 1e9;
            double inferSeconds = (System.nanoTime() - read) / 1e9;
            List<MappingSuggestion.SetAside> setAside = result.setAside();
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                Map<String, Object> root = new java.util.LinkedHashMap<>();
                root.put("topic", topic);
                root.put("records", result.records());
                root.put("tombstones", tombstones.get());
                root.put("readSeconds", readSeconds);
                root.put("inferSeconds", inferSeconds);
                root.put("declaration", result.properties(formats.declaration()));
                root.put("time", result.timePath());
                root.put("timeFormats", result.timeFormats());
                root.put("key", result.key());
                root.put("collisions", result.collisions());
                root.put("uniqueWithoutTime", result.unique());
                root.put("indexes", result.indexes());
                root.put("columns", result.columns());
                root.put("setAside", setAside);
                root.put("fields", result.fields());
                root.put("reasons", result.reasons());
                out.println(JSON.writeValueAsString(root));
                out.flush();
                return 0;
            }
            out.print(result.properties(formats.declaration()));
            long aside = setAside.stream().mapToLong(MappingSuggestion.SetAside::records).sum();
            out.printf("#%n# %d records sampled: %d would be %s, %d set aside%s%n", result.records(),
                    result.records() - aside, result.beforeImage() == null ? "rows" : "changes", aside,
                    tombstones.get() == 0 ? "" : "; " + tombstones.get() + " tombstones (null values) ignored");
            out.printf(java.util.Locale.ROOT, "# read in %.2f s, inferred in %.2f s%n", readSeconds, inferSeconds);
            for (MappingSuggestion.SetAside reason : setAside) {
                out.printf("#   %d %s (at %s)%n", reason.records(), reason.reason(), String.join(", ", reason.at()));
            }
            if (explain) {
                out.println("# Why:");
                result.reasons().forEach(reason -> out.println("#   " + reason));
            }
            out.println("# field | present | kinds | distinct | top values | min..max");
            for (MappingSuggestion.Field field : result.fields()) {
                out.printf("#   %s | %d | %s | %s%d | %s%s%n", field.path(), field.present(), field.kinds(),
                        field.distinctCapped() ? ">=" : "", field.distinct(), field.top(), field.min() == null ? ""
                                : " | " + field.min().toPlainString() + ".." + field.max().toPlainString());
            }
            out.flush();
            return 0;
        }
    }

    /**
     * The formats {@code mapping suggest} reads records in, each told by its first bytes: the
     * Schema Registry wire format (magic byte 0) with {@code --registry-url}, single-object Avro
     * ({@code C3 01}) with {@code --avro-schema}, JSON otherwise. The declaration takes the format
     * most sampled records were read in.
     */
    static final class Formats implements AutoCloseable {
        private final JsonFormat json = new JsonFormat();
        private final DebeziumEnvelope jsonChanges = new DebeziumEnvelope(new JsonFormat());
        private final RegistryAvroFormat registry;
        private final DebeziumEnvelope registryChanges;
        private final List<String> registryLines = new ArrayList<>();
        private final AvroFormat avro;
        private final Path avroSchema;
        private final Map<RecordFormat, Long> counts = new java.util.HashMap<>();

        Formats(String topic, List<URI> registryUrls, Path avroSchema, CommandSpec spec) {
            if (registryUrls != null && !registryUrls.isEmpty()) {
                SchemaRegistryClient client = new SchemaRegistryClient(registryUrls, Optional.empty(), null, null,
                        Duration.ofSeconds(10), Duration.ofSeconds(5));
                String subject = topic + "-value";
                org.apache.avro.Schema reader;
                try {
                    reader = client.latest(subject);
                } catch (RuntimeException e) { // no such subject: each record read as written
                    reader = null;
                }
                registry = new RegistryAvroFormat(client, reader, 1000);
                registryChanges = new DebeziumEnvelope(registry, registry::writerSchema);
                registryLines.add("format=" + RegistryAvroFormat.NAME);
                registryLines.add("registry.url=" + String.join(",", registryUrls.stream().map(URI::toString)
                        .toList()));
                if (reader != null) {
                    registryLines.add("registry.reader.subject=" + subject);
                }
            } else {
                registry = null;
                registryChanges = null;
            }
            this.avroSchema = avroSchema;
            if (avroSchema != null) {
                try {
                    avro = new AvroFormat(new org.apache.avro.Schema.Parser().parse(avroSchema.toFile()), List.of());
                } catch (java.io.IOException | RuntimeException e) {
                    throw new ParameterException(spec.commandLine(), "--avro-schema " + avroSchema
                            + ": cannot be read as an Avro schema: " + e.getMessage());
                }
            } else {
                avro = null;
            }
        }

        /** The format {@code value} is in, by its first bytes. */
        RecordFormat of(byte[] value) {
            if (value.length > 0 && value[0] == 0) {
                if (registry == null) {
                    throw new InvalidEventException("value", null, "is in the Schema Registry wire format (magic "
                            + "byte 0): sample it with --registry-url");
                }
                return registry;
            }
            if (value.length > 1 && value[0] == (byte) 0xC3 && value[1] == 1) {
                if (avro == null) {
                    throw new InvalidEventException("value", null, "is single-object Avro (C3 01): sample it with "
                            + "--avro-schema");
                }
                return avro;
            }
            return json;
        }

        /** Counts a record read in {@code format}. */
        void read(RecordFormat format) {
            counts.merge(format, 1L, Long::sum);
        }

        /** The change-event reader over {@code format}. */
        DebeziumEnvelope envelope(RecordFormat format) {
            if (format == registry) {
                return registryChanges;
            }
            if (format == json) {
                return jsonChanges;
            }
            throw new InvalidEventException("value", null, "is a change event in single-object Avro, which "
                    + "envelope=debezium does not read");
        }

        /** The input's format keys: those of the format most records were read in. */
        List<String> declaration() {
            RecordFormat most = counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                    .orElse(json);
            if (most == registry) {
                return registryLines;
            }
            if (most == avro) {
                return List.of("format=" + AvroFormat.NAME, "avro.schemas=" + avroSchema);
            }
            return List.of("format=" + JsonFormat.NAME);
        }

        @Override
        public void close() {
            if (registry != null) {
                registry.close();
            }
        }
    }

    /**
     * Whether a record is a Debezium change event: {@code op} and a row image, bare or as the
     * payload of {@code JsonConverter}'s {@code schemas.enable=true} shape.
     */
    static boolean isChange(Map<String, Object> tree) {
        Map<?, ?> event = tree.size() == 2 && tree.get("schema") instanceof Map<?, ?>
                && tree.get("payload") instanceof Map<?, ?> payload ? payload : tree;
        return event.get("op") instanceof String && (event.containsKey("after") || event.containsKey("before"));
    }

    /** A record key as a tree (a JSON object, {@code schemas.enable=true}'s payload), or null. */
    private static Map<String, Object> key(byte[] key) {
        if (key == null) {
            return null;
        }
        try {
            Map<String, Object> tree = new JsonFormat().read(key).tree();
            if (tree.size() == 2 && tree.get("schema") instanceof Map<?, ?> && tree.get("payload") instanceof Map<?, ?>) {
                @SuppressWarnings("unchecked")
                Map<String, Object> payload = (Map<String, Object>) tree.get("payload");
                return payload;
            }
            return tree;
        } catch (InvalidEventException e) {
            return null; // not a JSON object: no key columns to take
        }
    }

    /**
     * Ids for uid key parts in a dry run: the same name gets the same id within the run, and
     * nothing is stored (so keys compare, but are not the ones the UID table would give).
     */
    static final class DryRunUids implements UidResolver {
        private final Map<String, Long> ids = new ConcurrentHashMap<>();
        private final AtomicLong next = new AtomicLong();

        @Override
        public long idOf(String kind, String name) {
            return ids.computeIfAbsent(kind + '\0' + name, k -> next.incrementAndGet());
        }

        @Override
        public Optional<String> nameOf(String kind, long id) {
            return ids.entrySet().stream().filter(e -> e.getValue() == id && e.getKey().startsWith(kind + '\0'))
                    .map(e -> e.getKey().substring(kind.length() + 1)).findFirst();
        }
    }
}
