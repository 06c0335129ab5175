package dev.rowflow.pipeline.guarantees;

import dev.rowflow.embedded.load.LogEventGenerator;
import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.keying.log.LogSummary;
import dev.rowflow.pipeline.config.RowflowConfig;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** The end state of the log tables after rowflow was killed, restarted or moved: each event exactly once. */
final class LogRowsExactlyOnce {
    private LogRowsExactlyOnce() {
    }

    /**
     * The first {@code events} events of {@code generator} each have their data row, and no other
     * row is there; every version of every cell (a replay rewrote some) carries its event's time;
     * the summary counters count each event once.
     */
    static void assertEveryEventOnce(Connection connection, RowflowConfig config, LogEventGenerator generator,
                                     long events) throws Exception {
        LogEventRows rows = dev.rowflow.pipeline.ingest.LogIngest.rows(config, null);
        Map<ByteBuffer, Long> eventTime = new HashMap<>();
        Map<String, Long> summaryCounts = new TreeMap<>();
        LogSummary summary = new LogSummary();
        for (long i = 0; i < events; i++) {
            LogEvent event = generator.next();
            summaryCounts.merge(Bytes.toStringBinary(summary.key(event.getHostname(), event.getEventType(),
                    event.getTimestamp().toEpochMilli())), 1L, Long::sum);
            eventTime.put(ByteBuffer.wrap(rows.dataLayout().encode(event)), event.getTimestamp().toEpochMilli());
        }
        assertThat(eventTime).as("distinct row keys of the events").hasSize((int) events);

        Set<ByteBuffer> found = new HashSet<>();
        try (Table data = connection.getTable(TableName.valueOf(config.getString(RowflowConfig.LOG_DATA_TABLE_CONFIG)));
             ResultScanner scanner = data.getScanner(new Scan().setRaw(true).readAllVersions().setCaching(5_000))) {
            for (Result row : scanner) {
                ByteBuffer key = ByteBuffer.wrap(row.getRow());
                found.add(key);
                for (Cell cell : row.rawCells()) {
                    assertThat(cell.getTimestamp()).isEqualTo(eventTime.get(key));
                }
            }
        }
        assertThat(found).hasSize((int) events).isEqualTo(eventTime.keySet());

        Map<String, Long> counted = new TreeMap<>();
        try (Table table = connection.getTable(TableName.valueOf(config.getString(RowflowConfig.LOG_SUMMARY_TABLE_CONFIG)));
             ResultScanner scanner = table.getScanner(new Scan())) {
            for (Result row : scanner) {
                counted.put(Bytes.toStringBinary(row.getRow()), Bytes.toLong(row.getValue(LogSummary.FAMILY,
                        LogSummary.COUNT)));
            }
        }
        assertThat(counted).isEqualTo(summaryCounts);
    }
}
