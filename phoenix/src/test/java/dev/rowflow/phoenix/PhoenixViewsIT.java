package dev.rowflow.phoenix;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.embedded.load.Offsets;
import dev.rowflow.events.LogEvent;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.pipeline.cli.Rowflow;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.DeclaredInput;
import dev.rowflow.pipeline.ingest.OrderIngest;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import dev.rowflow.pipeline.sql.PhoenixViews;
import dev.rowflow.sinks.hbase.TableAdmin;
import dev.rowflow.sinks.query.InputQueries;
import dev.rowflow.sinks.query.StoredRow;
import dev.rowflow.sinks.sql.PhoenixView;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.phoenix.jdbc.PhoenixConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The views {@code rowflow tables sql} prints, run through a real Apache Phoenix (5.2.1, its
 * coprocessors on the embedded mini cluster's region server, as Phoenix's own tests run it) over
 * the tables the real pipeline wrote ({@link Workload}: log, order, Filebeat and Debezium tables):
 * every view returns every row with the values rowflow's reader reads, queries on leading key
 * parts are range scans, a salted table's time range finds its rows in every bucket, an index
 * view joined to its data view finds the records the index does, SQL sums over a summary table
 * are rowflow's counts, and the script run again adds the columns a view lacks.
 *
 * <p>One Phoenix connection for the class: the first takes ~15 s (Phoenix makes its SYSTEM tables).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
class PhoenixViewsIT {
    private static EmbeddedStack stack;
    private static RowflowConfig config;
    private static Path configFile;
    private static String script;
    private static Map<String, PhoenixViews.View> views;
    private static Connection phoenix;

    @BeforeAll
    static void writeTablesAndCreateTheViews(EmbeddedStack shared, @TempDir Path dir) throws Exception {
        stack = shared;
        Map<String, String> props = Workload.config(stack);
        config = new RowflowConfig(props);
        configFile = dir.resolve("rowflow.properties");
        Files.writeString(configFile, props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")));
        Workload.produce(config);
        run();
        // As a user does: the DDL rowflow prints, run as a script the way Phoenix's psql.py runs one.
        script = cli("tables", "sql");
        // What the views look like, for whoever reads this test's results.
        Files.writeString(Path.of("target", "tables-sql.sql"), script);
        java.util.Properties settings = new java.util.Properties();
        // Phoenix sleeps this long (5 s by default) before it checks that a view's table took its
        // coprocessors; the mini cluster takes them in well under a second.
        settings.setProperty("phoenix.schema.change.delay", "200");
        settings.setProperty("phoenix.schema.change.retries", "100");
        phoenix = DriverManager.getConnection("jdbc:phoenix:localhost:"
                + stack.hbase().clientProperties().get("hbase.zookeeper.property.clientPort") + ":/hbase", settings);
        phoenix.setAutoCommit(true);
        try (PipelinePlan plan = PipelinePlan.build(config, new dev.rowflow.pipeline.ingest.UidBinding());
             org.apache.hadoop.hbase.client.Admin admin = stack.hbase().connection().getAdmin()) {
            views = new TreeMap<>();
            for (PhoenixViews.View view : PhoenixViews.of(plan, new TableAdmin(admin), stack.hbase().connection(), 1000,
                    selected -> true)) {
                views.put(view.view().table(), view);
            }
        }
        runScript(script);
        // Phoenix put its coprocessors on the tables to make the views; rowflow writes on all the same.
        Workload.produceFilebeat(config.kafkaProperties(), Workload.FILEBEAT_LATER, Workload.FILEBEAT_RECORDS);
        run();
    }

    /** Runs the pipeline until it has committed every record of its topics and its internal topics. */
    private static void run() throws Exception {
        String group = config.getString(RowflowConfig.APPLICATION_ID_CONFIG);
        try (RowflowPipeline pipeline = RowflowPipeline.start(config, new SimpleMeterRegistry());
             Admin admin = Admin.create(config.kafkaProperties())) {
            assertThat(Offsets.awaitCommittedThroughInternalTopics(admin, group, Workload.topics(),
                    OrderIngest.internalTopics(group).size(), Duration.ofSeconds(150), polled -> assertThat(
                            pipeline.state()).isNotEqualTo(org.apache.kafka.streams.KafkaStreams.State.ERROR)))
                    .as("every record committed").isTrue();
        }
    }

    @AfterAll
    static void closePhoenix() throws Exception {
        if (phoenix != null) {
            phoenix.close();
        }
    }

    @Test
    void shouldViewEveryTableKindWithEveryRowAsRowflowReadsIt() throws Exception {
        assertThat(views.keySet()).containsExactly("phx_cdc_customers", "phx_cdc_orders", "phx_filebeat", "phx_filebeat_host",
                "phx_filebeat_summary", "phx_log_data", "phx_log_index", "phx_log_summary", "phx_order",
                "phx_order_index", "phx_shop_customers", "phx_shop_orders", "phx_shop_orders_status", "phx_uid");
        // A wildcard's columns: the qualifiers it wrote into the rows sampled.
        assertThat(views.get("phx_filebeat").view().cellColumns()).containsKeys(
                "\"d\".\"x.agent.type\"", "\"d\".\"x.host.os.family\"", "\"d\".\"x.labels.team\"");
        for (PhoenixViews.View view : views.values()) {
            assertThat(view.existing()).as("no view before the script ran").isEmpty();
            assertThat(script).contains(view.script());
            List<List<Object>> expected = new ArrayList<>();
            try (Table table = stack.hbase().connection().getTable(TableName.valueOf(view.view().table()));
                 ResultScanner scanner = table.getScanner(new Scan())) {
                for (Result row : scanner) {
                    expected.add(ReadBack.rowflowRow(view.view(), row));
                }
            }
            List<List<Object>> rows = query("SELECT * FROM " + view.view().name());
            assertThat(expected).as(view.view().table()).isNotEmpty();
            // Row for row; Phoenix reads a table's regions in parallel and returns them interleaved.
            assertThat(rows).as(view.view().table()).containsExactlyInAnyOrderElementsOf(expected);
            try (Statement s = phoenix.createStatement();
                 ResultSet rs = s.executeQuery("SELECT * FROM " + view.view().name() + " LIMIT 1")) {
                assertThat(rs.getMetaData().getColumnCount()).as(view.view().table())
                        .isEqualTo(view.view().keyColumns().size() + view.view().cellColumns().size());
            }
        }
        // The record written after the views, 60 days old, expired by the tables' TTL for Phoenix as for rowflow.
        assertThat(query("SELECT COUNT(*) FROM \"phx_filebeat\"")).containsExactly(List.of((long) Workload.FILEBEAT_RECORDS));
        assertThat(query("SELECT COUNT(*) FROM \"phx_filebeat_host\"")).containsExactly(List.of((long) Workload.FILEBEAT_RECORDS));
        // CUSTOMER++ with record types, as the demo runs it: customers' rows end after their record type,
        // order rows after their row type, location and line item rows run on.
        List<List<Object>> kinds = query("SELECT \"recordType\", OCTET_LENGTH(\"rest\"), COUNT(*), COUNT(\"orderNumber\") "
                + "FROM \"phx_order\" GROUP BY \"recordType\", OCTET_LENGTH(\"rest\") ORDER BY 1, 2");
        assertThat(kinds).containsExactly(java.util.Arrays.asList((long) '1', null, (long) Workload.CUSTOMERS, 0L),
                List.of((long) '2', 1L, (long) Workload.ORDERS, (long) Workload.ORDERS),
                List.of((long) '2', 5L, kinds.get(2).get(2), kinds.get(2).get(2)),
                List.of((long) '2', 9L, kinds.get(3).get(2), kinds.get(3).get(2)));
    }

    @Test
    void shouldRangeScanAQueryBoundedOnTheLeadingKeyParts() throws Exception {
        assertThat(plan("SELECT * FROM \"phx_filebeat_host\" WHERE \"host.name\" = 'web-2' AND \"event.dataset\" = 'generic'"))
                .contains("RANGE SCAN OVER phx_filebeat_host ['web-2','generic']");
        long db1 = (Long) query("SELECT \"u\".\"i\" FROM \"phx_uid\" WHERE \"kind\" = 'hostname' AND \"name\" = 'db-1'")
                .get(0).get(0);
        assertThat(plan("SELECT * FROM \"phx_log_index\" WHERE \"hostname\" = " + db1))
                .contains("RANGE SCAN OVER phx_log_index [" + db1 + "]");
        assertThat(plan("SELECT * FROM \"phx_shop_orders\" WHERE \"customer_id\" = 3"))
                .contains("RANGE SCAN OVER phx_shop_orders [3]");
        assertThat(plan("SELECT * FROM \"phx_order\" WHERE \"customerNumber\" = 'C0000003'"))
                .contains("RANGE SCAN OVER phx_order ['C0000003']");

        // What the range reads is what rowflow's reader reads by the same leading value.
        List<List<Object>> shop = query("SELECT \"id\" FROM \"phx_shop_orders\" WHERE \"customer_id\" = 3");
        List<StoredRow> read = inputQueries("shop_orders", queries -> queries.data(List.of(3L), 0, Long.MAX_VALUE,
                false, 0).rows());
        assertThat(shop).isNotEmpty().containsExactlyInAnyOrderElementsOf(read.stream().map(row -> List.<Object>of(
                RowKeyLayout.parse("customer_id:long, id:long", null).decode(row.key()).fields().get("id"))).toList());
    }

    @Test
    void shouldFindATimeRangeOfASaltedTableInEveryBucket() throws Exception {
        long from = Workload.filebeatTime(40);
        long to = Workload.filebeatTime(161);
        String buckets = IntStream.range(0, 16).mapToObj(String::valueOf).collect(Collectors.joining(", "));
        String sql = "SELECT \"@timestamp\", \"host.name\", \"log.offset\" FROM \"phx_filebeat\" WHERE \"salt\" IN ("
                + buckets + ") AND \"@timestamp\" >= TO_DATE('" + date(from) + "') AND \"@timestamp\" < TO_DATE('"
                + date(to) + "') ORDER BY \"@timestamp\", \"host.name\", \"log.offset\"";
        assertThat(plan(sql)).contains("SKIP SCAN ON 16 RANGES OVER phx_filebeat");
        List<List<Object>> rows = query(sql);
        assertThat(rows).hasSize(161 - 40);
        List<StoredRow> read = inputQueries("filebeat", queries -> queries.data(List.of(), from, to, false, 0).rows());
        RowKeyLayout layout = RowKeyLayout.parse(views.get("phx_filebeat").view().layout().spec(), null);
        assertThat(rows).containsExactlyElementsOf(read.stream().map(row -> {
            Map<String, Object> key = layout.decode(row.key()).fields();
            return List.of(key.get("@timestamp"), key.get("host.name"), key.get("log.offset"));
        }).toList());
        // Without naming the buckets: the same rows, read by a full scan.
        assertThat(query(sql.replace("\"salt\" IN (" + buckets + ") AND ", ""))).isEqualTo(rows);
    }

    @Test
    void shouldJoinAnIndexViewToItsDataViewAsTheIndexFindsTheRecords() throws Exception {
        String join = views.get("phx_filebeat_host").join("i.\"host.name\" = 'web-2'").orElseThrow();
        List<List<Object>> joined = query(join.replace("SELECT d.*", "SELECT d.\"log.offset\", d.\"d\".\"m\""));
        List<StoredRow> found = inputQueries("filebeat", queries -> queries.index(TableRole.of("filebeat.index.host"),
                List.of("web-2"), 0, Long.MAX_VALUE, false, 0).rows());
        assertThat(joined).hasSize(Workload.FILEBEAT_RECORDS / 3).containsExactlyInAnyOrderElementsOf(found.stream()
                .map(row -> List.<Object>of(Long.parseLong(cell(row, "o")), cell(row, "m"))).toList());

        // Host names by their ids: the UID table's view names them.
        String logJoin = views.get("phx_log_index").join("i.\"hostname\" = (SELECT \"u\".\"i\" FROM \"phx_uid\" "
                + "WHERE \"kind\" = 'hostname' AND \"name\" = 'db-1') AND i.\"eventType\" = 'auth'").orElseThrow();
        List<List<Object>> events = query(logJoin.replace("SELECT d.*", "SELECT d.\"d\".\"m\""));
        assertThat(events).containsExactlyInAnyOrderElementsOf(Workload.logEvents().stream()
                .filter(e -> e.getHostname().equals("db-1") && e.getEventType().equals("auth"))
                .map(e -> List.<Object>of(e.getMessage())).toList());
        assertThat(query("SELECT u.\"name\", COUNT(*) FROM \"phx_log_data\" d JOIN \"phx_uid\" u ON u.\"u\".\"i\" = "
                + "d.\"hostname\" WHERE u.\"kind\" = 'hostname' GROUP BY u.\"name\" ORDER BY u.\"name\""))
                .containsExactly(List.of("db-1", 100L), List.of("web-1", 100L), List.of("web-2", 100L));
    }

    @Test
    void shouldSumASummaryTableToRowflowsCounts() throws Exception {
        Map<String, Long> counted = Workload.logEvents().stream().collect(Collectors.groupingBy(
                e -> e.getHostname() + "/" + e.getEventType(), TreeMap::new, Collectors.counting()));
        List<List<Object>> sums = query("SELECT \"hostname\", \"eventType\", SUM(\"s\".\"n\") FROM \"phx_log_summary\" "
                + "GROUP BY \"hostname\", \"eventType\" ORDER BY \"hostname\", \"eventType\"");
        assertThat(sums).containsExactlyElementsOf(counted.entrySet().stream().map(e -> List.<Object>of(
                e.getKey().split("/")[0], e.getKey().split("/")[1], e.getValue())).toList());

        // The summary table keeps no TTL: the expired record is counted too.
        Map<String, Long> perHost = IntStream.rangeClosed(0, Workload.FILEBEAT_RECORDS).mapToObj(Workload::filebeatHost)
                .collect(Collectors.groupingBy(h -> h, TreeMap::new, Collectors.counting()));
        assertThat(query("SELECT \"host.name\", SUM(\"s\".\"n\") FROM \"phx_filebeat_summary\" GROUP BY \"host.name\""))
                .containsExactlyElementsOf(perHost.entrySet().stream().map(e -> List.<Object>of(e.getKey(), e.getValue()))
                        .toList());
    }

    @Test
    void shouldAddTheColumnsAViewLacksWhenTheScriptRunsAgain() throws Exception {
        PhoenixView current = views.get("phx_shop_customers").view();
        // The view as an earlier configuration made it, before column y was declared.
        runScript("DROP VIEW " + current.name() + ";\n" + current.ddl().replace("    \"d\".\"y\" VARCHAR,\n", ""));
        assertThat(columns(current)).doesNotContain("y");

        String again = cli("tables", "sql", "--table", "phx_shop_customers");
        assertThat(again).doesNotContain("CREATE VIEW").contains("ALTER VIEW \"phx_shop_customers\" ADD IF NOT EXISTS\n"
                + "    \"d\".\"y\" VARCHAR;\n");
        runScript(again);

        assertThat(columns(current)).contains("y");
        assertThat(cli("tables", "sql", "--table", "phx_shop_customers"))
                .contains("-- the view \"phx_shop_customers\" exists with every column");
        assertThat(query("SELECT COUNT(\"d\".\"y\") FROM " + current.name()).get(0).get(0)).isNotEqualTo(0L);
    }

    /** A time as Phoenix's TO_DATE reads it by default (GMT). */
    private static String date(long millis) {
        return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(java.time.ZoneOffset.UTC)
                .format(java.time.Instant.ofEpochMilli(millis));
    }

    private static List<String> columns(PhoenixView view) throws Exception {
        try (Statement s = phoenix.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM " + view.name()
                + " LIMIT 1")) {
            return IntStream.rangeClosed(1, rs.getMetaData().getColumnCount()).mapToObj(i -> {
                try {
                    return rs.getMetaData().getColumnName(i);
                } catch (java.sql.SQLException e) {
                    throw new IllegalStateException(e);
                }
            }).toList();
        }
    }

    private static String cell(StoredRow row, String qualifier) {
        return row.cells().stream().filter(c -> Bytes.toString(c.qualifier()).equals(qualifier))
                .map(c -> Bytes.toString(c.value())).findFirst().orElse(null);
    }

    /** What rowflow's reader of input {@code input} answers. */
    private static <T> T inputQueries(String input, java.util.function.Function<InputQueries, T> read) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (PipelinePlan plan = PipelinePlan.build(config, new dev.rowflow.pipeline.ingest.UidBinding())) {
            DeclaredInput declared = plan.declaredInput(input).orElseThrow();
            Map<TableRole, TableName> tables = new HashMap<>();
            declared.tables().forEach(table -> tables.put(table.role(), table.definition().name()));
            return read.apply(new InputQueries(stack.hbase().connection(), declared.mapping(), tables, pool));
        } finally {
            pool.shutdownNow();
        }
    }

    private static String plan(String sql) throws Exception {
        return query("EXPLAIN " + sql).stream().map(row -> String.valueOf(row.get(0))).collect(Collectors.joining("\n"));
    }

    private static List<List<Object>> query(String sql) throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement s = phoenix.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rows.add(ReadBack.phoenixRow(rs));
            }
        }
        return rows;
    }

    /** Runs a script as Phoenix's psql.py does. */
    private static void runScript(String sql) throws Exception {
        phoenix.unwrap(PhoenixConnection.class).executeStatements(new StringReader(sql), List.of(), System.out);
    }

    private static String cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Rowflow.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        List<String> withConfig = new ArrayList<>(List.of(args));
        withConfig.add("--config");
        withConfig.add(configFile.toString());
        assertThat(cli.execute(withConfig.toArray(new String[0]))).as("exit code; stderr:%n%s", err).isZero();
        return out.toString();
    }
}
