package dev.rowflow.pipeline.config;

import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.keying.order.OrderDesign;
import dev.rowflow.keying.order.OrderRows;
import dev.rowflow.sinks.hbase.Store;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

import java.util.List;

// The key names are RowflowConfig's constants, where the code that reads them finds them. Only
// compile-time constants are taken from there, so initializing this class never waits for
// RowflowConfig's (whose CONFIG is this class's).
import static dev.rowflow.pipeline.config.RowflowConfig.*;

/**
 * What rowflow's own keys may hold: each key's doc, type, default (or none if required),
 * validator and importance, as the Kafka {@code ConfigDef} that {@link RowflowConfig#CONFIG} is
 * and docs/configuration.md's table is generated from ({@link ConfigDocs}, {@code rowflow config}).
 * Reading the values and the checks across keys are {@link RowflowConfig}'s.
 */
final class RowflowDefinition {
    private RowflowDefinition() {
    }

    private static final String BOOTSTRAP_SERVERS_DOC =
            "Kafka brokers to connect to, host:port[,host:port...].";

    private static final String APPLICATION_ID_DOC =
            "Kafka Streams application id: the consumer group and the prefix of internal topics. "
                    + "Instances with the same id share the work.";

    private static final String LOGS_TOPIC_DOC = "Topic of log events (Avro single-object encoded LogEvent).";

    private static final String LOGS_DEAD_LETTER_TOPIC_DOC =
            "Dead-letter topic: records of the logs topic that cannot become rows go here unchanged, "
                    + "with headers saying why. Created at start-up if absent.";

    private static final String PIPELINES_DOC =
            "The built-in pipelines to run: logs (the logs topic), orders (the customers and orders topics, joined). "
                    + "Unset: logs when inputs declares no input; with declared inputs only they run, the built-in "
                    + "pipelines only when named here.";

    private static final String INPUTS_DOC =
            "Declared inputs, each a topic, a format and a mapping configured by the input.<name>.* keys (see "
                    + "the input table): JSON or Avro records of your own into tables of your own. They run in "
                    + "the same application as the pipelines.";

    private static final String CUSTOMERS_TOPIC_DOC =
            "Compacted topic of customers (Avro single-object encoded Customer), keyed by the customer number.";

    private static final String CUSTOMERS_DEAD_LETTER_TOPIC_DOC =
            "Dead-letter topic of the customers topic. Created at start-up if absent.";

    private static final String ORDERS_TOPIC_DOC =
            "Topic of orders (Avro single-object encoded Order), any key: rowflow repartitions by customer number.";

    private static final String ORDERS_DEAD_LETTER_TOPIC_DOC =
            "Dead-letter topic of the orders topic. Created at start-up if absent.";

    private static final String ORDER_DESIGN_DOC =
            "How an order is laid out (seed 002, 1.11.3.2): normalized (ORDER, SHIPPING_LOCATION, LINE_ITEM tables), "
                    + "record-types (one table, [order][type]...), denormalized (line items carry their shipping "
                    + "location), blob (the whole order as Avro in one cell). Do not change it for existing tables.";

    private static final String CUSTOMER_PLUS_PLUS_DOC =
            "CUSTOMER++ (seed 002, 1.11.3.1): customers and their orders in the order table under one customer "
                    + "prefix, so one scan reads everything about a customer. Not with orders.design=normalized.";

    private static final String MAX_LINE_ITEMS_DOC =
            "Most line items an order may have; a larger order goes to the orders dead-letter topic (reason "
                    + "'invalid lineItems'). One order is written in one flush: its rows (record-types, normalized), "
                    + "its one wide row (denormalized) or its one cell (blob) must stay a size HBase and the "
                    + "repartition topic take.";

    private static final String ORDER_LAYOUT_DOC =
            "Order key [customer][order]: customerNumber:E, orderNumber:E with E text (raw), md5 or uid (customer "
                    + "only); e.g. customerNumber:md5, orderNumber:md5 or customerNumber:uid, orderNumber:md5.";

    private static final String CUSTOMER_TABLE_DOC = "HBase table of customers (unless orders.customer.plus.plus).";

    private static final String ORDER_TABLE_DOC =
            "HBase table of orders: every row of an order but in the normalized design, and the customers under CUSTOMER++.";

    private static final String SHIPPING_LOCATION_TABLE_DOC = "HBase table of shipping locations (normalized design).";

    private static final String LINE_ITEM_TABLE_DOC = "HBase table of line items (normalized design).";

    private static final String ORDER_INDEX_TABLE_DOC =
            "HBase table of the dual-written index from order number to order row.";

    private static final String LOG_DATA_TABLE_DOC = "HBase table of log events, one row per event.";

    private static final String LOG_INDEX_TABLE_DOC =
            "HBase table of the dual-written host-led index over the log data table.";

    private static final String LOG_DATA_LAYOUT_DOC =
            "Row key layout of the log data table: [salt |] field:encoding, ... over the LogEvent fields "
                    + "(salts bucket(N), bucket(N,hash=f), bucket(N,mod=f), hex(W), bin(W); encodings text, md5, "
                    + "uid, long, ts, rts, dec, byte, int; see `rowflow keys --help`). The table is pre-split to "
                    + "match. Do not change it for an existing table.";

    private static final String LOG_INDEX_LAYOUT_DOC =
            "Row key layout of the log index table (same syntax); its rows point to the data rows.";

    private static final String LOG_INDEX_ENABLED_DOC =
            "Dual-write the log index rows with the data rows. When off, only data rows are written; "
                    + "`rowflow index backfill` builds the index later (seed 002, 1.9.2).";

    private static final String LOG_TIME_BUCKET_SECONDS_DOC =
            "0: one row per log event. N > 0: rows as columns (seed 002, 1.11.2, the OpenTSDB approach): one row per "
                    + "N-second bucket, the data layout's timestamp part holding the bucket start (use a host-led "
                    + "layout such as hostname:text, eventType:text, timestamp:ts), one column per event named by its "
                    + "ms offset in the bucket, holding the event as Avro. Needs index.log.enabled=false.";

    private static final String TIMESTAMP_POLICY_DOC =
            "What to do with an event time before 1970 or more than events.timestamp.max.future.ms ahead of its "
                    + "Kafka record's timestamp: reject (dead-letter topic) or clamp (write it at the record's "
                    + "timestamp, which a replay reads again, so rows stay the same).";

    private static final String TIMESTAMP_MAX_FUTURE_MS_DOC =
            "How far an event time (log timestamp, order time) may be ahead of its Kafka record's timestamp.";

    private static final String LOG_SUMMARY_TABLE_DOC =
            "HBase table of the log summary: events per host, event type and hour, kept by increments "
                    + "(seed 002, 1.9.4 and 1.5.1), each event counted once even when replayed.";

    private static final String LOG_SUMMARY_ENABLED_DOC =
            "Keep the log summary table up to date while ingesting. Costs one batched checkAndMutate per "
                    + "host, event type, hour and partition at each commit.";

    private static final String UID_TABLE_DOC =
            "HBase lookup table of the ids that uid key parts substitute for names (seed 002, 1.11.1.4); "
                    + "created at start-up when a layout has a uid part.";

    private static final String WRITE_BUFFER_BYTES_DOC =
            "Bytes of rows buffered per table per stream thread (Put heap size). From half of it the sink's "
                    + "sender thread sends while the stream thread goes on; a stream thread that fills all of it "
                    + "before the sender took it sends and waits itself. 0 inherits hbase.client.write.buffer. "
                    + "The rows buffered and on their way are alive at every young collection of the JVM: "
                    + "a larger buffer wants a larger young generation (the chart's jvm.youngGenerationMiB).";

    private static final String PERIODIC_FLUSH_MS_DOC =
            "Longest time a row waits in the write buffer before the sink's sender thread sends it while rows "
                    + "keep coming (under load half a buffer fills sooner and is sent at once). Rows also go as soon "
                    + "as the stream thread has written nothing for 5 ms: a burst's last rows, and light traffic, "
                    + "do not wait for the period. Sending is "
                    + "not committing: offsets advance only after a flush at commit time, which waits for rows still "
                    + "being sent. 0: no sender thread; the stream thread sends when the buffer fills and at each "
                    + "commit. (HBase's own "
                    + "hbase.client.write.buffer.periodicflush.timeout.ms is refused: its sends race the commit.)";

    private static final String TABLES_SPLIT_SAMPLE_RECORDS_DOC =
            "Records of an input topic read (its last ones, no consumer group) when a table whose key layout is not "
                    + "spread by design (no salt, no leading md5: a host-led index, a customer-led table) is created, "
                    + "at start or by `tables create`: it is pre-split at the quantiles of the keys they make. 0: "
                    + "such tables are created as one region (a warning says so).";

    private static final String TABLES_SPLIT_REGIONS_DOC =
            "Regions a table split from sampled keys is created with (fewer if the sample has fewer than 4 distinct "
                    + "keys per region). Salted layouts split by their salt instead: one region per bucket(N) bucket.";

    private static final String STORE_DOC =
            "The wide-column store rows go to: hbase, or bigtable (Google Cloud Bigtable through Google's HBase "
                    + "adapter). Settings a store cannot honour are refused at start (see docs/stores.md).";

    private static final String BIGTABLE_PROJECT_DOC = "Google Cloud project of the Bigtable instance (store=bigtable).";

    private static final String BIGTABLE_INSTANCE_DOC = "Bigtable instance id (store=bigtable).";

    private static final String BIGTABLE_EMULATOR_HOST_DOC =
            "host:port of a Bigtable emulator (cbtemulator) instead of Google Cloud; empty for the real service, "
                    + "whose credentials come from Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS).";

    private static final String HBASE_SITE_PATH_DOC =
            "Path of an hbase-site.xml to load before the hbase.* keys of this file; empty for none.";

    private static final String METRICS_PORT_DOC =
            "Port of the HTTP server for /metrics (Prometheus), /healthz and /readyz; 0 picks a free port.";

    private static final String SHUTDOWN_TIMEOUT_MS_DOC =
            "How long a shutdown waits for the streams to commit (which flushes the sinks) and close.";

    /** Every table key, each with its family settings. */
    static final List<String> TABLE_KEYS = List.of(
            "table.log.data", "table.log.index", "table.log.summary", "table.customer", "table.order", "table.shipping.location",
            "table.line.item", "table.order.index");

    static final ConfigDef CONFIG = withFamilySettings(new ConfigDef()
            .define(PIPELINES_CONFIG, Type.LIST, null, new Validators.PipelineNames(LOGS_PIPELINE, ORDERS_PIPELINE),
                    Importance.HIGH, PIPELINES_DOC)
            .define(INPUTS_CONFIG, Type.LIST, "", new Validators.InputNames(), Importance.HIGH, INPUTS_DOC)
            .define(BOOTSTRAP_SERVERS_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                    Importance.HIGH, BOOTSTRAP_SERVERS_DOC)
            .define(APPLICATION_ID_CONFIG, Type.STRING, "rowflow", new ConfigDef.NonEmptyString(),
                    Importance.HIGH, APPLICATION_ID_DOC)
            .define(LOGS_TOPIC_CONFIG, Type.STRING, "logs", new ConfigDef.NonEmptyString(),
                    Importance.HIGH, LOGS_TOPIC_DOC)
            .define(LOGS_DEAD_LETTER_TOPIC_CONFIG, Type.STRING, "logs.dead-letter", new ConfigDef.NonEmptyString(),
                    Importance.HIGH, LOGS_DEAD_LETTER_TOPIC_DOC)
            .define(CUSTOMERS_TOPIC_CONFIG, Type.STRING, "customers", new ConfigDef.NonEmptyString(),
                    Importance.HIGH, CUSTOMERS_TOPIC_DOC)
            .define(CUSTOMERS_DEAD_LETTER_TOPIC_CONFIG, Type.STRING, "customers.dead-letter",
                    new ConfigDef.NonEmptyString(), Importance.MEDIUM, CUSTOMERS_DEAD_LETTER_TOPIC_DOC)
            .define(ORDERS_TOPIC_CONFIG, Type.STRING, "orders", new ConfigDef.NonEmptyString(),
                    Importance.HIGH, ORDERS_TOPIC_DOC)
            .define(ORDERS_DEAD_LETTER_TOPIC_CONFIG, Type.STRING, "orders.dead-letter", new ConfigDef.NonEmptyString(),
                    Importance.MEDIUM, ORDERS_DEAD_LETTER_TOPIC_DOC)
            .define(ORDER_DESIGN_CONFIG, Type.STRING, OrderDesign.RECORD_TYPES.token(),
                    ConfigDef.ValidString.in(java.util.Arrays.stream(OrderDesign.values()).map(OrderDesign::token)
                            .toArray(String[]::new)), Importance.HIGH, ORDER_DESIGN_DOC)
            .define(CUSTOMER_PLUS_PLUS_CONFIG, Type.BOOLEAN, false, Importance.HIGH, CUSTOMER_PLUS_PLUS_DOC)
            .define(MAX_LINE_ITEMS_CONFIG, Type.INT, 10_000, Range.atLeast(1), Importance.LOW, MAX_LINE_ITEMS_DOC)
            .define(ORDER_LAYOUT_CONFIG, Type.STRING, OrderRows.DEFAULT_LAYOUT, Validators.Layout.order(),
                    Importance.HIGH, ORDER_LAYOUT_DOC)
            .define(CUSTOMER_TABLE_CONFIG, Type.STRING, "customer", new ConfigDef.NonEmptyString(),
                    Importance.MEDIUM, CUSTOMER_TABLE_DOC)
            .define(ORDER_TABLE_CONFIG, Type.STRING, "order", new ConfigDef.NonEmptyString(),
                    Importance.MEDIUM, ORDER_TABLE_DOC)
            .define(SHIPPING_LOCATION_TABLE_CONFIG, Type.STRING, "shipping_location", new ConfigDef.NonEmptyString(),
                    Importance.MEDIUM, SHIPPING_LOCATION_TABLE_DOC)
            .define(LINE_ITEM_TABLE_CONFIG, Type.STRING, "line_item", new ConfigDef.NonEmptyString(),
                    Importance.MEDIUM, LINE_ITEM_TABLE_DOC)
            .define(ORDER_INDEX_TABLE_CONFIG, Type.STRING, "order_index", new ConfigDef.NonEmptyString(),
                    Importance.MEDIUM, ORDER_INDEX_TABLE_DOC)
            .define(LOG_DATA_TABLE_CONFIG, Type.STRING, "log_data", new ConfigDef.NonEmptyString(),
                    Importance.HIGH, LOG_DATA_TABLE_DOC)
            .define(LOG_INDEX_TABLE_CONFIG, Type.STRING, "log_index", new ConfigDef.NonEmptyString(),
                    Importance.HIGH, LOG_INDEX_TABLE_DOC)
            .define(LOG_INDEX_ENABLED_CONFIG, Type.BOOLEAN, true, Importance.MEDIUM, LOG_INDEX_ENABLED_DOC)
            .define(TIMESTAMP_POLICY_CONFIG, Type.STRING, "reject", ConfigDef.ValidString.in("reject", "clamp"),
                    Importance.MEDIUM, TIMESTAMP_POLICY_DOC)
            .define(TIMESTAMP_MAX_FUTURE_MS_CONFIG, Type.LONG, 86_400_000L, Range.atLeast(0), Importance.MEDIUM,
                    TIMESTAMP_MAX_FUTURE_MS_DOC)
            .define(LOG_TIME_BUCKET_SECONDS_CONFIG, Type.INT, 0, Range.between(0, 86_400), Importance.MEDIUM,
                    LOG_TIME_BUCKET_SECONDS_DOC)
            .define(LOG_SUMMARY_TABLE_CONFIG, Type.STRING, "log_summary", new ConfigDef.NonEmptyString(),
                    Importance.MEDIUM, LOG_SUMMARY_TABLE_DOC)
            .define(LOG_SUMMARY_ENABLED_CONFIG, Type.BOOLEAN, true, Importance.MEDIUM, LOG_SUMMARY_ENABLED_DOC)
            .define(UID_TABLE_CONFIG, Type.STRING, "uid", new ConfigDef.NonEmptyString(),
                    Importance.MEDIUM, UID_TABLE_DOC)
            .define(LOG_DATA_LAYOUT_CONFIG, Type.STRING, LogEventRows.DEFAULT_DATA_LAYOUT, Validators.Layout.logEvent(),
                    Importance.HIGH, LOG_DATA_LAYOUT_DOC)
            .define(LOG_INDEX_LAYOUT_CONFIG, Type.STRING, LogEventRows.DEFAULT_INDEX_LAYOUT, Validators.Layout.logEvent(),
                    Importance.HIGH, LOG_INDEX_LAYOUT_DOC)
            .define(WRITE_BUFFER_BYTES_CONFIG, Type.LONG, 2L * 1024 * 1024, Range.atLeast(0),
                    Importance.MEDIUM, WRITE_BUFFER_BYTES_DOC)
            .define(PERIODIC_FLUSH_MS_CONFIG, Type.LONG, 200L, Range.atLeast(0),
                    Importance.MEDIUM, PERIODIC_FLUSH_MS_DOC)
            .define(TABLES_SPLIT_SAMPLE_RECORDS_CONFIG, Type.INT, 10_000, Range.atLeast(0),
                    Importance.LOW, TABLES_SPLIT_SAMPLE_RECORDS_DOC)
            .define(TABLES_SPLIT_REGIONS_CONFIG, Type.INT, 16, Range.between(2, 4096),
                    Importance.LOW, TABLES_SPLIT_REGIONS_DOC)
            .define(STORE_CONFIG, Type.STRING, Store.HBASE.token(),
                    ConfigDef.ValidString.in(java.util.Arrays.stream(Store.values()).map(Store::token).toArray(String[]::new)),
                    Importance.HIGH, STORE_DOC)
            .define(BIGTABLE_PROJECT_CONFIG, Type.STRING, "", Importance.HIGH, BIGTABLE_PROJECT_DOC)
            .define(BIGTABLE_INSTANCE_CONFIG, Type.STRING, "", Importance.HIGH, BIGTABLE_INSTANCE_DOC)
            .define(BIGTABLE_EMULATOR_HOST_CONFIG, Type.STRING, "", Importance.MEDIUM, BIGTABLE_EMULATOR_HOST_DOC)
            .define(HBASE_SITE_PATH_CONFIG, Type.STRING, "", Importance.MEDIUM, HBASE_SITE_PATH_DOC)
            .define(METRICS_PORT_CONFIG, Type.INT, 8080, Range.between(0, 65535),
                    Importance.LOW, METRICS_PORT_DOC)
            .define(SHUTDOWN_TIMEOUT_MS_CONFIG, Type.LONG, 30_000L, Range.atLeast(0),
                    Importance.LOW, SHUTDOWN_TIMEOUT_MS_DOC));

    private static ConfigDef withFamilySettings(ConfigDef def) {
        for (String table : TABLE_KEYS) {
            TableSettings.define(def, table);
        }
        return def;
    }
}
