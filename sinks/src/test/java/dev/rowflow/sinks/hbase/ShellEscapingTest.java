package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.KeyBytes;

import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link KeyBytes#toStringBinary} as HBase reads it back: the keys rowflow prints can be pasted into the shell. */
class ShellEscapingTest {

    @Test
    void shouldEscapeEveryByteOutsideTheUnambiguousSetAndReadBackThroughHBase() {
        byte[] key = "web 01\0a\"b$c'd#{x}\\".getBytes(StandardCharsets.UTF_8);

        String printed = KeyBytes.toStringBinary(key);

        assertThat(printed).isEqualTo("web\\x2001\\x00a\\x22b\\x24c\\x27d\\x23\\x7Bx\\x7D\\x5C");
        assertThat(Bytes.toBytesBinary(printed)).isEqualTo(key);
    }

    @Test
    void shouldNeverPrintAnInvisibleOrQuotingCharacterForAnyByte() {
        for (int b = 0; b < 256; b++) {
            byte[] one = {(byte) b};
            String printed = KeyBytes.toStringBinary(one);
            assertThat(printed).matches("[A-Za-z0-9._-]|\\\\x[0-9A-F]{2}");
            assertThat(Bytes.toBytesBinary(printed)).isEqualTo(one);
        }
    }
}
