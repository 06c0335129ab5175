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
        subcommands = {MappingCommand.Check.class, SuggestCommand.class})
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
                List<MappingCheck.Sampled> sampled = new java.util.ArrayList<>();
                sampling.read(spec, config, topic, record -> sampled.add(new MappingCheck.Sampled(record.partition(),
                        record.offset(), record.timestamp(), record.key(), record.value(), record.headers())));
                MappingCheck check = new MappingCheck(topic, inputsOf(plan, sampled),
                        RowLimits.of(HBaseConnections.configuration(config)));
                sampled.forEach(check::add);
                MappingCheck.Report report = check.report();
                print(report, spec.commandLine().getOut());
                return report.collisions() > 0 ? 1 : 0;
            }
        }

        /** The inputs that read the topic: a topic.pattern's makes its input from the first sampled record's key. */
        private List<DeclaredInput> inputsOf(PipelinePlan plan, List<MappingCheck.Sampled> sampled) {
            List<DeclaredInput> inputs;
            try {
                inputs = MappingCheck.inputsOf(plan, topic, sampled.isEmpty() ? null : sampled.get(0).key());
            } catch (InvalidEventException e) {
                throw new ParameterException(spec.commandLine(), "--topic " + topic + ": its topic.pattern's input "
                        + "makes no table of it from the first record: " + e.getMessage());
            }
            if (inputs.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--topic " + topic + ": no declared input reads "
                        + "it (inputs: " + plan.declaredInputNames() + ")");
            }
            return inputs;
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
                root.put("warnings", report.warnings());
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
            report.warnings().forEach(warning -> out.println("warning: " + warning));
            out.flush();
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
