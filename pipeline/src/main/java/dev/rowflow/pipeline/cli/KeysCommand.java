package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.mapping.EventMapping;
import picocli.CommandLine.Command;

import java.util.HexFormat;

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
        subcommands = {KeysEncode.class, KeysDecode.class, KeysSplits.class, KeysScan.class})
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
     * A decoded text value for a terminal: a control character as {@code \xNN} of its code point,
     * every other character as itself -- a backslash too, unless it stands where a reader would take
     * it for the start of an escape: before a backslash, a control character or {@code x} and two hex
     * digits. There it is doubled. So a printed value reads back one way: a doubled backslash is one
     * backslash, {@code \xNN} the character U+00NN, any other backslash itself.
     */
    static String printable(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        int[] codePoints = text.codePoints().toArray();
        for (int i = 0; i < codePoints.length; i++) {
            int c = codePoints[i];
            if (c == '\\') {
                sb.append(startsEscape(codePoints, i + 1) ? "\\\\" : "\\");
            } else if (control(c)) {
                sb.append(String.format("\\x%02X", c));
            } else {
                sb.appendCodePoint(c);
            }
        }
        return sb.toString();
    }

    private static boolean control(int c) {
        return c < 0x20 || c == 0x7F || c >= 0x80 && c < 0xA0;
    }

    /** Whether what is printed from {@code at} on starts with a backslash or with x and two hex digits. */
    private static boolean startsEscape(int[] codePoints, int at) {
        if (at >= codePoints.length) {
            return false;
        }
        int next = codePoints[at];
        return next == '\\' || control(next) || next == 'x' && at + 2 < codePoints.length
                && Character.digit(codePoints[at + 1], 16) >= 0 && Character.digit(codePoints[at + 2], 16) >= 0;
    }
}
