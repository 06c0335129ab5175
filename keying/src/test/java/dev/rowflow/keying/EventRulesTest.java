package dev.rowflow.keying;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventRulesTest {

    @Test
    void shouldPassWhatMeetsEachRuleThrough() {
        assertThat(EventRules.eventTime("t", 0)).isZero();
        assertThat(EventRules.keyPartPresent("host", "web-01")).isEqualTo("web-01");
        assertThat(EventRules.nonEmpty("host", "w")).isEqualTo("w");
        EventRules.cellWithin("m", 100, 100, "max");
        EventRules.cellWithin("m", Long.MAX_VALUE, 0, "no limit");
    }

    @Test
    void shouldRefuseEachWithOneWordingNamingTheFieldAndValue() {
        assertThatThrownBy(() -> EventRules.eventTime("orderTime", -1))
                .isInstanceOf(InvalidEventException.class).hasMessage("invalid orderTime '-1': is before 1970")
                .satisfies(e -> assertThat(((InvalidEventException) e).field()).isEqualTo("orderTime"));
        assertThatThrownBy(() -> EventRules.keyPartPresent("host.name", null))
                .hasMessage("invalid host.name null: is missing: it is part of the row key");
        assertThat(EventRules.keyPartNull("host.name"))
                .hasMessage("invalid host.name null: is null: it is part of the row key");
        assertThatThrownBy(() -> EventRules.nonEmpty("customerNumber", ""))
                .hasMessage("invalid customerNumber '': must not be empty");
        assertThatThrownBy(() -> EventRules.nonEmpty("customerNumber", null))
                .hasMessage("invalid customerNumber null: must not be empty");
        assertThatThrownBy(() -> EventRules.cellWithin("cell m", 101, 100, "hbase.client.keyvalue.maxsize"))
                .hasMessage("invalid cell m '(101 bytes)': is 101 bytes as a cell, over the cell size limit of 100 "
                        + "bytes (hbase.client.keyvalue.maxsize)");
        assertThat(EventRules.tombstone("orders", "an order is kept as it was placed"))
                .hasMessage("invalid value null: the orders topic carries no tombstones (null values): an order is "
                        + "kept as it was placed");
    }
}
