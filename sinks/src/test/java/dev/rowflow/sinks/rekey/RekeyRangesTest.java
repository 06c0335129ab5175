package dev.rowflow.sinks.rekey;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RekeyRangesTest {
    private static final List<RekeyCheckpoints.Range> RANGES = List.of(
            new RekeyCheckpoints.Range(new byte[0], new byte[]{4}),
            new RekeyCheckpoints.Range(new byte[]{4}, new byte[]{8, 0}),
            new RekeyCheckpoints.Range(new byte[]{8, 0}, new byte[0]));

    @Test
    void shouldKeepTheRangesOfACopyAsTheyWere() {
        List<RekeyCheckpoints.Range> decoded = RekeyCheckpoints.decodeRanges(RekeyCheckpoints.encodeRanges(RANGES));

        assertThat(decoded).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(decoded.get(i).start()).isEqualTo(RANGES.get(i).start());
            assertThat(decoded.get(i).end()).isEqualTo(RANGES.get(i).end());
        }
    }
}
