package dev.rowflow.pipeline.cli;

import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.Replay;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;

/** Re-reads one input's records of a time range into its tables ({@link Replay}). */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Re-read one input's records of a time range through its current declaration into the same "
                + "tables: the same cells at the same cell timestamps, so a replay run twice changes nothing the "
                + "second time. It runs under its own consumer group (<application.id>-replay-<input>), deleted "
                + "when done; the running pipeline is untouched. A start older than what a topic still keeps is "
                + "refused. Progress on stderr, a summary on stdout."})
final class ReplayCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "Properties file, as for `rowflow run`.")
    Path configFile;

    @Option(names = "--input", required = true, paramLabel = "NAME",
            description = "The input to replay: a declared input's name, or logs.")
    String input;

    @Option(names = "--from", required = true, paramLabel = "TIME", converter = TimeConverter.class,
            description = "The first record time, ISO-8601 (2026-11-28T10:00:00Z, or with an offset) or epoch ms.")
    Instant from;

    @Option(names = "--to", paramLabel = "TIME", converter = TimeConverter.class,
            description = "The end, exclusive, as --from; default: the topics' ends when the replay starts.")
    Instant to;

    @Override
    public Integer call() throws Exception {
        RowflowConfig config = new RowflowConfig(ConfigSources.load(configFile, System.getenv()));
        Replay replay = Replay.of(config, input, from, to);
        PrintWriter err = spec.commandLine().getErr();
        long[] lastPrinted = {0};
        Replay.Summary summary = replay.run(records -> {
            long now = System.nanoTime();
            if (now - lastPrinted[0] > 2_000_000_000L) {
                lastPrinted[0] = now;
                err.printf("replay %s: %,d records%n", input, records);
                err.flush();
            }
        });
        print(summary, spec.commandLine().getOut());
        return 0;
    }

    static void print(Replay.Summary summary, PrintWriter out) {
        out.printf("replayed input %s from %s to %s (consumer group %s, deleted)%n", summary.input(), summary.from(),
                summary.to() == null ? "the topics' ends" : summary.to(), summary.group());
        summary.start().forEach((partition, start) -> out.printf("  %s  offsets %d to %d  (%d)%n", partition, start,
                summary.end().get(partition), summary.end().get(partition) - start));
        out.printf("records in the range: %d; replayed: %d%n", summary.offsets(), summary.records());
        out.printf("rows written: %d; set aside: %d; not taken by its where: %d%n", summary.rows(), summary.deadLetters(),
                summary.filtered());
        out.printf("took %.1f s%n", summary.took().toMillis() / 1000.0);
        out.flush();
    }

    /** ISO-8601 with a zone or offset, or epoch milliseconds. */
    static final class TimeConverter implements ITypeConverter<Instant> {
        @Override
        public Instant convert(String value) {
            if (value.matches("\\d{1,15}")) {
                return Instant.ofEpochMilli(Long.parseLong(value));
            }
            try {
                return OffsetDateTime.parse(value).toInstant();
            } catch (DateTimeParseException e) {
                throw new TypeConversionException("'" + value + "' is not a time: ISO-8601 with a zone "
                        + "(2026-11-28T10:00:00Z, 2026-11-28T11:00:00+01:00) or epoch milliseconds");
            }
        }
    }
}
