package dev.rowflow.pipeline.cli;

import dev.rowflow.pipeline.runtime.InstanceStatus;
import dev.rowflow.pipeline.topology.StatusEvents;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class StatusCommandTest {
    private static final Instant T0 = Instant.parse("2026-11-29T07:00:00Z");

    @Test
    void shouldPrintOneAlignedLinePerInputWithHowLongAgo() {
        StatusCommand command = new StatusCommand();
        command.clock = Clock.fixed(T0.plusSeconds(300), ZoneOffset.UTC);
        InstanceStatus status = new InstanceStatus("it-run", "0.1.0", "RUNNING", true, true, T0.plusSeconds(290), null,
                List.of(new InstanceStatus.Input("logs", List.of("run-logs"), "RUNNING", 2, 0L, 2003, 4000, 3,
                                new StatusEvents.DeadLetter(T0, "run-logs", 1, 977, "SerializationException", "not avro"),
                                T0.plusSeconds(290)),
                        new InstanceStatus.Input("orders", List.of("customers", "orders"), "IDLE", 0, null, 0, 0, 0, null, null)));
        StringWriter text = new StringWriter();

        command.print(status, new PrintWriter(text, true));

        assertThat(text.toString().split("\n")).containsExactly(
                "it-run (rowflow 0.1.0): RUNNING, ready, HBase reachable, last commit 2026-11-29T07:04:50Z (10 s ago)",
                "INPUT   STATE    TOPICS            PARTITIONS  LAG  RECORDS IN  ROWS OUT  DEAD LETTERS  LAST COMMIT                      LAST ERROR",
                "logs    RUNNING  run-logs          2           0    2003        4000      3             2026-11-29T07:04:50Z (10 s ago)  2026-11-29T07:00:00Z (5 min ago) run-logs-1@977 SerializationException: not avro",
                "orders  IDLE     customers,orders  0           -    0           0         0             never                            -");
    }
}
