package dev.rowflow.pipeline.cli;

import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.log.LogEventRows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every refusal of the command line as a script meets it: the production jar in its own JVM, its
 * exit code, its stdout and its stderr (one line starting {@code rowflow: }, a hint to
 * {@code --help} for usage errors, never an exception or a stack frame unless {@code --verbose}).
 * Exit codes: 2 refused (usage, configuration), 1 ran and the answer is no, 0 yes.
 */
class CommandLineIT {
    private static final String LINE = System.lineSeparator();

    record Result(int exit, String out, String err) {
        /** The refusal's message and the hint, nothing else. */
        Result refusedWith(String message, String command) {
            assertThat(exit).as("exit code; stderr: %s", err).isEqualTo(2);
            assertThat(err).isEqualTo("rowflow: " + message + LINE
                    + "Try '" + ("rowflow " + command).strip() + " --help' for more information." + LINE);
            assertThat(out).isEmpty();
            return this;
        }

        Result answeredNo(String message) {
            assertThat(exit).as("exit code; stderr: %s", err).isEqualTo(1);
            assertThat(err).isEqualTo("rowflow: " + message + LINE);
            return this;
        }

        Result ok() {
            assertThat(exit).as("exit code; stderr: %s", err).isZero();
            assertThat(err).isEmpty();
            return this;
        }
    }

    private static Result rowflow(String... args) throws Exception {
        return rowflow(Map.of(), "", args);
    }

    /** {@code java -jar rowflow-pipeline.jar args}, with these environment variables and this stdin. */
    private static Result rowflow(Map<String, String> env, String stdin, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(dev.rowflow.embedded.CrashReports.sameAsThisJvm());
        command.addAll(List.of("-jar", System.getProperty("rowflow.pipeline.jar")));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("ROWFLOW_CONFIG_"));
        builder.environment().putAll(env);
        Process process = builder.start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        try (var in = process.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("rowflow %s ended", List.of(args)).isTrue();
        Result result = new Result(process.exitValue(), out.get(), err.get());
        if (!List.of(args).contains("--verbose")) {
            assertThat(result.err().lines()).as("stderr of rowflow %s", List.of(args))
                    .noneMatch(line -> line.contains("Exception") || line.stripLeading().startsWith("at "));
        }
        return result;
    }

    private static String read(java.io.InputStream stream) {
        try {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void shouldRefuseKeyValuesThePipelineWouldSetAsideWithTheSameReason() throws Exception {
        LogEventRows pipeline = new LogEventRows(RowKeyLayout.parse(LogEventRows.DEFAULT_DATA_LAYOUT, null),
                RowKeyLayout.parse(LogEventRows.DEFAULT_INDEX_LAYOUT, null));
        LogEvent emptyHost = LogEvent.newBuilder().setHostname("").setEventType("login")
                .setTimestamp(Instant.ofEpochMilli(1)).setMessage("m").build();
        LogEvent negativeTime = LogEvent.newBuilder(emptyHost).setHostname("web-01")
                .setTimestamp(Instant.ofEpochMilli(-5)).build();
        String emptyHostReason = reason(() -> pipeline.rowsOf(emptyHost));
        String negativeTimeReason = reason(() -> pipeline.rowsOf(negativeTime));

        rowflow("keys", "encode", "hostname=", "eventType=login", "timestamp=1")
                .refusedWith(emptyHostReason, "keys encode");
        rowflow("keys", "encode", "hostname=web-01", "eventType=login", "timestamp=-5")
                .refusedWith(negativeTimeReason, "keys encode");
        rowflow("keys", "encode", "hostname=web-01", "eventType=login", "timestamp=1.5")
                .refusedWith("invalid timestamp '1.5': is not a whole number of 64 bits", "keys encode");
        rowflow("keys", "encode", "hostname=web-01", "eventType=login", "timestamp=yesterday")
                .refusedWith("invalid timestamp 'yesterday': is neither a whole number (milliseconds) nor an ISO-8601 "
                        + "instant", "keys encode");
        // The values a script pipes in: the first bad line stops it, named by its number.
        Result stdin = rowflow(Map.of(), "hostname=web-01 eventType=login timestamp=1\nhostname=\teventType=x\ttimestamp=2\n",
                "keys", "encode", "--stdin");
        assertThat(stdin.exit()).isEqualTo(2);
        assertThat(stdin.out().lines()).hasSize(1);
        assertThat(stdin.err()).startsWith("rowflow: line 2: " + emptyHostReason + LINE);
    }

    private static String reason(Runnable keying) {
        try {
            keying.run();
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        throw new AssertionError("the pipeline keyed it");
    }

    @Test
    void shouldRefuseWhatNoInputHasAndWhatIsGivenTwice(@TempDir Path dir) throws Exception {
        // A misspelt command, with --help too (picocli would print the parent's help and exit 0).
        rowflow("tables", "nosuch", "--help").refusedWith("unknown command 'nosuch' of rowflow tables (its commands: "
                + "create, describe, update, sql, rekey)", "tables");
        // Without a configuration a layout names its own fields: one it lacks is refused.
        rowflow("keys", "encode", "--layout", "hostnme:text, eventType:text", "hostname=a", "eventType=b")
                .refusedWith("field hostname is not a part of layout hostnme:text, eventType:text", "keys encode");
        // With one, the layout must be one of its inputs could write, as run refuses it.
        Path config = dir.resolve("rowflow.properties");
        Files.writeString(config, "kafka.bootstrap.servers=unused:9092\n");
        rowflow("keys", "encode", "-c", config.toString(), "--layout", "hostnme:text, eventType:text", "hostnme=a",
                "eventType=b")
                .refusedWith("part 'hostnme:text' of layout 'hostnme:text, eventType:text': LogEvent has no field "
                        + "'hostnme' (it has hostname, timestamp, eventType, message, severity, attributes); a declared "
                        + "input's key: --config FILE --input NAME", "keys encode");
        assertThatThrownBy(() -> LogEventRows.checkFields(RowKeyLayout.parse("hostnme:text, eventType:text", null)))
                .as("run refuses the same layout").hasMessageContaining("LogEvent has no field 'hostnme'");

        rowflow("keys", "encode", "-l", "hostname:text, timestamp:ts", "hostname=a", "hostname=b", "timestamp=1")
                .refusedWith("field hostname is given more than once", "keys encode");
        rowflow("keys", "encode", "-l", "hostname:text, hostname:md5", "hostname=a")
                .refusedWith("--layout: layout 'hostname:text, hostname:md5': hostname is in the key twice: a key holds "
                        + "each field once", "keys encode");
        rowflow("keys", "encode", "-l", "hostname:text, timestamp:ts", "hostname=a")
                .refusedWith("missing timestamp=VALUE for part timestamp:ts", "keys encode");
        rowflow("keys", "encode", "-l", "hostname:text, timestamp:ts", "hostname=a", "timestamp=1", "eventType=x")
                .refusedWith("field eventType is not a part of layout hostname:text, timestamp:ts", "keys encode");
        rowflow("keys", "encode", "-l", "hostname:uid, eventType:uid, timestamp:ts", "hostname=a", "eventType=b",
                "timestamp=1").refusedWith("a uid part needs the UID table to turn hostname 'a' into its id: give "
                + "--config FILE (the table is read, never written)", "keys encode");
        rowflow("keys", "encode", "--input", "filebeat", "host.name=a").refusedWith("--input filebeat needs the "
                + "configuration that declares it: give --config FILE", "keys encode");
    }

    @Test
    void shouldDecodeOnlyWhatEncodeWritesAndAnswerNoToAnythingElse() throws Exception {
        String spec = "hostname:text, eventType:text";
        Result nul = rowflow("keys", "decode", "-l", spec, "a\\x00b\\x00c")
                .answeredNo("key a\\x00b\\x00c is not one layout hostname:text, eventType:text writes: offset 3: byte "
                        + "0x00 inside the last part 'eventType:text', and encode refuses NUL in text (it ends parts)");
        assertThat(nul.out()).isEmpty();

        Result written = rowflow("keys", "encode", "hostname=web-01", "eventType=login", "timestamp=1364248490000").ok();
        String key = written.out().strip();
        assertThat(rowflow("keys", "decode", key).ok().out()).contains("(matches the fields)");
        String otherBucket = String.format("\\x%02X", (Integer.parseInt(key.substring(2, 4), 16) + 1) % 16)
                + key.substring(4);
        Result mismatch = rowflow("keys", "decode", otherBucket);
        assertThat(mismatch.exit()).isEqualTo(1);
        assertThat(mismatch.out()).contains("(DOES NOT match the fields)").contains("hostname:text: web-01");
        assertThat(mismatch.err()).startsWith("rowflow: the salt ").contains("did not write this key");

        rowflow("keys", "decode", "abc\\q").refusedWith("KEY 'abc\\q': the backslash at index 3 starts no \\xNN escape "
                + "(two hex digits)", "keys decode");
        rowflow("keys", "decode", "0x0g").refusedWith("KEY '0x0g' is not hex: "
                + reason(() -> java.util.HexFormat.of().parseHex("0g")), "keys decode");
    }

    @Test
    void shouldPrintSplitPointsThatCannotBeMisread(@TempDir Path dir) throws Exception {
        Result splits = rowflow("keys", "splits", "-l", "bucket(64) | timestamp:ts, hostname:text").ok();
        assertThat(splits.out().lines().toList()).hasSize(63).allMatch(line -> line.matches("[A-Za-z0-9._-]|\\\\x[0-9A-F]{2}"))
                .contains("\\x20", "\\x22", "\\x24", "\\x27");
        assertThat(rowflow("keys", "splits", "-l", "bucket(64) | timestamp:ts, hostname:text", "--format", "hex").ok()
                .out().lines()).hasSize(63).contains("20", "22", "24", "27");

        rowflow("keys", "splits", "-l", "hostname:text, timestamp:ts").refusedWith("layout hostname:text, timestamp:ts "
                + "leads with hostname:text, whose bytes are not spread by design: give --samples FILE (field values of "
                + "typical keys) to split at their quantiles", "keys splits");
        Path samples = dir.resolve("hosts.txt");
        Files.writeString(samples, "hostname=a timestamp=0\nhostname=b timestamp=0\nhostname=c timestamp=0\n");
        assertThat(rowflow("keys", "splits", "-l", "hostname:text, timestamp:ts", "--samples", samples.toString(),
                "-r", "3").ok().out().lines()).containsExactly("b\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00",
                "c\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00");
        rowflow("keys", "splits", "-l", "hostname:text, timestamp:ts", "--samples", samples.toString(), "-r", "4")
                .refusedWith("4 regions need at least as many distinct sample keys, got 3", "keys splits");
        rowflow("keys", "splits", "-l", "hostname:text, timestamp:ts", "--samples", dir.resolve("absent").toString())
                .refusedWith("--samples " + dir.resolve("absent") + ": no such file", "keys splits");
    }

    @Test
    void shouldKeepUsageErrorsShortAndFailuresWithoutStackTracesUnlessVerbose(@TempDir Path dir) throws Exception {
        rowflow("keys", "encode", "--bogus").refusedWith("Unknown option: '--bogus'", "keys encode");
        rowflow("keys", "encode").refusedWith("missing FIELD=VALUE arguments (or --stdin)", "keys encode");
        rowflow().refusedWith("Missing required subcommand", "");

        Path directory = Files.createDirectory(dir.resolve("samples"));
        Result failed = rowflow("keys", "splits", "-l", "hostname:text", "--samples", directory.toString());
        assertThat(failed.exit()).isEqualTo(1);
        assertThat(failed.err()).isEqualTo("rowflow: keys splits failed: Is a directory (--verbose prints the stack trace)"
                + LINE);
        Result verbose = rowflow("keys", "splits", "-l", "hostname:text", "--samples", directory.toString(), "--verbose");
        assertThat(verbose.exit()).isEqualTo(1);
        assertThat(verbose.err().lines()).first().isEqualTo("rowflow: keys splits failed: Is a directory");
        assertThat(verbose.err().lines()).anyMatch(line -> line.startsWith("\tat "));
    }

    @Test
    void shouldStopABadConfigurationWithTheKeyAndShowTheEffectiveOne(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("rowflow.properties");
        Files.writeString(file, "kafka.bootstrap.servers=broker:9092\nsink.periodic.flush.ms=-5\n");
        Result bad = rowflow("run", "--config", file.toString());
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).isEqualTo("rowflow: configuration error: Invalid value -5 for configuration "
                + "sink.periodic.flush.ms: Value must be at least 0" + LINE);
        assertThat(rowflow("config", "--effective", "-c", file.toString()).err()).isEqualTo(bad.err());
        assertThat(rowflow("run", "--config", dir.resolve("absent.properties").toString()).err())
                .isEqualTo("rowflow: configuration error: " + dir.resolve("absent.properties")
                        + ": configuration file not found" + LINE);

        Files.writeString(file, "kafka.bootstrap.servers=broker:9092\nkafka.ssl.truststore.password=from-file\n");
        Result effective = rowflow(Map.of("ROWFLOW_CONFIG_APPLICATION_ID", "billing",
                        "ROWFLOW_CONFIG_KAFKA_SASL_JAAS_CONFIG", "ScramLoginModule required password=\"s3cret\";"), "",
                "config", "--effective", "-c", file.toString()).ok();
        assertThat(effective.out().lines())
                .anyMatch(l -> l.matches("application\\.id +billing +env ROWFLOW_CONFIG_APPLICATION_ID"))
                .anyMatch(l -> l.matches("kafka\\.sasl\\.jaas\\.config +\\[hidden] +env ROWFLOW_CONFIG_KAFKA_SASL_JAAS_CONFIG"))
                .anyMatch(l -> l.matches("kafka\\.ssl\\.truststore\\.password +\\[hidden] +file"))
                .anyMatch(l -> l.matches("kafka\\.bootstrap\\.servers +broker:9092 +file"))
                .anyMatch(l -> l.matches("sink\\.periodic\\.flush\\.ms +200 +default"));
        assertThat(effective.out()).doesNotContain("s3cret").doesNotContain("from-file");
    }

    @Test
    void shouldAnswerVersionOnEveryCommand() throws Exception {
        String version = rowflow("--version").ok().out();
        assertThat(version).matches("rowflow \\S+" + LINE);
        for (List<String> command : List.of(List.of("keys"), List.of("keys", "encode"), List.of("config"),
                List.of("index", "verify"), List.of("query", "host"), List.of("run"))) {
            List<String> args = new ArrayList<>(command);
            args.add("--version");
            assertThat(rowflow(args.toArray(new String[0])).ok().out()).as("%s --version", command).isEqualTo(version);
        }
    }
}
