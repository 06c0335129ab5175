package dev.rowflow.keying.mapping;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RecordSourceTest {

    @Test
    void shouldReadTheRecordKeyAsJsonOrText() {
        assertThat(RecordSource.readKey("order-7".getBytes(StandardCharsets.UTF_8))).isEqualTo("order-7");
        assertThat(RecordSource.readKey("\"order-7\"".getBytes(StandardCharsets.UTF_8))).isEqualTo("order-7");
        assertThat(RecordSource.readKey("17".getBytes(StandardCharsets.UTF_8))).isEqualTo(17L);
        assertThat(RecordSource.readKey("17abc".getBytes(StandardCharsets.UTF_8))).isEqualTo("17abc");
        assertThat(RecordSource.readKey("{\"id\":1}".getBytes(StandardCharsets.UTF_8))).isEqualTo(Map.of("id", 1L));
        assertThat(RecordSource.readKey("{broken".getBytes(StandardCharsets.UTF_8))).isEqualTo("{broken");
    }
}
