package dev.rowflow.demo;

import dev.rowflow.events.Customer;
import dev.rowflow.events.LogEvent;
import dev.rowflow.events.Order;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.order.OrderRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.embedded.load.OrderGenerator;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import dev.rowflow.sinks.hbase.HBaseRowSink;
import dev.rowflow.sinks.hbase.SinkSettings;
import dev.rowflow.sinks.hbase.TableAdmin;
import dev.rowflow.sinks.hbase.TableDefinition;
import dev.rowflow.sinks.query.InputQueries;
import dev.rowflow.sinks.query.LogEventView;
import dev.rowflow.sinks.query.OrderQueries;
import dev.rowflow.sinks.query.QueryResult;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntFunction;

/**
 * Latency of each query kind ({@code rowflow query}) on the rows the bench wrote: many queries
 * with parameters drawn from the written events, after a warm-up, one at a time; p50 and p99.
 */
final class QueryLatency {
    private static final int WARM_UP = 20;

    /** One query kind's latencies, in milliseconds, and the rows it returned on average. */
    record Result(String kind, String query, int queries, double p50Ms, double p99Ms, double rowsPerQuery) {
    }

    private QueryLatency() {
    }

    static List<Result> run(Connection connection, RowflowConfig config, List<LogEvent> events, int queries,
                            PrintWriter err) throws Exception {
        var tables = dev.rowflow.pipeline.ingest.LogIngest.of(config, null);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Result> results = new ArrayList<>();
        try {
            java.util.Map<TableRole, org.apache.hadoop.hbase.TableName> names = new java.util.LinkedHashMap<>();
            tables.tables().forEach(table -> names.put(table.role(), table.definition().name()));
            LogEventView logs = new LogEventView(new InputQueries(connection, tables.indexMapping(), names, pool));
            Random random = new Random(42);
            results.add(time("host", "one host and type, 2 s window, newest first, limit 100", queries, i -> {
                LogEvent e = events.get(random.nextInt(events.size()));
                long t = e.getTimestamp().toEpochMilli();
                return logs.host(e.getHostname(), e.getEventType(), t - 1_000, t + 1_000, 100);
            }, err));
            results.add(time("host (all types)", "one host, 2 s window, newest first, limit 100", queries, i -> {
                LogEvent e = events.get(random.nextInt(events.size()));
                long t = e.getTimestamp().toEpochMilli();
                return logs.host(e.getHostname(), null, t - 1_000, t + 1_000, 100);
            }, err));
            results.add(time("range", "all hosts, 100 ms window over 8 buckets, limit 100", queries, i -> {
                long t = events.get(random.nextInt(events.size())).getTimestamp().toEpochMilli();
                return logs.timeRange(t, t + 100, false, 100);
            }, err));
            results.add(time("index", "index prefix [host], in index key order, limit 100", queries, i ->
                    logs.index(List.of(events.get(random.nextInt(events.size())).getHostname()), 0,
                            Long.MAX_VALUE, 100), err));

            OrderData orders = writeOrders(connection, config);
            OrderQueries orderQueries = new OrderQueries(connection, orders.tables(), orders.rows());
            results.add(time("customer", "everything about a customer, CUSTOMER++ one scan", queries, i ->
                    orderQueries.customer(OrderGenerator.customerNumber(1 + random.nextInt(OrderData.CUSTOMERS))), err));
            results.add(time("order", "an order with its line items, through the order index", queries, i ->
                    orderQueries.order(orders.orderNumbers().get(random.nextInt(orders.orderNumbers().size()))), err));
        } finally {
            pool.shutdownNow();
        }
        return results;
    }

    private static Result time(String kind, String description, int queries, IntFunction<QueryResult<?>> query,
                               PrintWriter err) {
        for (int i = 0; i < WARM_UP; i++) {
            query.apply(i);
        }
        long[] nanos = new long[queries];
        long rows = 0;
        for (int i = 0; i < queries; i++) {
            long start = System.nanoTime();
            QueryResult<?> result = query.apply(i);
            nanos[i] = System.nanoTime() - start;
            rows += result.rows().size();
        }
        java.util.Arrays.sort(nanos);
        double p50 = nanos[(int) (queries * 0.50)] / 1e6;
        double p99 = nanos[Math.min(queries - 1, (int) Math.ceil(queries * 0.99) - 1)] / 1e6;
        err.printf("query %-17s p50 %6.2f ms  p99 %6.2f ms  (%d queries, %.1f rows each)%n", kind, p50, p99, queries,
                (double) rows / queries);
        err.flush();
        return new Result(kind, description, queries, Math.round(p50 * 100) / 100.0, Math.round(p99 * 100) / 100.0,
                Math.round((double) rows / queries * 10) / 10.0);
    }

    /** Customers and orders written as the orders pipeline writes them (record types, CUSTOMER++). */
    private record OrderData(Map<TableRole, TableName> tables, OrderRows rows, List<String> orderNumbers) {
        static final int CUSTOMERS = 2_000;
    }

    private static OrderData writeOrders(Connection connection, RowflowConfig logConfig) throws Exception {
        Map<String, Object> props = new java.util.LinkedHashMap<>(logConfig.originals());
        props.put(RowflowConfig.PIPELINES_CONFIG, RowflowConfig.ORDERS_PIPELINE);
        props.put(RowflowConfig.CUSTOMER_PLUS_PLUS_CONFIG, "true");
        props.put(RowflowConfig.ORDER_TABLE_CONFIG, "bench_order");
        props.put(RowflowConfig.ORDER_INDEX_TABLE_CONFIG, "bench_order_index");
        RowflowConfig config = new RowflowConfig(props);
        OrderRows rows = dev.rowflow.pipeline.ingest.OrderIngest.rows(config, null);
        dev.rowflow.pipeline.ingest.PipelinePlan plan = dev.rowflow.pipeline.ingest.PipelinePlan.build(config, null);
        Map<TableRole, TableDefinition> definitions = plan.tables();
        try (Admin admin = connection.getAdmin()) {
            RowflowPipeline.createOrCheck(new TableAdmin(admin), plan);
        }
        OrderGenerator generator = new OrderGenerator(9, OrderData.CUSTOMERS, System.currentTimeMillis());
        List<String> numbers = new ArrayList<>();
        try (HBaseRowSink sink = new HBaseRowSink(connection, definitions, new SinkSettings(0, 0))) {
            for (int c = 1; c <= OrderData.CUSTOMERS; c++) {
                sink.write(rows.customerRow(OrderGenerator.customer(c), System.currentTimeMillis()));
            }
            for (int i = 0; i < 5 * OrderData.CUSTOMERS; i++) {
                Order order = generator.nextOrder();
                Customer customer = OrderGenerator.customer(Integer.parseInt(order.getCustomerNumber().substring(1)));
                for (Row row : rows.rowsOf(order, customer)) {
                    sink.write(row);
                }
                numbers.add(order.getOrderNumber());
            }
            sink.flush();
        }
        Map<TableRole, TableName> names = new java.util.TreeMap<>();
        definitions.forEach((role, table) -> names.put(role, table.name()));
        return new OrderData(names, rows, numbers);
    }
}
