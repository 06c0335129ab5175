package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.layout.DecodedKey;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.log.LogEventRows;
import org.apache.hadoop.hbase.util.Bytes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code rowflow keys}: row keys by hand. A user debugging a table pastes a key from the HBase
 * shell and sees what it means; or builds the key of given values; or prints split points.
 */
@Command(name = "keys", mixinStandardHelpOptions = true,
        description = {"Encode, decode and split row keys of a layout.",
                "Layout spec: [salt |] field:encoding, ...   salts: bucket(N), bucket(N,hash=f+g), bucket(N,mod=f), "
                        + "hex(W), bin(W); encodings: text md5 long ts rts dec byte int uid.",
                "Example: rowflow keys encode --layout 'hex(4) | timestamp:dec' timestamp=1364248490"},
        subcommands = {KeysCommand.Encode.class, KeysCommand.Decode.class, KeysCommand.Splits.class})
final class KeysCommand {

    /** Shared option: the layout to work with. */
    static class LayoutOption {
        @Option(names = {"-l", "--layout"}, paramLabel = "SPEC", defaultValue = LogEventRows.DEFAULT_DATA_LAYOUT,
                description = "Key layout (default: the log data table's, ${DEFAULT-VALUE}).")
        String spec;

        RowKeyLayout layout(CommandSpec command) {
            try {
                return RowKeyLayout.parse(spec, null);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(command.commandLine(), e.getMessage(), e);
            }
        }
    }

    @Command(name = "encode", mixinStandardHelpOptions = true,
            description = "Print the row key of the given field values, in the HBase shell's form and in hex.")
    static final class Encode implements Runnable {
        @Spec
        CommandSpec spec;

        @picocli.CommandLine.Mixin
        LayoutOption layoutOption = new LayoutOption();

        @Parameters(paramLabel = "FIELD=VALUE", arity = "1..*",
                description = "One per key part. ts/rts values: milliseconds or an ISO-8601 instant.")
        Map<String, String> values = new LinkedHashMap<>();

        @Override
        public void run() {
            RowKeyLayout layout = layoutOption.layout(spec);
            Map<String, Object> typed = new LinkedHashMap<>();
            for (KeyPart part : layout.parts()) {
                String value = values.get(part.field());
                if (value == null) {
                    throw new ParameterException(spec.commandLine(), "missing " + part.field() + "=VALUE for part "
                            + part.spec());
                }
                typed.put(part.field(), part.encoding().textual() ? value : number(part, value));
            }
            for (String field : values.keySet()) {
                if (!typed.containsKey(field)) {
                    throw new ParameterException(spec.commandLine(), "field " + field + " is not a part of layout "
                            + layout.spec());
                }
            }
            byte[] key;
            try {
                key = layout.encode(typed::get);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
            PrintWriter out = spec.commandLine().getOut();
            out.println(KeyBytes.toStringBinary(key));
            out.println("hex: " + HexFormat.of().formatHex(key) + "  (" + key.length + " bytes)");
        }

        private long number(KeyPart part, String value) {
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException notANumber) {
                try {
                    return Instant.parse(value).toEpochMilli();
                } catch (DateTimeParseException notAnInstant) {
                    throw new ParameterException(spec.commandLine(), part.field() + "=" + value + ": part "
                            + part.spec() + " needs a whole number or an ISO-8601 instant");
                }
            }
        }
    }

    @Command(name = "decode", mixinStandardHelpOptions = true,
            description = "Print the fields of a row key pasted from the HBase shell (\\xNN escapes) or given in hex (0x...).")
    static final class Decode implements Runnable {
        @Spec
        CommandSpec spec;

        @picocli.CommandLine.Mixin
        LayoutOption layoutOption = new LayoutOption();

        @Option(names = "--hex", description = "The key is hex digits (also implied by a 0x prefix).")
        boolean hex;

        @Parameters(paramLabel = "KEY", description = "The row key, e.g. \\x07\\x00\\x00\\x01=\\xA3... or 0x07000001...")
        String key;

        @Override
        public void run() {
            RowKeyLayout layout = layoutOption.layout(spec);
            byte[] bytes;
            try {
                bytes = hex || key.startsWith("0x")
                        ? HexFormat.of().parseHex(key.startsWith("0x") ? key.substring(2) : key)
                        : Bytes.toBytesBinary(key);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "not hex: " + key, e);
            }
            DecodedKey decoded;
            try {
                decoded = layout.decode(bytes);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
            PrintWriter out = spec.commandLine().getOut();
            if (decoded.salt() != null) {
                out.println("salt " + layout.salt().spec() + ": " + decoded.salt() + saltCheck(layout, bytes, decoded));
            }
            for (KeyPart part : layout.parts()) {
                Object value = decoded.fields().get(part.field());
                String time = (part.encoding().token().endsWith("ts") && value instanceof Long millis)
                        ? "  (" + Instant.ofEpochMilli(millis) + ")" : "";
                out.println(part.spec() + ": " + value + time);
            }
        }
    }

    /** Whether the salt is the one the fields give: a mismatch means another layout wrote the key. */
    private static String saltCheck(RowKeyLayout layout, byte[] key, DecodedKey decoded) {
        if (decoded.fields().values().stream().anyMatch(v -> v instanceof dev.rowflow.keying.layout.HashedValue)) {
            return "";
        }
        byte[] again = layout.encode(decoded.fields()::get);
        int width = layout.salt().width();
        return java.util.Arrays.equals(again, 0, width, key, 0, width) ? "  (matches the fields)"
                : "  (DOES NOT match the fields, which give " + layout.decode(again).salt()
                + ": this key was not written by this layout)";
    }

    @Command(name = "splits", mixinStandardHelpOptions = true,
            description = "Print the region split points of a layout, one per line in the HBase shell's form.")
    static final class Splits implements Runnable {
        @Spec
        CommandSpec spec;

        @picocli.CommandLine.Mixin
        LayoutOption layoutOption = new LayoutOption();

        @Option(names = {"-r", "--regions"}, paramLabel = "N",
                description = "Regions to split into (default: the pre-split rowflow creates its tables with).")
        Integer regions;

        @Override
        public void run() {
            RowKeyLayout layout = layoutOption.layout(spec);
            List<byte[]> splits;
            try {
                splits = regions == null ? layout.defaultSplitPoints() : layout.splitPoints(regions);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
            PrintWriter out = spec.commandLine().getOut();
            splits.forEach(split -> out.println(KeyBytes.toStringBinary(split)));
        }
    }
}
