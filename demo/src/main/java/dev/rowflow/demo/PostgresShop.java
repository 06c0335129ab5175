package dev.rowflow.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rowflow.embedded.EmbeddedPostgres;
import dev.rowflow.embedded.PostgresCapture;
import dev.rowflow.embedded.TempDirs;
import dev.rowflow.embedded.load.ShopHistory;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * The demo's shop history made by a real database: PostgreSQL (Debian's package) runs the history's
 * changes as SQL -- the snapshot's rows before the connector starts, then every insert, update and
 * delete, a primary-key change as a delete and an insert -- and Debezium's PostgreSQL connector
 * (the embedded engine, pgoutput) writes the changes to the topics through JsonConverter without
 * schemas, as a Connect worker would. Half-way the connector is stopped while the database goes on,
 * then started again from its offsets (sending again what it had not committed).
 */
final class PostgresShop {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A table rowflow does not read: a row in it, once captured, says the connector has sent everything before. */
    private static final String MARKER = "rowflow_demo_marker";

    /** What the database did. */
    record Run(String source, long resent) {
    }

    private PostgresShop() {
    }

    /** Whether PostgreSQL's server programs are installed: else the demo generates the connector's records. */
    static boolean available() {
        return EmbeddedPostgres.binaries().isPresent();
    }

    /**
     * Applies {@code history} to a new database named {@code name}, its changes captured into the topics
     * {@code <name>.public.customers} and {@code <name>.public.orders}; returns once all are produced.
     */
    static Run apply(ShopHistory history, String name, Map<String, Object> kafka, PrintWriter err) throws Exception {
        Path dir = TempDirs.create("rowflow-demo-debezium");
        try (EmbeddedPostgres postgres = EmbeddedPostgres.start(name);
             Connection sql = DriverManager.getConnection(postgres.jdbcUrl(name), EmbeddedPostgres.USER, "")) {
            try (Statement statement = sql.createStatement()) {
                statement.execute("CREATE TABLE customers (id integer PRIMARY KEY, name text, city text)");
                statement.execute("CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer, "
                        + "total numeric(10,2), status text, placed_at timestamptz)");
                statement.execute("CREATE TABLE " + MARKER + " (id integer PRIMARY KEY, name text)");
            }
            sql.setAutoCommit(false);
            List<ShopHistory.Event> events = history.events();
            int snapshot = 0;
            while (snapshot < events.size() && events.get(snapshot).value() != null
                    && "r".equals(JSON.readTree(events.get(snapshot).value()).path("op").asText())) {
                snapshot++;
            }
            run(sql, events.subList(0, snapshot));
            long resent;
            try (PostgresCapture capture = new PostgresCapture(postgres, name, dir.resolve("offsets.dat"), kafka,
                    List.of(PostgresCapture.Shape.json(name, false)))) {
                capture.start();
                // Once a row written now is captured, the snapshot is taken: every change after it is streamed.
                marker(sql, 1, "started");
                capture.awaitName("started");
                int half = snapshot + (events.size() - snapshot) / 2;
                run(sql, events.subList(snapshot, half));
                marker(sql, 2, "half");
                capture.awaitName("half");
                capture.stop();
                err.println("rowflow demo: the connector stopped after " + capture.changes()
                        + " records; the database goes on, then the connector starts again from its offsets");
                err.flush();
                run(sql, events.subList(half, events.size()));
                capture.start();
                marker(sql, 3, "end");
                capture.awaitName("end");
                // Every change and its tombstone once, and the markers: beyond that, sent again after the restart;
                // fewer would be changes lost.
                resent = capture.changes() - history.changes() - history.tombstones() - 3;
                if (resent < 0) {
                    throw new IllegalStateException("the connector sent " + capture.changes() + " records, fewer than the "
                            + "history's changes, tombstones and markers (" + (capture.changes() - resent) + ")");
                }
            }
            String version;
            try (Statement statement = sql.createStatement();
                 var result = statement.executeQuery("SHOW server_version")) {
                result.next();
                version = result.getString(1);
            }
            return new Run("PostgreSQL " + version + " through Debezium's PostgreSQL connector", resent);
        } finally {
            TempDirs.delete(dir);
        }
    }

    /** Runs the changes as SQL, committing every 200. */
    private static void run(Connection sql, List<ShopHistory.Event> events) throws Exception {
        int pending = 0;
        for (ShopHistory.Event event : events) {
            if (event.value() == null) {
                continue; // a tombstone: the connector writes its own after each delete
            }
            JsonNode change = JSON.readTree(event.value());
            String op = change.path("op").asText();
            JsonNode row = op.equals("d") ? change.path("before") : change.path("after");
            String table = event.customer() ? "customers" : "orders";
            String statement = switch (op) {
                case "r", "c" -> event.customer() ? "INSERT INTO customers (name, city, id) VALUES (?, ?, ?)"
                        : "INSERT INTO orders (customer_id, total, status, placed_at, id) VALUES (?, ?, ?, ?::timestamptz, ?)";
                case "u" -> event.customer() ? "UPDATE customers SET name = ?, city = ? WHERE id = ?"
                        : "UPDATE orders SET customer_id = ?, total = ?, status = ?, placed_at = ?::timestamptz WHERE id = ?";
                case "d" -> "DELETE FROM " + table + " WHERE id = ?";
                default -> throw new IllegalStateException("no SQL for op " + op);
            };
            try (PreparedStatement prepared = sql.prepareStatement(statement)) {
                int i = 1;
                if (!op.equals("d")) {
                    if (event.customer()) {
                        prepared.setString(i++, row.path("name").asText());
                        prepared.setString(i++, row.path("city").asText());
                    } else {
                        prepared.setLong(i++, row.path("customer_id").asLong());
                        prepared.setBigDecimal(i++, new java.math.BigDecimal(row.path("total").asText()));
                        prepared.setString(i++, row.path("status").asText());
                        prepared.setString(i++, row.path("placed_at").asText());
                    }
                }
                prepared.setLong(i, row.path("id").asLong());
                prepared.executeUpdate();
            }
            if (++pending == 200) {
                sql.commit();
                pending = 0;
            }
        }
        sql.commit();
    }

    private static void marker(Connection sql, int id, String name) throws SQLException {
        try (PreparedStatement statement = sql.prepareStatement("INSERT INTO " + MARKER + " VALUES (?, ?)")) {
            statement.setInt(1, id);
            statement.setString(2, name);
            statement.executeUpdate();
        }
        sql.commit();
    }
}
