package dev.rowflow.pipeline.runtime;

import dev.rowflow.pipeline.topology.StatusEvents;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class StatusReportTest {
    private static final Instant T0 = Instant.parse("2026-11-29T07:00:00Z");
    private final MutableClock clock = new MutableClock();
    private final StatusEvents events = new StatusEvents(clock);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    /** An input reading app.logs (dots: Kafka's metrics tag it app_logs) into logs and logs_index. */
    private final StatusReport.InputView logs = new StatusReport.InputView("logs", List.of("app.logs"),
            "app.logs"::equals, Set.of("app.logs.dead-letter"), Set.of("logs", "logs_index")::contains);

    @Test
    void shouldAddUpThePartitionsHereTheirLagRecordsRowsAndDeadLetters() {
        registry.counter("rowflow.sink.sent.rows", "table", "logs").increment(40);
        registry.counter("rowflow.sink.sent.rows", "table", "logs_index").increment(40);
        registry.counter("rowflow.sink.sent.rows", "table", "orders").increment(7);
        registry.counter("rowflow.dead.letters", "topic", "app.logs.dead-letter", "reason", "invalid hostname").increment(2);
        registry.counter("rowflow.dead.letters", "topic", "app.logs.dead-letter", "reason", "SerializationException").increment();
        registry.counter("rowflow.dead.letters", "topic", "orders.dead-letter", "reason", "invalid id").increment();
        StatusReport.Consumers consumers = new StatusReport.Consumers(
                Map.of(new TopicPartition("app.logs", 0), "t1", new TopicPartition("app.logs", 3), "t2",
                        new TopicPartition("orders", 0), "t1"),
                Map.of(new TopicPartition("app_logs", 0), 5.0, new TopicPartition("app_logs", 3), 7.0,
                        new TopicPartition("app_logs", 1), 1000.0, new TopicPartition("orders", 0), 9.0),
                Map.of("app_logs", 83.0, "orders", 7.0), Set.of("t1", "t2"));
        events.deadLetter("app.logs", 3, 17, "invalid hostname", "invalid hostname '': must not be empty");
        clock.now = T0.plusSeconds(5);
        events.deadLetter("orders", 0, 2, "invalid id", "later, but another topic");
        events.committed("t1");
        clock.now = T0.plusSeconds(9);
        events.committed("t2");

        InstanceStatus.Input status = StatusReport.input(logs, KafkaStreams.State.RUNNING, consumers, registry, events);

        assertThat(status.state()).isEqualTo("RUNNING");
        assertThat(status.topics()).containsExactly("app.logs");
        assertThat(status.partitions()).isEqualTo(2);
        assertThat(status.lag()).as("partitions 0 and 3 are here, 1 is not").isEqualTo(12L);
        assertThat(status.recordsIn()).isEqualTo(83);
        assertThat(status.rowsOut()).isEqualTo(80);
        assertThat(status.deadLetters()).isEqualTo(3);
        assertThat(status.lastError()).isEqualTo(new StatusEvents.DeadLetter(T0, "app.logs", 3, 17, "invalid hostname",
                "invalid hostname '': must not be empty"));
        assertThat(status.lastCommit()).as("the older of its two threads' commits").isEqualTo(T0.plusSeconds(5));
    }

    @Test
    void shouldSayWhyAnInputIsNotBeingRead() {
        StatusReport.Consumers elsewhere = new StatusReport.Consumers(Map.of(new TopicPartition("orders", 0), "t1"),
                Map.of(new TopicPartition("orders", 0), 3.0), Map.of(), Set.of("t1"));
        InstanceStatus.Input idle = StatusReport.input(logs, KafkaStreams.State.RUNNING, elsewhere, registry, events);
        assertThat(idle.state()).isEqualTo("IDLE");
        assertThat(idle.partitions()).isZero();
        assertThat(idle.lag()).isNull();
        assertThat(idle.lastCommit()).isNull();
        assertThat(StatusReport.input(logs, KafkaStreams.State.REBALANCING, elsewhere, registry, events).state())
                .isEqualTo("REBALANCING");

        StatusReport.Consumers here = new StatusReport.Consumers(Map.of(new TopicPartition("app.logs", 0), "t1",
                new TopicPartition("app.logs", 1), "t2"), Map.of(new TopicPartition("app_logs", 0), Double.NaN),
                Map.of(), Set.of("t1", "t2"));
        events.committed("t1");
        InstanceStatus.Input fetching = StatusReport.input(logs, KafkaStreams.State.RUNNING, here, registry, events);
        assertThat(fetching.lag()).as("no partition fetched yet").isNull();
        assertThat(fetching.lastCommit()).as("t2 never committed").isNull();
        AtomicInteger waiting = new AtomicInteger(1);
        Gauge.builder("rowflow.registry.waiting.threads", waiting, AtomicInteger::doubleValue).tag("input", "logs")
                .register(registry);
        assertThat(StatusReport.input(logs, KafkaStreams.State.RUNNING, here, registry, events).state())
                .isEqualTo("WAITING_FOR_REGISTRY");
        waiting.set(0);
        assertThat(StatusReport.input(logs, KafkaStreams.State.RUNNING, here, registry, events).state()).isEqualTo("RUNNING");
    }

    @Test
    void shouldReadItsJsonBack() throws Exception {
        clock.now = T0.plusSeconds(3);
        events.failed("app-StreamThread-1", new IllegalStateException("HBase flush failed"));
        InstanceStatus status = new InstanceStatus("app", "1.0", "RUNNING", true, false, T0, events.lastFailure().orElseThrow(),
                List.of(new InstanceStatus.Input("logs", List.of("app.logs"), "RUNNING", 2, 12L, 83, 80, 3,
                        new StatusEvents.DeadLetter(T0, "app.logs", 3, 17, "invalid hostname", "bad"), T0),
                        new InstanceStatus.Input("orders", List.of(), "IDLE", 0, null, 0, 0, 0, null, null)));

        assertThat(InstanceStatus.fromJson(status.toJson())).isEqualTo(status);
        assertThat(status.toJson()).contains("\"lag\" : null", "\"lastFailure\" : {", "\"message\" : \"HBase flush failed\"");
    }

    private static final class MutableClock extends Clock {
        Instant now = T0;

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
