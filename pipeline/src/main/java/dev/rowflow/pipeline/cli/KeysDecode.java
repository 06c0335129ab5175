package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.layout.DecodedKey;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import org.apache.hadoop.hbase.util.Bytes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.Callable;

/** {@code rowflow keys decode}: what a row key pasted from the HBase shell means. */
@Command(name = "decode", mixinStandardHelpOptions = true,
        description = {"Print the fields of a row key pasted from the HBase shell (\\xNN escapes) or given in hex (0x...).",
                "Exit code 1 if the key is not one the layout writes: bytes encode never writes (the offset is "
                        + "named) or a salt other than the fields give."})
final class KeysDecode implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    KeyLayoutSource source = new KeyLayoutSource();

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
                note = source.nameOf(part.field(), id).map(name -> "  (" + KeysCommand.printable(name) + ")").orElse("");
            }
            out.println(part.spec() + ": " + (value instanceof String text ? KeysCommand.printable(text) : value) + note);
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
