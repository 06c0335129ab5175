package dev.rowflow.sinks.query;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.log.LogColumns;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.sinks.hbase.FamilySettings;
import dev.rowflow.sinks.hbase.Store;
import dev.rowflow.sinks.hbase.HBaseRowSink;
import dev.rowflow.sinks.hbase.HBaseUidStore;
import dev.rowflow.sinks.hbase.SinkSettings;
import dev.rowflow.sinks.hbase.TableAdmin;
import dev.rowflow.sinks.hbase.TableDefinition;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each log query kind, read through the declared-input queries, on rows written by the sink into
 * real HBase tables, against the answer computed from the input events: exactly the expected
 * events, in the documented order.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
@ParameterizedClass(name = "{0}")
@EnumSource(Store.class)
class LogEventViewIT {
    private static final long T0 = 1_700_000_000_000L;
    private static final List<String> HOSTS = List.of("web-1", "web-10", "web-2", "db-1", "cache-\u00e9");
    private static final List<String> TYPES = List.of("auth", "auth.fail", "gc");
    private final Store store;
    private final Connection connection;
    private static ExecutorService pool;

    LogEventViewIT(Store store, EmbeddedStack stack) {
        EmbeddedStackExtension.assumeStoreAvailable(store.token());
        this.store = store;
        this.connection = stack.connection(store.token());
    }

    /** What a read returns, compared field by field. */
    record Seen(String host, String type, long ts, String message) {
        static Seen of(StoredEvent e) {
            return new Seen(e.hostname(), e.eventType(), e.timestamp(), e.message());
        }

        static Seen of(LogEvent e) {
            return new Seen(e.getHostname(), e.getEventType(), e.getTimestamp().toEpochMilli(), e.getMessage());
        }
    }

    private static final Comparator<String> UTF8 = (a, b) -> Bytes.compareTo(Bytes.toBytes(a), Bytes.toBytes(b));
    /** The order of a time-led data layout: time, then host, then type (bytes). */
    private static final Comparator<Seen> OLDEST_FIRST = Comparator.comparingLong(Seen::ts)
            .thenComparing(Seen::host, UTF8).thenComparing(Seen::type, UTF8);

    @BeforeAll
    static void startPool() {
        pool = Executors.newFixedThreadPool(4);
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
    }

    /** Every host logs every type every 7 ms: equal times across hosts and types (ties). */
    private List<LogEvent> events() {
        List<LogEvent> events = new ArrayList<>();
        for (long ts = T0; ts < T0 + 700; ts += 7) {
            for (String host : HOSTS) {
                for (String type : TYPES) {
                    events.add(LogEvent.newBuilder().setHostname(host).setEventType(type)
                            .setTimestamp(Instant.ofEpochMilli(ts)).setMessage(host + " " + type + " " + ts)
                            .setAttributes(Map.of("pid", Long.toString(ts % 97))).build());
                }
            }
        }
        return events;
    }

    private Map<TableRole, TableDefinition> write(String name, LogEventRows rows, List<LogEvent> events)
            throws Exception {
        TableDefinition data = new TableDefinition(TableName.valueOf(name + "_data"), LogColumns.DATA_FAMILY,
                FamilySettings.DEFAULT, rows.dataLayout());
        TableDefinition index = new TableDefinition(TableName.valueOf(name + "_index"), LogColumns.INDEX_FAMILY,
                FamilySettings.DEFAULT, rows.indexLayout());
        Map<TableRole, TableDefinition> tables = Map.of(TableRole.LOG_DATA, data, TableRole.LOG_INDEX, index);
        try (Admin admin = connection.getAdmin()) {
            new TableAdmin(admin).createOrCheck(data);
            new TableAdmin(admin).createOrCheck(index);
        }
        try (HBaseRowSink sink = new HBaseRowSink(connection, tables, new SinkSettings(0, 0))) {
            for (LogEvent event : events) {
                for (Row row : rows.rowsOf(event)) {
                    sink.write(row);
                }
            }
            sink.flush();
        }
        return tables;
    }

    /** The log view over the tables {@code write} made: the rows read by the log input's mapping. */
    private LogEventView view(Map<TableRole, TableDefinition> tables, LogEventRows rows) {
        return new LogEventView(new InputQueries(connection, rows.indexMapping(),
                Map.of(TableRole.LOG_DATA, tables.get(TableRole.LOG_DATA).name(),
                        TableRole.LOG_INDEX, tables.get(TableRole.LOG_INDEX).name()), pool));
    }

    private List<Seen> expected(List<LogEvent> events, Predicate<Seen> filter, Comparator<Seen> order, int limit) {
        List<Seen> all = events.stream().map(Seen::of).filter(filter).sorted(order).toList();
        return limit > 0 && all.size() > limit ? all.subList(0, limit) : all;
    }

    private List<Seen> seen(QueryResult<StoredEvent> result) {
        return result.rows().stream().map(Seen::of).toList();
    }

    @Test
    void shouldReadOneHostNewestFirstThroughTheIndex() throws Exception {
        LogEventRows rows = new LogEventRows(RowKeyLayout.parse("bucket(8) | timestamp:ts, hostname:text, eventType:text", null),
                RowKeyLayout.parse(LogEventRows.DEFAULT_INDEX_LAYOUT, null));
        List<LogEvent> events = events();
        Map<TableRole, TableDefinition> tables = write("q_host", rows, events);
        LogEventView queries = view(tables, rows);
        long from = T0 + 100;
        long to = T0 + 300;

        // Host and type: one scan, newest first, stops at the limit.
        QueryResult<StoredEvent> hostAndType = queries.host("web-1", "auth", from, to, 10);
        assertThat(seen(hostAndType)).containsExactlyElementsOf(expected(events,
                s -> s.host().equals("web-1") && s.type().equals("auth") && s.ts() >= from && s.ts() < to,
                Comparator.comparingLong(Seen::ts).reversed(), 10));
        assertThat(hostAndType.scans()).isEqualTo(1);
        assertThat(hostAndType.danglingIndexRows()).isZero();
        assertThat(hostAndType.rows().get(0).attributes()).containsKey("pid");

        // Host only: every type, newest first, ties (same time, other types) in type order.
        QueryResult<StoredEvent> hostOnly = queries.host("web-1", null, from, to, 0);
        List<Seen> expectedHost = expected(events, s -> s.host().equals("web-1") && s.ts() >= from && s.ts() < to,
                Comparator.comparingLong(Seen::ts).reversed().thenComparing(Seen::type, UTF8), 0);
        assertThat(seen(hostOnly)).containsExactlyElementsOf(expectedHost);
        assertThat(expectedHost).hasSize(28 * TYPES.size());
        // "web-1" is a prefix of "web-10": none of web-10's events.
        assertThat(seen(queries.host("web-1", null, T0, T0 + 1_000, 0))).allMatch(s -> s.host().equals("web-1"))
                .hasSize(100 * TYPES.size());
        assertThat(queries.host("nobody", "auth", from, to, 0).rows()).isEmpty();
    }

    @Test
    void shouldMergeATimeRangeOverAllBucketsInTimeOrderBothWays() throws Exception {
        LogEventRows rows = new LogEventRows(RowKeyLayout.parse("bucket(8) | timestamp:ts, hostname:text, eventType:text", null),
                RowKeyLayout.parse(LogEventRows.DEFAULT_INDEX_LAYOUT, null));
        List<LogEvent> events = events();
        Map<TableRole, TableDefinition> tables = write("q_range", rows, events);
        LogEventView queries = view(tables, rows);
        long from = T0 + 200;
        long to = T0 + 250;
        Predicate<Seen> inRange = s -> s.ts() >= from && s.ts() < to;

        QueryResult<StoredEvent> oldest = queries.timeRange(from, to, false, 0);
        assertThat(seen(oldest)).containsExactlyElementsOf(expected(events, inRange, OLDEST_FIRST, 0));
        assertThat(oldest.rows()).hasSize(7 * HOSTS.size() * TYPES.size());
        assertThat(oldest.scans()).isEqualTo(8);
        // Newest first is the exact reverse, and a limit takes the newest ones from every bucket.
        assertThat(seen(queries.timeRange(from, to, true, 0)))
                .containsExactlyElementsOf(expected(events, inRange, OLDEST_FIRST.reversed(), 0));
        assertThat(seen(queries.timeRange(from, to, true, 20)))
                .containsExactlyElementsOf(expected(events, inRange, OLDEST_FIRST.reversed(), 20));
        assertThat(seen(queries.timeRange(from, to, false, 20)))
                .containsExactlyElementsOf(expected(events, inRange, OLDEST_FIRST, 20));
        assertThat(queries.timeRange(T0 + 5_000, T0 + 6_000, false, 0).rows()).isEmpty();
    }

    @Test
    void shouldReadThroughEmptyBuckets() throws Exception {
        LogEventRows rows = new LogEventRows(RowKeyLayout.parse("bucket(16) | timestamp:ts, hostname:text, eventType:text", null),
                RowKeyLayout.parse(LogEventRows.DEFAULT_INDEX_LAYOUT, null));
        // Three events cannot fill sixteen buckets: at least thirteen scans find nothing.
        List<LogEvent> events = events().subList(0, 3);
        Map<TableRole, TableDefinition> tables = write("q_sparse", rows, events);
        LogEventView queries = view(tables, rows);
        QueryResult<StoredEvent> all = queries.timeRange(T0, T0 + 1, true, 0);
        assertThat(seen(all)).containsExactlyElementsOf(expected(events, s -> true, OLDEST_FIRST.reversed(), 0));
        assertThat(all.scans()).isEqualTo(16);
    }

    @Test
    void shouldSkipAndCountIndexRowsWhoseDataRowIsGone() throws Exception {
        LogEventRows rows = new LogEventRows(RowKeyLayout.parse("bucket(4) | timestamp:ts, hostname:text, eventType:text", null),
                RowKeyLayout.parse("eventType:text, timestamp:rts, hostname:text", null));
        List<LogEvent> events = events();
        Map<TableRole, TableDefinition> tables = write("q_dangling", rows, events);
        // Delete the data rows of db-1's gc events between T0+70 and T0+140: their index rows dangle.
        List<Seen> deleted = new ArrayList<>();
        try (Table data = connection.getTable(tables.get(TableRole.LOG_DATA).name())) {
            for (LogEvent event : events) {
                long ts = event.getTimestamp().toEpochMilli();
                if (event.getHostname().equals("db-1") && event.getEventType().equals("gc") && ts >= T0 + 70 && ts < T0 + 140) {
                    data.delete(new Delete(rows.dataLayout().encode(event)));
                    deleted.add(Seen.of(event));
                }
            }
        }
        LogEventView queries = view(tables, rows);

        // By event type and time, through an index keyed [type][reverse ts][host].
        QueryResult<StoredEvent> gc = queries.index(List.of("gc"), T0 + 50, T0 + 150, 0);
        Predicate<Seen> wanted = s -> s.type().equals("gc") && s.ts() >= T0 + 50 && s.ts() < T0 + 150 && !deleted.contains(s);
        assertThat(seen(gc)).containsExactlyElementsOf(expected(events, wanted,
                Comparator.comparingLong(Seen::ts).reversed().thenComparing(Seen::host, UTF8), 0));
        assertThat(gc.danglingIndexRows()).isEqualTo(deleted.size()).isEqualTo(10);

        // With a limit the dangling rows do not shorten the answer: it reads on.
        QueryResult<StoredEvent> limited = queries.index(List.of("gc"), T0 + 50, T0 + 150, 60);
        assertThat(seen(limited)).containsExactlyElementsOf(expected(events, wanted,
                Comparator.comparingLong(Seen::ts).reversed().thenComparing(Seen::host, UTF8), 60));
    }

    @Test
    void shouldLookUpUidNamesWithoutAssigningNewOnes() throws Exception {
        TableName uidTable = TableName.valueOf("q_uid_ids");
        try (Admin admin = connection.getAdmin()) {
            HBaseUidStore.createIfAbsent(admin, uidTable);
        }
        HBaseUidStore store = new HBaseUidStore(connection, uidTable);
        String dataLayout = "bucket(4) | timestamp:ts, hostname:uid, eventType:uid";
        String indexLayout = "hostname:uid, eventType:uid, timestamp:rts";
        LogEventRows writing = new LogEventRows(RowKeyLayout.parse(dataLayout, store), RowKeyLayout.parse(indexLayout, store));
        List<LogEvent> events = events();
        Map<TableRole, TableDefinition> tables = write("q_uid", writing, events);
        LogEventRows reading = new LogEventRows(RowKeyLayout.parse(dataLayout, store.lookupOnly()),
                RowKeyLayout.parse(indexLayout, store.lookupOnly()));
        LogEventView queries = view(tables, reading);

        assertThat(seen(queries.host("db-1", "gc", T0, T0 + 50, 0))).containsExactlyElementsOf(expected(events,
                s -> s.host().equals("db-1") && s.type().equals("gc") && s.ts() < T0 + 50,
                Comparator.comparingLong(Seen::ts).reversed(), 0));
        assertThat(queries.host("never-seen", "gc", T0, T0 + 50, 0).rows()).isEmpty();
        assertThat(store.find("hostname", "never-seen")).as("a read assigns no id").isEmpty();
    }

    @Test
    void shouldRefuseATimeRangeOnAHostLedLayoutInsteadOfScanningEverything() {
        LogEventRows rows = new LogEventRows(RowKeyLayout.parse("hostname:text, eventType:text, timestamp:rts", null),
                RowKeyLayout.parse(LogEventRows.DEFAULT_INDEX_LAYOUT, null));
        LogEventView queries = new LogEventView(new InputQueries(connection, rows.indexMapping(), Map.of(
                TableRole.LOG_DATA, TableName.valueOf("unused"), TableRole.LOG_INDEX, TableName.valueOf("unused_i")), pool));
        assertThatThrownBy(() -> queries.timeRange(T0, T0 + 1, false, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not lead with the time");
    }
}
