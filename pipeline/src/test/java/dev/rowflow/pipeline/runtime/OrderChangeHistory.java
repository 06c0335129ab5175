package dev.rowflow.pipeline.runtime;

import dev.rowflow.keying.layout.RowKeyLayout;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A history of an orders table as a database changes it, and the table as it ends: a snapshot of
 * 60 orders, then 400 changes of random orders -- creates, updates (a status, a move to another
 * customer, a note set to null), deletes each followed by its tombstone, and re-inserts of deleted
 * ids -- three changes to a millisecond, so a delete and a re-insert of one key often share one.
 * Rendering the changes as records is the test's (JSON, Avro); checking the tables against the
 * model is here, for the mapping of {@code deploy/recipes/debezium.properties}.
 */
public final class OrderChangeHistory {
    /** One record of the topic: a change of order {@code id}, or the tombstone after its delete ({@code op} null). */
    public record Event(long id, String op, Row before, Row after) {
        /** The time of the change in the database, ms. */
        long ts() {
            return (after != null ? after : before).ts();
        }
    }

    /** An order as the database has it, and when it got so. */
    public record Row(long customer, long totalCents, String status, String note, long ts) {
        Row with(long customer, String status, String note, long ts) {
            return new Row(customer, totalCents, status, note, ts);
        }
    }

    /** The records, tombstones included, in the order the connector writes them. */
    public final List<Event> events = new ArrayList<>();
    /** The table at the end: id -> order. */
    final Map<Long, Row> database = new TreeMap<>();

    public OrderChangeHistory(long seed, long start) {
        SplittableRandom random = new SplittableRandom(seed);
        long ts = start;
        for (long id = 1; id <= 60; id++) {
            Row row = new Row(1 + random.nextLong(10), 100 + random.nextLong(100_000), "new", "snapshot " + id, ts);
            database.put(id, row);
            events.add(new Event(id, "r", null, row));
        }
        for (int i = 0; i < 400; i++) {
            ts += i % 3 == 0 ? 1 : 0;
            long id = 1 + random.nextLong(120);
            Row before = database.get(id);
            if (before == null) {
                Row row = new Row(1 + random.nextLong(10), 100 + random.nextLong(100_000), "new", "created " + i, ts);
                database.put(id, row);
                events.add(new Event(id, "c", null, row));
            } else if (random.nextInt(4) == 0) {
                database.remove(id);
                events.add(new Event(id, "d", before, null));
                events.add(new Event(id, null, null, null));
            } else {
                Row row = switch (random.nextInt(3)) {
                    case 0 -> before.with(before.customer(), "shipped " + i, before.note(), ts);
                    case 1 -> before.with(1 + random.nextLong(10), before.status(), before.note(), ts);
                    default -> before.with(before.customer(), before.status(), null, ts);
                };
                database.put(id, row);
                events.add(new Event(id, "u", before, row));
            }
        }
    }

    /** The last {@code n} records again, as a connector restarted from an older offset sends them. */
    public List<Event> replay(int n) {
        return events.subList(events.size() - n, events.size());
    }

    static String cents(long cents) {
        return BigDecimal.valueOf(cents, 2).toPlainString();
    }

    /**
     * Every order of the model database in {@code rows} (the recipe's data table) and nothing else,
     * each cell at the time of the order's last change; {@code customerIndex} holds the index row
     * of each order under its present customer and no other.
     */
    void assertTablesHold(Map<ByteBuffer, Result> rows, Map<ByteBuffer, Result> customerIndex) {
        RowKeyLayout dataKey = RowKeyLayout.parse("id:long", null);
        assertThat(rows).hasSize(database.size());
        database.forEach((id, row) -> {
            Result stored = rows.get(ByteBuffer.wrap(dataKey.encode(id)));
            assertThat(stored).as("order %d", id).isNotNull();
            assertThat(cell(stored, "c")).isEqualTo(Long.toString(row.customer()));
            assertThat(cell(stored, "t")).isEqualTo(cents(row.totalCents()));
            assertThat(cell(stored, "s")).isEqualTo(row.status());
            assertThat(cell(stored, "n")).as("note of %d", id).isEqualTo(row.note());
            assertThat(stored.rawCells()).allSatisfy(cell -> assertThat(cell.getTimestamp()).isEqualTo(row.ts()));
        });
        RowKeyLayout customerKey = RowKeyLayout.parse("customer_id:long, id:long", null);
        assertThat(customerIndex.keySet()).containsExactlyInAnyOrderElementsOf(database.entrySet().stream()
                .map(e -> ByteBuffer.wrap(customerKey.encode(e.getValue().customer(), e.getKey()))).toList());
    }

    private static String cell(Result row, String qualifier) {
        return Bytes.toString(row.getValue(Bytes.toBytes("d"), Bytes.toBytes(qualifier)));
    }
}
