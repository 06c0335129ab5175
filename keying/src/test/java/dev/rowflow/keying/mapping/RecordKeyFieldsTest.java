package dev.rowflow.keying.mapping;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordKeyFieldsTest {

    private static Map<String, Object> key(Object... fields) {
        Map<String, Object> key = new LinkedHashMap<>();
        for (int i = 0; i < fields.length; i += 2) {
            key.put((String) fields[i], fields[i + 1]);
        }
        return key;
    }

    @Test
    void shouldMakeOnePartPerFieldInTheKeysOrderKeepingWhatSurroundsIt() {
        assertThat(RecordKeyFields.expand("$key.*", key("id", 7L))).isEqualTo("id:long");
        assertThat(RecordKeyFields.expand("bucket(8) | $key.*", key("order_id", 7L, "carrier", "dhl")))
                .isEqualTo("bucket(8) | order_id:long, carrier:text");
        assertThat(RecordKeyFields.expand("tenant:text, $key.*", key("z", 1, "a", (short) 2)))
                .isEqualTo("tenant:text, z:long, a:long");
        assertThat(RecordKeyFields.in("bucket(8) | $key.*")).isTrue();
        assertThat(RecordKeyFields.in("$key.id:long")).isFalse();
    }

    @Test
    void shouldRefuseAKeyThatMakesNoLayoutNamingTheField() {
        assertThatThrownBy(() -> RecordKeyFields.expand("$key.*", key()))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("has no fields")
                .extracting(e -> ((InvalidEventException) e).refusal()).isEqualTo(Refusal.EMPTY);
        assertThatThrownBy(() -> RecordKeyFields.expand("$key.*", key("id", 7L, "price", 1.5)))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("$key.price")
                .hasMessageContaining("neither a whole number nor text")
                .extracting(e -> ((InvalidEventException) e).refusal()).isEqualTo(Refusal.WRONG_KIND);
        assertThatThrownBy(() -> RecordKeyFields.expand("$key.*", key("id", null)))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("is null");
        assertThatThrownBy(() -> RecordKeyFields.expand("$key.*", key("order id", 7L)))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("no plain name")
                .extracting(e -> ((InvalidEventException) e).refusal()).isEqualTo(Refusal.NOT_ENCODABLE);
    }
}
