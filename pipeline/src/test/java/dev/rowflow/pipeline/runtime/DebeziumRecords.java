package dev.rowflow.pipeline.runtime;

import java.math.BigInteger;

/**
 * The records of an {@link OrderChangeHistory} as Debezium's connectors write them through Kafka
 * Connect's JsonConverter: even ones as the PostgreSQL connector with schemas, odd ones as the
 * MySQL connector without; keyed by the row's primary key.
 */
public final class DebeziumRecords {
    private DebeziumRecords() {
    }

    /** The record key of order {@code id}, as the connector keys it. */
    public static String orderKey(long id) {
        return "{\"id\":" + id + "}";
    }

    /**
     * One change of an order: the n-th event, even ones from the PostgreSQL connector with schemas
     * (no before image of an update, pgoutput's default), odd ones from the MySQL connector without
     * (the full before image, decimals as text).
     */
    public static String orderChange(OrderChangeHistory.Event event, int n) {
        return change(event, n, n % 2 == 0, n % 2 == 0);
    }

    /**
     * One change of an order as the PostgreSQL connector writes it (no before image of an update),
     * through JsonConverter with {@code schemas.enable} as {@code schemas} says: the same payload
     * either way, decimals as base64 unscaled bytes and times in µs.
     */
    public static String postgresChange(OrderChangeHistory.Event event, int n, boolean schemas) {
        return change(event, n, true, schemas);
    }

    private static String change(OrderChangeHistory.Event event, int n, boolean postgres, boolean schemas) {
        String op = event.op();
        long id = event.id();
        OrderChangeHistory.Row before = event.before();
        OrderChangeHistory.Row after = event.after();
        long ts = event.ts();
        String source = postgres
                ? "{\"version\":\"2.7.3.Final\",\"connector\":\"postgresql\",\"name\":\"shop\",\"ts_ms\":" + ts
                + ",\"snapshot\":\"" + (op.equals("r") ? "true" : "false") + "\",\"db\":\"shop\",\"schema\":\"public\","
                + "\"table\":\"orders\",\"txId\":" + (1000 + n) + ",\"lsn\":" + (24_000_000L + n * 64L) + "}"
                : "{\"version\":\"2.7.3.Final\",\"connector\":\"mysql\",\"name\":\"shop\",\"ts_ms\":" + ts
                + ",\"snapshot\":\"false\",\"db\":\"shop\",\"table\":\"orders\",\"server_id\":223344,\"file\":"
                + "\"mysql-bin.000003\",\"pos\":" + (154 + n * 300L) + ",\"row\":0}";
        String payload = "{\"before\":" + (before == null || postgres && op.equals("u") ? "null" : orderRow(id, before,
                postgres)) + ",\"after\":" + (after == null ? "null" : orderRow(id, after, postgres)) + ",\"source\":"
                + source + ",\"op\":\"" + op + "\",\"ts_ms\":" + (ts + 5) + ",\"transaction\":null}";
        if (!schemas) {
            return payload;
        }
        String row = "{\"type\":\"struct\",\"optional\":true,\"name\":\"shop.public.orders.Value\",\"fields\":["
                + "{\"type\":\"int32\",\"optional\":false,\"field\":\"id\"},{\"type\":\"int32\",\"optional\":true,"
                + "\"field\":\"customer_id\"},{\"type\":\"bytes\",\"optional\":true,\"name\":"
                + "\"org.apache.kafka.connect.data.Decimal\",\"version\":1,\"parameters\":{\"scale\":\"2\","
                + "\"connect.decimal.precision\":\"10\"},\"field\":\"total\"},{\"type\":\"string\",\"optional\":true,"
                + "\"field\":\"status\"},{\"type\":\"string\",\"optional\":true,\"field\":\"note\"},{\"type\":\"int64\","
                + "\"optional\":true,\"name\":\"io.debezium.time.MicroTimestamp\",\"version\":1,\"field\":\"created_at\"}],"
                + "\"field\":\"%s\"}";
        return "{\"schema\":{\"type\":\"struct\",\"optional\":false,\"name\":\"shop.public.orders.Envelope\","
                + "\"version\":1,\"fields\":[" + row.formatted("before") + "," + row.formatted("after") + ","
                + "{\"type\":\"struct\",\"fields\":[{\"type\":\"int64\",\"optional\":false,\"field\":\"ts_ms\"}],"
                + "\"optional\":false,\"name\":\"io.debezium.connector.postgresql.Source\",\"field\":\"source\"},"
                + "{\"type\":\"string\",\"optional\":false,\"field\":\"op\"},{\"type\":\"int64\",\"optional\":true,"
                + "\"field\":\"ts_ms\"}]},\"payload\":" + payload + "}";
    }

    /** A row image: PostgreSQL's total as base64 unscaled bytes and created_at in µs, MySQL's as text and ms. */
    private static String orderRow(long id, OrderChangeHistory.Row row, boolean postgres) {
        long cents = row.totalCents();
        String total = postgres ? java.util.Base64.getEncoder().encodeToString(BigInteger.valueOf(cents).toByteArray())
                : OrderChangeHistory.cents(cents);
        return "{\"id\":" + id + ",\"customer_id\":" + row.customer() + ",\"total\":\"" + total + "\",\"status\":\""
                + row.status() + "\",\"note\":" + (row.note() == null ? "null" : "\"" + row.note() + "\"")
                + ",\"created_at\":"
                + (postgres ? ShipperShapes.BASE * 1000 : ShipperShapes.BASE) + "}";
    }
}
