package dev.rowflow.embedded.load;

import dev.rowflow.events.LogEvent;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class LogEventGeneratorTest {

    @Test
    void shouldRepeatTheSameEventsForTheSameSeed() {
        List<LogEvent> first = Stream.generate(new LogEventGenerator(1, 10, 1000)::next).limit(500).toList();
        List<LogEvent> second = Stream.generate(new LogEventGenerator(1, 10, 1000)::next).limit(500).toList();

        assertThat(second).isEqualTo(first);
    }

    @Test
    void shouldIncreaseTimeByOneMillisecondPerEventOverManyHostsAndTypes() {
        LogEventGenerator generator = new LogEventGenerator(3, 50, 1_700_000_000_000L);
        Set<String> hosts = new HashSet<>();
        Set<String> types = new HashSet<>();
        for (int i = 0; i < 5_000; i++) {
            LogEvent event = generator.next();
            assertThat(event.getTimestamp().toEpochMilli()).isEqualTo(1_700_000_000_000L + i);
            hosts.add(event.getHostname());
            types.add(event.getEventType());
        }

        assertThat(hosts).hasSize(50);
        assertThat(types).hasSize(7);
    }
}
