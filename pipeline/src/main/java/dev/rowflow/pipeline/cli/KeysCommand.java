package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.DecodedKey;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.keying.layout.UnknownNameException;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.order.OrderRows;
import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.ingest.DeclaredInput;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.HBaseConnections;
import dev.rowflow.sinks.hbase.HBaseUidStore;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.util.Bytes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code rowflow keys}: row keys by hand. A user debugging a table pastes a key from the HBase
 * shell and sees what it means; or builds the key of given values; or prints split points.
 * Values are checked as the pipeline checks them ({@link EventMapping#keyValue} and the key
 * encodings), so what the pipeline would set aside is refused here with the same reason.
 */
@Command(name = "keys", mixinStandardHelpOptions = true,
        description = {"Encode, decode and split row keys of a layout.",
                "Layout spec: [salt |] field:encoding, ...   salts: bucket(N), bucket(N,hash=f+g), bucket(N,mod=f), "
                        + "hex(W), bin(W); encodings: text md5 long ts rts dec byte int uid.",
                "Keys are printed in the HBase shell's escaping (\\xNN for every byte outside [A-Za-z0-9._-]; paste "
                        + "them inside double quotes) or, with --format hex, as hex digits.",
                "Example: rowflow keys encode --layout 'hex(4) | timestamp:dec' timestamp=1364248490"},
        subcommands = {KeysCommand.Encode.class, KeysCommand.Decode.class, KeysCommand.Splits.class})
final class KeysCommand {

    /** How a key is printed. */
    enum KeyFormat {
        /** The HBase shell's escaping, {@link KeyBytes#toStringBinary}. */
        shell,
        /** Hex digits, two per byte. */
        hex;

        String print(byte[] key) {
            return this == hex ? HexFormat.of().formatHex(key) : KeyBytes.toStringBinary(key);
        }
    }

    /**
     * Which layout: given with {@code --layout}, or the configured one ({@code --config}: the log
     * data table's, or with {@code --input} a declared input's), or the default log data layout.
     * With {@code --config}, uid parts look names up in the UID table (read, never written).
     */
    static class LayoutSource {
        @Spec(Spec.Target.MIXEE)
        CommandSpec spec;

        @Option(names = {"-l", "--layout"}, paramLabel = "SPEC",
                description = "Key layout (default: the configured log data layout, without --config "
                        + LogEventRows.DEFAULT_DATA_LAYOUT + ").")
        String layout;

        @Option(names = {"-c", "--config"}, paramLabel = "FILE",
                description = "Properties file, as for `rowflow run` (ROWFLOW_CONFIG_* variables override it): the "
                        + "configured layouts, and the UID table for uid parts (read, never written).")
        Path configFile;

        @Option(names = "--input", paramLabel = "NAME",
                description = "A declared input (needs --config): its data key, or with --index an index's key.")
        String input;

        @Option(names = "--index", paramLabel = "NAME", description = "Of --input's indexes, this one's key.")
        String index;

        private RowflowConfig config;
        private LazyUids uids;

        /** The layout; {@code checkFields}: refuse fields no input has, as `run` does. */
        RowKeyLayout resolve(boolean checkFields) throws IOException {
            if (configFile != null) {
                config = new RowflowConfig(ConfigSources.load(configFile, System.getenv()));
            }
            uids = new LazyUids(spec, config);
            if (input != null) {
                return declared();
            }
            if (index != null) {
                throw usage("--index names an index of a declared input: give --input NAME too");
            }
            String layoutSpec = layout != null ? layout
                    : config != null ? config.getString(RowflowConfig.LOG_DATA_LAYOUT_CONFIG)
                    : LogEventRows.DEFAULT_DATA_LAYOUT;
            RowKeyLayout parsed;
            try {
                parsed = RowKeyLayout.parse(layoutSpec, uids);
            } catch (IllegalArgumentException e) {
                throw usage("--layout: " + e.getMessage());
            }
            return checkFields ? checkFields(parsed) : parsed;
        }

        /** The layout must be one `run` takes: over LogEvent fields, or the order layout. */
        private RowKeyLayout checkFields(RowKeyLayout parsed) {
            try {
                return LogEventRows.checkFields(parsed);
            } catch (IllegalArgumentException notALogLayout) {
                if (parsed.parts().stream().anyMatch(p -> p.field().equals("customerNumber"))) {
                    try {
                        return OrderRows.checkLayout(parsed);
                    } catch (IllegalArgumentException notAnOrderLayout) {
                        throw usage(notAnOrderLayout.getMessage());
                    }
                }
                throw usage(notALogLayout.getMessage() + "; a declared input's key: --config FILE --input NAME");
            }
        }

        private RowKeyLayout declared() {
            if (config == null) {
                throw usage("--input " + input + " needs the configuration that declares it: give --config FILE");
            }
            if (layout != null) {
                throw usage("--layout and --input both name a layout: give one");
            }
            // The plan is closed at once: a layout needs neither the format nor a registry once compiled.
            try (PipelinePlan plan = PipelinePlan.build(config, uids)) {
                DeclaredInput declared = plan.declaredInput(input).orElseThrow(() -> usage("--input " + input
                        + ": no such input in the configuration (inputs: " + plan.declaredInputNames() + ")"));
                if (index == null) {
                    return declared.mapping().dataLayout();
                }
                TableRole role = declared.indexes().get(index);
                if (role == null) {
                    throw usage("--index " + index + ": input " + input + " has the indexes "
                            + List.copyOf(declared.indexes().keySet()));
                }
                return declared.mapping().tableLayouts().get(role);
            }
        }

        /** The name of an id in the UID table, if --config reaches one. */
        Optional<String> nameOf(String kind, long id) {
            return config != null ? uids.nameOf(kind, id) : Optional.empty();
        }

        void close() throws IOException {
            if (uids != null) {
                uids.close();
            }
        }

        ParameterException usage(String message) {
            return new ParameterException(spec.commandLine(), message);
        }
    }

    /**
     * The UID table, connected on first use (a layout without uid parts never needs HBase) and
     * only read: `keys` never assigns an id.
     */
    private static final class LazyUids implements UidResolver {
        private final CommandSpec spec;
        private final RowflowConfig config;
        private Connection connection;
        private UidResolver store;

        LazyUids(CommandSpec spec, RowflowConfig config) {
            this.spec = spec;
            this.config = config;
        }

        @Override
        public long idOf(String kind, String name) {
            return store(kind, name).idOf(kind, name);
        }

        @Override
        public Optional<String> nameOf(String kind, long id) {
            return store(kind, String.valueOf(id)).nameOf(kind, id);
        }

        private UidResolver store(String kind, String name) {
            if (store == null) {
                if (config == null) {
                    throw new ParameterException(spec.commandLine(), "a uid part needs the UID table to turn " + kind
                            + " '" + name + "' into its id: give --config FILE (the table is read, never written)");
                }
                try {
                    connection = HBaseConnections.connect(config);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                store = new HBaseUidStore(connection, TableName.valueOf(config.getString(RowflowConfig.UID_TABLE_CONFIG)))
                        .lookupOnly();
            }
            return store;
        }

        void close() throws IOException {
            if (connection != null) {
                connection.close();
            }
        }
    }

    /** What the commands that read field values (arguments, stdin lines, sample files) and print keys share. */
    abstract static class ValuesCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        LayoutSource source = new LayoutSource();

        @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "shell",
                description = "shell (the HBase shell's \\xNN escaping) or hex (default: ${DEFAULT-VALUE}).")
        KeyFormat format;

        /**
         * The key of {@code words} ({@code FIELD=VALUE} each), every value checked as the pipeline
         * checks it.
         *
         * @param where where the words are from, for messages ("" for arguments, "line 3: ")
         */
        byte[] encode(RowKeyLayout layout, List<String> words, String where) {
            Map<String, String> values = new LinkedHashMap<>();
            for (String word : words) {
                int eq = word.indexOf('=');
                if (eq <= 0) {
                    throw usage(where + "'" + word + "' is not FIELD=VALUE");
                }
                String field = word.substring(0, eq);
                if (values.put(field, word.substring(eq + 1)) != null) {
                    throw usage(where + "field " + field + " is given more than once");
                }
            }
            for (String field : values.keySet()) {
                if (layout.parts().stream().noneMatch(p -> p.field().equals(field))) {
                    throw usage(where + "field " + field + " is not a part of layout " + layout.spec());
                }
            }
            Map<String, Object> typed = new LinkedHashMap<>();
            for (KeyPart part : layout.parts()) {
                String value = values.get(part.field());
                if (value == null) {
                    throw usage(where + "missing " + part.field() + "=VALUE for part " + part.spec());
                }
                try {
                    typed.put(part.field(), part.encoding().textual()
                            ? EventMapping.keyValue(part.field(), value, true) : number(part, value));
                } catch (InvalidEventException e) {
                    throw usage(where + e.getMessage());
                }
            }
            try {
                return layout.encode(typed::get);
            } catch (InvalidEventException e) {
                throw usage(where + e.getMessage());
            }
        }

        /**
         * A whole number as the pipeline takes it from JSON; for times also an ISO-8601 instant,
         * checked as the pipeline checks an event time before any key is made of it.
         */
        private static Object number(KeyPart part, String value) {
            boolean time = part.encoding().isTime();
            Object number;
            try {
                number = EventMapping.keyValue(part.field(), new BigDecimal(value), false);
            } catch (NumberFormatException notANumber) {
                if (!time) {
                    throw new InvalidEventException(part.field(), value, "is text, where a whole number is expected");
                }
                try {
                    number = Instant.parse(value).toEpochMilli();
                } catch (DateTimeParseException notAnInstant) {
                    throw new InvalidEventException(part.field(), value,
                            "is neither a whole number (milliseconds) nor an ISO-8601 instant");
                }
            }
            return time ? EventRules.eventTime(part.field(), (Long) number) : number;
        }

        /** The {@code FIELD=VALUE} words of one line: separated by tabs, or by spaces if it has no tab. */
        static List<String> words(String line) {
            String[] words = line.indexOf('\t') >= 0 ? line.split("\t") : line.trim().split(" +");
            return Arrays.stream(words).filter(w -> !w.isEmpty()).toList();
        }

        ParameterException usage(String message) {
            return new ParameterException(spec.commandLine(), message);
        }
    }

    @Command(name = "encode", mixinStandardHelpOptions = true,
            description = {"Print the row key of the given field values (checked as the pipeline checks them).",
                    "With --stdin, one key per input line, each line FIELD=VALUE words separated by tabs (or spaces "
                            + "if the line has no tab); the first bad line stops it with exit code 2."})
    static final class Encode extends ValuesCommand {
        @Parameters(paramLabel = "FIELD=VALUE", arity = "0..*",
                description = "One per key part. ts/rts values: milliseconds or an ISO-8601 instant.")
        List<String> values = new ArrayList<>();

        @Option(names = "--stdin", description = "Read the values from stdin, one key per line.")
        boolean stdin;

        @Override
        public Integer call() throws Exception {
            if (stdin == !values.isEmpty()) {
                throw usage(stdin ? "give the values either as arguments or with --stdin, not both"
                        : "missing FIELD=VALUE arguments (or --stdin)");
            }
            try {
                RowKeyLayout layout = source.resolve(true);
                PrintWriter out = spec.commandLine().getOut();
                if (!stdin) {
                    out.println(format.print(encode(layout, values, "")));
                    return 0;
                }
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                int number = 0;
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    number++;
                    out.println(format.print(encode(layout, words(line), "line " + number + ": ")));
                    out.flush();
                }
                return 0;
            } catch (UnknownNameException e) {
                spec.commandLine().getErr().println("rowflow: " + e.getMessage());
                return ErrorMessages.NO;
            } finally {
                source.close();
            }
        }
    }

    @Command(name = "decode", mixinStandardHelpOptions = true,
            description = {"Print the fields of a row key pasted from the HBase shell (\\xNN escapes) or given in hex (0x...).",
                    "Exit code 1 if the key is not one the layout writes: bytes encode never writes (the offset is "
                            + "named) or a salt other than the fields give."})
    static final class Decode implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        LayoutSource source = new LayoutSource();

        @Option(names = "--hex", description = "The key is hex digits (also implied by a 0x prefix).")
        boolean hex;

        @Parameters(paramLabel = "KEY", description = "The row key, e.g. \\x07\\x00\\x00\\x01=\\xA3... or 0x07000001...")
        String key;

        @Override
        public Integer call() throws Exception {
            try {
                return decode(source.resolve(false));
            } finally {
                source.close();
            }
        }

        private int decode(RowKeyLayout layout) {
            byte[] bytes = bytes();
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            DecodedKey decoded;
            try {
                decoded = layout.decodeExact(bytes);
            } catch (IllegalArgumentException e) {
                err.println("rowflow: key " + KeyBytes.toStringBinary(bytes) + " is not one layout " + layout.spec()
                        + " writes: " + e.getMessage());
                return ErrorMessages.NO;
            }
            byte[] salt = layout.saltOf(bytes);
            boolean saltMatches = Arrays.equals(salt, 0, salt.length, bytes, 0, salt.length);
            if (decoded.salt() != null) {
                out.println("salt " + layout.salt().spec() + ": " + decoded.salt()
                        + (saltMatches ? "  (matches the fields)" : "  (DOES NOT match the fields)"));
            }
            for (KeyPart part : layout.parts()) {
                Object value = decoded.fields().get(part.field());
                String note = "";
                if (part.encoding().isTime() && value instanceof Long millis) {
                    note = "  (" + Instant.ofEpochMilli(millis) + ")";
                } else if (part.encoding().needsUids() && value instanceof Long id) {
                    note = source.nameOf(part.field(), id).map(name -> "  (" + printable(name) + ")").orElse("");
                }
                out.println(part.spec() + ": " + (value instanceof String text ? printable(text) : value) + note);
            }
            if (!saltMatches) {
                err.println("rowflow: the salt " + decoded.salt() + " does not match the fields, which give "
                        + layout.decode(withSalt(bytes, salt)).salt() + ": layout " + layout.spec()
                        + " did not write this key");
                return ErrorMessages.NO;
            }
            return 0;
        }

        private byte[] bytes() {
            if (hex || key.startsWith("0x")) {
                String digits = key.startsWith("0x") ? key.substring(2) : key;
                try {
                    return HexFormat.of().parseHex(digits);
                } catch (IllegalArgumentException e) {
                    throw new ParameterException(spec.commandLine(), "KEY '" + key + "' is not hex: " + e.getMessage());
                }
            }
            int bad = badEscape(key);
            if (bad >= 0) {
                throw new ParameterException(spec.commandLine(), "KEY '" + key + "': the backslash at index " + bad
                        + " starts no \\xNN escape (two hex digits)");
            }
            return Bytes.toBytesBinary(key);
        }

        /** Index of a backslash that does not start {@code \xNN}, or -1: toBytesBinary would keep it as is. */
        private static int badEscape(String key) {
            for (int i = key.indexOf('\\'); i >= 0; i = key.indexOf('\\', i + 4)) {
                boolean escape = i + 3 < key.length() && key.charAt(i + 1) == 'x'
                        && Character.digit(key.charAt(i + 2), 16) >= 0 && Character.digit(key.charAt(i + 3), 16) >= 0;
                if (!escape) {
                    return i;
                }
            }
            return -1;
        }

        private static byte[] withSalt(byte[] key, byte[] salt) {
            byte[] again = key.clone();
            System.arraycopy(salt, 0, again, 0, salt.length);
            return again;
        }
    }

    /** A decoded text value for a terminal: control characters and backslashes escaped. */
    static String printable(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            if (c == '\\') {
                sb.append("\\\\");
            } else if (c < 0x20 || c == 0x7F || c >= 0x80 && c < 0xA0) {
                sb.append(String.format("\\x%02X", c));
            } else {
                sb.appendCodePoint(c);
            }
        });
        return sb.toString();
    }

    @Command(name = "splits", mixinStandardHelpOptions = true,
            description = {"Print the region split points of a layout, one per line.",
                    "Layouts led by a salt or an md5 part split evenly; any other layout needs --samples: a file of "
                            + "field values, one key per line as for `encode --stdin`, split at their quantiles."})
    static final class Splits extends ValuesCommand {
        @Option(names = {"-r", "--regions"}, paramLabel = "N",
                description = "Regions to split into (default: the pre-split rowflow creates its tables with; with "
                        + "--samples 16).")
        Integer regions;

        @Option(names = "--samples", paramLabel = "FILE",
                description = "Field values of typical keys (e.g. one line per known host), to split at their quantiles.")
        Path samples;

        @Override
        public Integer call() throws Exception {
            try {
                RowKeyLayout layout = source.resolve(samples != null);
                List<byte[]> splits;
                try {
                    splits = samples != null ? RowKeyLayout.splitPoints(regions == null ? 16 : regions, sampleKeys(layout))
                            : regions == null ? evenDefault(layout) : layout.splitPoints(regions);
                } catch (IllegalArgumentException e) {
                    throw usage(e.getMessage());
                }
                PrintWriter out = spec.commandLine().getOut();
                splits.forEach(split -> out.println(format.print(split)));
                return 0;
            } finally {
                source.close();
            }
        }

        private List<byte[]> evenDefault(RowKeyLayout layout) {
            if (!layout.spreadByDesign()) {
                throw usage("layout " + layout.spec() + " leads with " + layout.parts().get(0).spec()
                        + ", whose bytes are not spread by design: give --samples FILE (field values of typical keys) "
                        + "to split at their quantiles");
            }
            return layout.defaultSplitPoints();
        }

        private List<byte[]> sampleKeys(RowKeyLayout layout) throws IOException {
            List<byte[]> keys = new ArrayList<>();
            int number = 0;
            try (BufferedReader in = Files.newBufferedReader(samples, StandardCharsets.UTF_8)) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    number++;
                    if (!line.isBlank() && !line.startsWith("#")) {
                        keys.add(encode(layout, words(line), samples + " line " + number + ": "));
                    }
                }
            } catch (java.nio.file.NoSuchFileException e) {
                throw usage("--samples " + samples + ": no such file");
            }
            return keys;
        }
    }
}
