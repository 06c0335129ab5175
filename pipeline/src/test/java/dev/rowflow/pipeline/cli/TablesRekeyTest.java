package dev.rowflow.pipeline.cli;

import dev.rowflow.sinks.rekey.RekeyCopy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TablesRekeyTest {
    @Test
    void shouldDrawTheCopysProgressAsABarOfRanges() {
        assertThat(TablesRekey.bar(new RekeyCopy.Progress(18_211, 7, 16)))
                .isEqualTo("copy [########------------]  7/16 ranges, 18,211 rows");
        assertThat(TablesRekey.bar(new RekeyCopy.Progress(40_000, 16, 16)))
                .isEqualTo("copy [####################] 16/16 ranges, 40,000 rows");
    }
}
