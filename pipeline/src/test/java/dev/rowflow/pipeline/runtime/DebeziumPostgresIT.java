package dev.rowflow.pipeline.runtime;

import dev.rowflow.embedded.EmbeddedPostgres;
import dev.rowflow.embedded.EmbeddedRegistry;
import dev.rowflow.embedded.PostgresCapture;
import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.embedded.load.Offsets;
import dev.rowflow.embedded.load.TableRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Debezium itself against a real PostgreSQL (Debian's package, {@code wal_level=logical}), the
 * PostgreSQL connector through the embedded engine writing both shapes of Kafka Connect's
 * JsonConverter into the embedded broker, and rowflow declared from docs/cdc.md: the schema shape
 * read with its schema, the plain shape with its columns' types declared. The workload: a
 * snapshot, inserts, updates, deletes with tombstones, NULLs, a primary-key change, a delete and a
 * re-insert in one transaction, decimals of fixed and of no scale, dates, times (24:00:00 too) and
 * timestamps of every precision (zero fractions too), a TOASTed column an update leaves unchanged
 * (sent as Debezium's placeholder), {@code ALTER TABLE ... ADD COLUMN} mid-run, a table created
 * while the connector and rowflow run (read by one input of every other table's topic,
 * {@code topic.pattern} with {@code key=$key.*}: picked up without a restart), the connector
 * stopped and restarted from its offsets while the database changes, and the production jar killed
 * with SIGKILL. At the end each HBase table equals {@code SELECT} of its PostgreSQL table (every
 * column as PostgreSQL prints it in the documented form), the three shapes' tables are byte for
 * byte the same, and the denormalized view (orders joined with their customers) equals the SQL join.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class DebeziumPostgresIT {
    private static final String DATABASE = "shop";
    private static EmbeddedStack stack;
    private static final String GROUP = "debezium-postgres";
    private static EmbeddedPostgres postgres;
    private static EmbeddedRegistry registry;

    @BeforeAll
    static void start(EmbeddedStack shared) {
        Assumptions.assumeTrue(EmbeddedPostgres.binaries().isPresent(),
                "PostgreSQL is not installed (apt-get install postgresql, as .ci/run does): Debezium is not run");
        stack = shared;
        postgres = EmbeddedPostgres.start(DATABASE);
        registry = EmbeddedRegistry.launch();
    }

    @AfterAll
    static void stop() {
        if (postgres != null) {
            postgres.close();
        }
        if (registry != null) {
            registry.close();
        }
    }

    /** Apicurio's Connect Avro converter in the Confluent wire format, registering each new schema. */
    private static org.apache.kafka.connect.storage.Converter avroConverter(boolean key) {
        io.apicurio.registry.utils.converter.AvroConverter<Object> converter =
                new io.apicurio.registry.utils.converter.AvroConverter<>();
        converter.configure(Map.of("apicurio.registry.url", registry.apiUrl(), "apicurio.registry.auto-register", "true",
                "apicurio.registry.as-confluent", "true", "apicurio.registry.use-id", "contentId"), key);
        return converter;
    }

    /** The rows of each table as SELECT gives them, every value in the form rowflow documents for its type. */
    private static final Map<String, String> SELECTS = Map.of(
            "customers", "SELECT id::text, name, tier, bio, to_char(joined, 'YYYY-MM-DD') AS joined, "
                    + "to_char(seen_at, 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') AS seen_at, balance::text AS balance "
                    + "FROM customers",
            "orders", "SELECT id::text, customer_id::text AS customer_id, total::text AS total, status, "
                    + "to_char(placed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"000Z\"') AS placed_at, "
                    + "to_char(paid_at, 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS paid_at, "
                    + "to_char(slot, 'HH24:MI:SS.US') AS slot, "
                    // A numeric without a scale: Debezium sends the value without its trailing zeros.
                    + "trim_scale(weight)::text AS weight, note, "
                    // The column a phase adds: NULL (no cell) where the table does not have it yet.
                    + "to_jsonb(orders) ->> 'coupon' AS coupon FROM orders",
            // The table created mid-run, read by the input of every other topic (topic.pattern, key=$key.*).
            "shipments", "SELECT order_id::text AS order_id, carrier, "
                    + "to_char(shipped_at, 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') AS shipped_at, weight::text AS weight "
                    + "FROM shipments");
    private static final List<String> TABLES = List.of("customers", "orders", "shipments");

    @Test
    void shouldMakeEachTableTheDatabasesSelectInBothConverterShapesAcrossAConnectorRestart(@TempDir Path dir)
            throws Exception {
        List<PostgresCapture.Shape> shapes = List.of(PostgresCapture.Shape.json("schemas", true),
                PostgresCapture.Shape.json("plain", false),
                new PostgresCapture.Shape("avro", avroConverter(true), avroConverter(false)));
        try (Connection sql = DriverManager.getConnection(postgres.jdbcUrl(DATABASE), EmbeddedPostgres.USER, "")) {
            execute(sql, """
                    CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, tier text, bio text,
                      joined date, seen_at timestamp(6), balance numeric(12,2));
                    ALTER TABLE customers ALTER COLUMN bio SET STORAGE EXTERNAL;
                    CREATE TABLE orders (id bigint PRIMARY KEY, customer_id integer, total numeric(10,2), status text,
                      placed_at timestamptz, paid_at timestamp(3), slot time, weight numeric, note text);
                    """);
            // The snapshot: rows there before the connector starts.
            for (int c = 1; c <= 5; c++) {
                execute(sql, "INSERT INTO customers VALUES (" + c + ", 'customer " + c + "', 'basic', '" + bio(c)
                        + "', '2024-02-29', '2024-02-29 12:00:00', 1000.5)");
            }
            for (int o = 1; o <= 12; o++) {
                execute(sql, "INSERT INTO orders VALUES (" + o + ", " + (o % 5 + 1) + ", " + (o * 10.25) + ", 'new', "
                        + "'2024-02-29 13:00:00+01', '2024-02-29 12:00:00.5', '08:30:00', 0.002, 'order " + o + "')");
            }
            Map<String, Object> kafka = Map.of("bootstrap.servers", stack.kafka().bootstrapServers());
            long phase1;
            try (PostgresCapture capture = new PostgresCapture(postgres, DATABASE, dir.resolve("offsets.dat"), kafka,
                    shapes)) {
                capture.start();
                execute(sql, "INSERT INTO customers (id, name) VALUES (100, 'snapshot taken')");
                capture.awaitName("snapshot taken");

                // Streaming: every kind of change, and a new table, while rowflow runs.
                phase1 = ingest(shapes, "phase 1", () -> {
                    execute(sql, """
                            INSERT INTO orders VALUES (13, 2, 99999999.99, 'new', '1969-12-31 23:59:59.999999+00',
                              '2024-01-01 00:00:00', '24:00:00', -12345.678901, NULL);
                            UPDATE orders SET status = 'paid', paid_at = '2024-03-01 10:00:00.123' WHERE id = 1;
                            UPDATE orders SET note = NULL, weight = NULL WHERE id = 2;
                            DELETE FROM orders WHERE id = 5;
                            UPDATE orders SET id = 500 WHERE id = 3;
                            BEGIN;
                            DELETE FROM orders WHERE id = 4;
                            INSERT INTO orders VALUES (4, 1, 4.00, 'again', now(), NULL, '00:00:00.000001', 1, 'reinserted');
                            COMMIT;
                            UPDATE customers SET tier = 'gold' WHERE id = 1;
                            UPDATE customers SET balance = 0, seen_at = '2024-03-01 00:00:00.000001' WHERE id = 2;
                            """);
                    // A table the connector starts capturing mid-run: its topics appear while rowflow runs.
                    execute(sql, """
                            CREATE TABLE shipments (order_id bigint, carrier text, shipped_at timestamp(6), weight numeric(8,3),
                              PRIMARY KEY (order_id, carrier));
                            INSERT INTO shipments VALUES (1, 'dhl', '2024-03-01 09:00:00', 1.500);
                            INSERT INTO shipments VALUES (1, 'ups', '2024-03-01 09:30:00.25', 0.250);
                            INSERT INTO shipments VALUES (2, 'dhl', NULL, 12.000);
                            UPDATE shipments SET weight = 1.750 WHERE order_id = 1 AND carrier = 'dhl';
                            DELETE FROM shipments WHERE order_id = 1 AND carrier = 'ups';
                            """);
                    execute(sql, "INSERT INTO customers (id, name) VALUES (101, 'streamed')");
                    capture.awaitName("streamed");
                });
                assertTablesHoldTheSelects(sql, shapes);

                // The connector down while the database changes, a column added; then back from its offsets.
                capture.stop();
                execute(sql, """
                        ALTER TABLE orders ADD COLUMN coupon text;
                        INSERT INTO orders VALUES (14, 3, 7.10, 'new', '2024-06-30 23:59:59.999999-07', NULL,
                          '12:00:00', 3.14, NULL, 'SUMMER');
                        UPDATE orders SET coupon = 'LATE', status = 'shipped' WHERE id = 6;
                        UPDATE customers SET tier = 'platinum', name = 'customer one' WHERE id = 1;
                        DELETE FROM customers WHERE id = 5;
                        INSERT INTO orders (id, customer_id, total, status, placed_at, slot, weight)
                          SELECT g, g % 4 + 1, g / 100.0, 'bulk', '2024-01-01 00:00:00+00'::timestamptz + g * interval '1 ms',
                            time '00:00' + g * interval '1 s', g / 1000.0 FROM generate_series(1000, 1999) g;
                        UPDATE orders SET status = 'bulk updated', coupon = 'B' || id WHERE id >= 1000;
                        DELETE FROM orders WHERE id >= 1000 AND id % 7 = 0;
                        INSERT INTO shipments SELECT g, 'bulk', '2024-01-01 00:00:00'::timestamp + g * interval '1 s', g / 1000.0
                          FROM generate_series(1000, 1299) g;
                        UPDATE shipments SET carrier = 'ups' WHERE order_id = 2;
                        DELETE FROM shipments WHERE order_id >= 1000 AND order_id % 5 = 0;
                        """);
                capture.start();
                execute(sql, "INSERT INTO customers (id, name) VALUES (102, 'restarted')");
                capture.awaitName("restarted");
            }
            killedMidRun(shapes, phase1, dir);
            ingest(shapes, "phase 2", () -> { });
            assertTablesHoldTheSelects(sql, shapes);
            assertTheViewHoldsTheJoin(sql);
        }
    }

    /** The denormalized view: each order with its customer's present fields, as SQL joins them. */
    private static final String JOIN = "SELECT o.id::text AS i, o.customer_id::text AS c, o.total::text AS t, "
            + "o.status AS s, o.note AS n, c.name AS cn, c.tier AS cr FROM orders o LEFT JOIN customers c ON c.id = o.customer_id";

    /**
     * An application of its own joins the schema shape's orders with their customers (the
     * debezium-join recipe) from the start of the topics, exactly once; its orders table then
     * equals {@link #JOIN}. The rows come through the join's internal topics after the source
     * offsets are committed, so the table is read until it equals the join (or the time is up).
     */
    private static void assertTheViewHoldsTheJoin(Connection sql) throws Exception {
        Map<String, String> props = new HashMap<>(stack.rowflowProperties());
        props.putAll(dev.rowflow.pipeline.config.ConfigSources.load(
                java.nio.file.Path.of("..", "deploy", "recipes", "debezium-join.properties"), Map.of()));
        props.putAll(stack.rowflowProperties()); // the embedded stack's brokers and quorum
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, GROUP + "-view");
        props.put("pipelines", "");
        props.put("input.customers.topic", "schemas.public.customers");
        props.put("input.customers.table", "view_customers");
        props.put("input.orders.topic", "schemas.public.orders");
        props.put("input.orders.table", "view_orders");
        props.put("input.orders.index.customer.table", "view_orders_by_customer");
        List<Map<String, String>> expected = select(sql, JOIN);
        List<Map<String, String>> actual = List.of();
        try (RowflowPipeline pipeline = RowflowPipeline.start(new RowflowConfig(props), new SimpleMeterRegistry())) {
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (System.nanoTime() < deadline) {
                assertThat(pipeline.state()).isNotEqualTo(KafkaStreams.State.ERROR);
                actual = cellsOf("view_orders");
                if (actual.equals(expected)) {
                    break;
                }
                Thread.sleep(500);
            }
        }
        assertThat(actual).as("HBase table view_orders against %s", JOIN).isEqualTo(expected)
                .anyMatch(row -> !row.containsKey("cn")).anyMatch(row -> row.containsKey("cn"));
    }

    /** The cells of each row of an HBase table by qualifier, as text, in the order of their text. */
    private static List<Map<String, String>> cellsOf(String table) throws Exception {
        List<Map<String, String>> rows = new ArrayList<>();
        for (Result row : TableRows.scan(stack.connection("hbase"), table).values()) {
            Map<String, String> cells = new TreeMap<>();
            for (Cell cell : row.rawCells()) {
                cells.put(Bytes.toString(CellUtil.cloneQualifier(cell)), Bytes.toString(CellUtil.cloneValue(cell)));
            }
            rows.add(cells);
        }
        rows.sort(java.util.Comparator.comparing(Object::toString));
        return rows;
    }

    /** A text of 8 KB that does not compress: stored out of line (TOAST), sent only when it changes. */
    private static String bio(int customer) {
        Random random = new Random(customer);
        StringBuilder text = new StringBuilder("bio of " + customer + ":");
        while (text.length() < 8192) {
            text.append((char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }

    private static void assertTablesHoldTheSelects(Connection sql, List<PostgresCapture.Shape> shapes) throws Exception {
        for (String table : TABLES) {
            List<Map<String, String>> expected = select(sql, SELECTS.get(table));
            List<String> first = null;
            for (PostgresCapture.Shape shape : shapes) {
                String hbaseTable = shape.prefix() + "_" + table;
                Map<ByteBuffer, Result> rows = TableRows.scan(stack.connection("hbase"), hbaseTable);
                List<Map<String, String>> actual = new ArrayList<>();
                List<String> bytes = new ArrayList<>();
                for (Result row : rows.values()) {
                    Map<String, String> cells = new TreeMap<>();
                    StringBuilder line = new StringBuilder(Bytes.toStringBinary(row.getRow()));
                    for (Cell cell : row.rawCells()) {
                        String qualifier = Bytes.toString(CellUtil.cloneQualifier(cell));
                        cells.put(qualifier, Bytes.toString(CellUtil.cloneValue(cell)));
                        line.append(' ').append(qualifier).append('=')
                                .append(Bytes.toStringBinary(CellUtil.cloneValue(cell))).append('@').append(cell.getTimestamp());
                    }
                    actual.add(cells);
                    bytes.add(line.toString());
                }
                actual.sort(java.util.Comparator.comparing(Object::toString));
                assertThat(actual).as("%s: HBase table %s against SELECT * FROM %s", shape.prefix(), hbaseTable, table)
                        .isEqualTo(expected).isNotEmpty();
                bytes.sort(null);
                if (first == null) {
                    first = bytes;
                } else {
                    assertThat(bytes).as("%s's table %s byte for byte as the first shape's", shape.prefix(), hbaseTable)
                            .isEqualTo(first);
                }
            }
        }
    }

    /** The rows of the query, each the columns that are not NULL as text, in the order of their text. */
    private static List<Map<String, String>> select(Connection sql, String query) throws SQLException {
        List<Map<String, String>> rows = new ArrayList<>();
        try (Statement statement = sql.createStatement(); ResultSet result = statement.executeQuery(query)) {
            ResultSetMetaData columns = result.getMetaData();
            while (result.next()) {
                Map<String, String> row = new TreeMap<>();
                for (int i = 1; i <= columns.getColumnCount(); i++) {
                    String value = result.getString(i);
                    if (value != null) {
                        row.put(columns.getColumnLabel(i), value);
                    }
                }
                rows.add(row);
            }
        }
        rows.sort(java.util.Comparator.comparing(Object::toString));
        return rows;
    }

    /**
     * The production jar over the topics, killed with SIGKILL once it has committed a quarter of what
     * the topics hold beyond {@code committedBefore}: the changes it wrote but had not committed are
     * applied again by the next run.
     */
    private static void killedMidRun(List<PostgresCapture.Shape> shapes, long committedBefore, Path dir) throws Exception {
        Map<String, String> props = declaration(shapes);
        props.put("kafka.commit.interval.ms", "1000");
        Path configFile = dir.resolve("rowflow.properties");
        // A properties file reads a backslash as an escape: the regex's are doubled, as a user writes them.
        java.nio.file.Files.writeString(configFile, props.entrySet().stream().map(e -> e.getKey() + "="
                + e.getValue().replace("\\", "\\\\")).collect(java.util.stream.Collectors.joining("\n")));
        List<String> topics = topics(shapes);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.kafka().bootstrapServers()))) {
            long held = 0;
            for (String topic : topics) {
                held += Offsets.written(admin, topic);
            }
            long killAt = committedBefore + (held - committedBefore) / 4;
            dev.rowflow.pipeline.guarantees.RowflowProcess rowflow = dev.rowflow.pipeline.guarantees.RowflowProcess
                    .start(configFile, dir, List.of("-Xmx512m"));
            long committed;
            try {
                committed = Offsets.awaitCommitted(admin, GROUP, topics, killAt, Duration.ofSeconds(120),
                        c -> assertThat(rowflow.isAlive()).as("rowflow alive; its log:%n%s", rowflow.logTail()).isTrue());
            } finally {
                rowflow.kill();
            }
            assertThat(committed).as("killed mid-run: committed of %d records", held).isBetween(killAt, held - 1);
        }
    }

    private static List<String> topics(List<PostgresCapture.Shape> shapes) {
        List<String> topics = new ArrayList<>();
        for (PostgresCapture.Shape shape : shapes) {
            for (String table : TABLES) {
                topics.add(shape.prefix() + ".public." + table);
            }
        }
        return topics;
    }

    /** What runs while rowflow does. */
    @FunctionalInterface
    private interface WhileRunning {
        void run() throws Exception;
    }

    /**
     * Runs rowflow over every shape's topics while {@code changes} run, then until it has committed
     * all the topics hold; returns the records committed.
     */
    private static long ingest(List<PostgresCapture.Shape> shapes, String phase, WhileRunning changes)
            throws Exception {
        Map<String, String> props = declaration(shapes);
        props.put("kafka.commit.interval.ms", "500");
        RowflowConfig config = new RowflowConfig(props);
        try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry());
             Admin admin = Admin.create(config.kafkaProperties())) {
            changes.run();
            List<String> topics = topics(shapes);
            long committed = Offsets.awaitCommitted(admin, GROUP, topics, -1, Duration.ofSeconds(120),
                    c -> assertThat(pipeline.state()).isNotEqualTo(KafkaStreams.State.ERROR));
            for (String topic : topics) {
                assertThat(Offsets.uncommitted(admin, GROUP, topic)).as("%s: %s not committed", phase, topic).isZero();
            }
            assertThat(committed).as(phase).isPositive();
            java.util.Set<String> existing = admin.listTopics().names().get();
            for (String topic : topics) {
                assertThat(existing.contains(topic + ".dead-letter") ? Offsets.written(admin, topic + ".dead-letter") : 0)
                        .as("%s: dead letters of %s", phase, topic).isZero();
            }
            return committed;
        }
    }

    /** rowflow's declaration of every shape's tables, as docs/cdc.md writes it. */
    private static Map<String, String> declaration(List<PostgresCapture.Shape> shapes) {
        Map<String, String> props = new HashMap<>(stack.rowflowProperties());
        props.put(RowflowConfig.APPLICATION_ID_CONFIG, GROUP);
        props.put("pipelines", "");
        // A killed instance leaves the group when its session times out: the broker's least, 6 s, not 45 s.
        props.put("kafka.session.timeout.ms", "6000");
        props.put("kafka.heartbeat.interval.ms", "1000");
        // A new table's topic is read within a second or two.
        props.put("kafka.metadata.max.age.ms", "1000");
        List<String> inputs = new ArrayList<>();
        for (PostgresCapture.Shape shape : shapes) {
            // Every other table of the database: one input, each table keyed by its primary key.
            String rest = shape.prefix() + "_tables";
            inputs.add(rest);
            props.put("input." + rest + ".topic.pattern", java.util.regex.Pattern.quote(shape.prefix() + ".public.")
                    + "(?<table>[a-z_]+)");
            props.put("input." + rest + ".table", shape.prefix() + "_${table}");
            props.put("input." + rest + ".key", "$key.*");
            props.put("input." + rest + ".envelope", "debezium");
            props.put("input." + rest + ".time", "$source.ts_ms");
            props.put("input." + rest + ".time.format", "epoch-ms");
            if (shape.prefix().equals("plain")) {
                props.put("input." + rest + ".types", "shipped_at:timestamp-micros, weight:decimal(8,3)");
            }
            if (shape.prefix().equals("avro")) {
                props.put("input." + rest + ".format", "avro-registry");
                props.put("input." + rest + ".registry.url", registry.url());
            }
            for (String table : List.of("customers", "orders")) {
                String input = shape.prefix() + "_" + table;
                inputs.add(input);
                props.put("input." + input + ".topic", shape.prefix() + ".public." + table);
                props.put("input." + input + ".envelope", "debezium");
                props.put("input." + input + ".time", "$source.ts_ms");
                props.put("input." + input + ".time.format", "epoch-ms");
                props.put("input." + input + ".key", "id:long");
                if (shape.prefix().equals("plain")) {
                    props.put("input." + input + ".types", table.equals("customers")
                            ? "joined:date, seen_at:timestamp-micros, balance:decimal(12,2)"
                            : "total:decimal(10,2), placed_at:timestamp-zoned, paid_at:timestamp-millis, "
                            + "slot:time-micros, weight:decimal");
                }
                if (shape.prefix().equals("avro")) {
                    props.put("input." + input + ".format", "avro-registry");
                    props.put("input." + input + ".registry.url", registry.url());
                }
            }
        }
        props.put("inputs", String.join(",", inputs));
        return props;
    }

    /**
     * Runs each statement (ended by a semicolon at the end of a line) in a transaction of its own,
     * but those between {@code BEGIN;} and {@code COMMIT;}, which commit together.
     */
    private static void execute(Connection sql, String statements) throws SQLException {
        try (Statement statement = sql.createStatement()) {
            for (String one : statements.strip().split(";\\s*\\n")) {
                String text = one.strip().replaceAll(";$", "");
                if (text.equalsIgnoreCase("BEGIN")) {
                    sql.setAutoCommit(false);
                } else if (text.equalsIgnoreCase("COMMIT")) {
                    sql.commit();
                    sql.setAutoCommit(true);
                } else if (!text.isEmpty()) {
                    statement.execute(text);
                }
            }
        }
    }
}
