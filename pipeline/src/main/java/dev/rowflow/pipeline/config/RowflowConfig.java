package dev.rowflow.pipeline.config;

import dev.rowflow.keying.mapping.TimestampPolicy;
import dev.rowflow.keying.order.OrderDesign;
import dev.rowflow.sinks.hbase.FamilySettings;
import dev.rowflow.sinks.hbase.Store;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * rowflow's configuration, declared once. Every key has a constant, a doc, a default (or none if
 * required), a validator and an importance; docs/configuration.md's table is generated from
 * {@link #CONFIG} ({@link ConfigDocs}, {@code rowflow config}). It only configures: keys, their
 * validation and typed values, no I/O; what the keys describe is built once per start by the
 * {@code PipelinePlan}.
 *
 * <p>The key constants are here, where the code that reads a value finds them; each key's doc,
 * default, validator and importance are {@link RowflowDefinition}'s. This class reads the values
 * and refuses what the keys cannot mean together.
 *
 * <p>Besides its own keys, rowflow passes through: every key starting with {@code kafka.} to Kafka
 * Streams and its clients, without the prefix ({@code kafka.security.protocol} becomes
 * {@code security.protocol}); every key starting with {@code hbase.}, {@code zookeeper.} or
 * {@code hadoop.} to the HBase client configuration as it is.
 */
public final class RowflowConfig extends AbstractConfig {
    public static final String KAFKA_PREFIX = "kafka.";
    public static final String BOOTSTRAP_SERVERS_CONFIG = "kafka.bootstrap.servers";
    public static final String APPLICATION_ID_CONFIG = "application.id";

    public static final String PIPELINES_CONFIG = "pipelines";
    public static final String LOGS_PIPELINE = "logs";
    public static final String ORDERS_PIPELINE = "orders";
    public static final String INPUTS_CONFIG = "inputs";

    public static final String LOGS_TOPIC_CONFIG = "topic.logs";
    public static final String LOGS_DEAD_LETTER_TOPIC_CONFIG = "topic.logs.dead.letter";
    public static final String CUSTOMERS_TOPIC_CONFIG = "topic.customers";
    public static final String CUSTOMERS_DEAD_LETTER_TOPIC_CONFIG = "topic.customers.dead.letter";
    public static final String ORDERS_TOPIC_CONFIG = "topic.orders";
    public static final String ORDERS_DEAD_LETTER_TOPIC_CONFIG = "topic.orders.dead.letter";

    public static final String ORDER_DESIGN_CONFIG = "orders.design";
    public static final String CUSTOMER_PLUS_PLUS_CONFIG = "orders.customer.plus.plus";
    public static final String MAX_LINE_ITEMS_CONFIG = "orders.max.line.items";
    public static final String ORDER_LAYOUT_CONFIG = "keying.layout.order";
    public static final String CUSTOMER_TABLE_CONFIG = "table.customer";
    public static final String ORDER_TABLE_CONFIG = "table.order";
    public static final String SHIPPING_LOCATION_TABLE_CONFIG = "table.shipping.location";
    public static final String LINE_ITEM_TABLE_CONFIG = "table.line.item";
    public static final String ORDER_INDEX_TABLE_CONFIG = "table.order.index";

    public static final String LOG_DATA_TABLE_CONFIG = "table.log.data";
    public static final String LOG_INDEX_TABLE_CONFIG = "table.log.index";
    public static final String LOG_DATA_LAYOUT_CONFIG = "keying.layout.log.data";
    public static final String LOG_INDEX_LAYOUT_CONFIG = "keying.layout.log.index";
    public static final String LOG_INDEX_ENABLED_CONFIG = "index.log.enabled";
    public static final String LOG_TIME_BUCKET_SECONDS_CONFIG = "keying.log.time.bucket.seconds";
    public static final String LOG_SUMMARY_TABLE_CONFIG = "table.log.summary";
    public static final String LOG_SUMMARY_ENABLED_CONFIG = "summary.log.enabled";

    public static final String TIMESTAMP_POLICY_CONFIG = "events.timestamp.policy";
    public static final String TIMESTAMP_MAX_FUTURE_MS_CONFIG = "events.timestamp.max.future.ms";

    public static final String UID_TABLE_CONFIG = "table.uid";
    public static final String WRITE_BUFFER_BYTES_CONFIG = "sink.write.buffer.bytes";
    public static final String PERIODIC_FLUSH_MS_CONFIG = "sink.periodic.flush.ms";
    public static final String TABLES_SPLIT_SAMPLE_RECORDS_CONFIG = "tables.split.sample.records";
    public static final String TABLES_SPLIT_REGIONS_CONFIG = "tables.split.regions";

    public static final String STORE_CONFIG = "store";
    public static final String BIGTABLE_PROJECT_CONFIG = "bigtable.project.id";
    public static final String BIGTABLE_INSTANCE_CONFIG = "bigtable.instance.id";
    public static final String BIGTABLE_EMULATOR_HOST_CONFIG = "bigtable.emulator.host";
    public static final String HBASE_SITE_PATH_CONFIG = "hbase.site.path";

    public static final String METRICS_PORT_CONFIG = "metrics.port";
    public static final String SHUTDOWN_TIMEOUT_MS_CONFIG = "shutdown.timeout.ms";

    /** Suffixes of the per-table family settings, after a table key such as {@code table.log.data}. */
    public static final String TTL_SECONDS_SUFFIX = TableSettings.TTL_SECONDS_SUFFIX;
    public static final String CELL_TTL_MS_SUFFIX = TableSettings.CELL_TTL_MS_SUFFIX;
    public static final String MAX_VERSIONS_SUFFIX = TableSettings.MAX_VERSIONS_SUFFIX;
    public static final String MIN_VERSIONS_SUFFIX = TableSettings.MIN_VERSIONS_SUFFIX;
    public static final String BLOOM_SUFFIX = TableSettings.BLOOM_SUFFIX;
    public static final String COMPRESSION_SUFFIX = TableSettings.COMPRESSION_SUFFIX;
    public static final String BLOCK_SIZE_SUFFIX = TableSettings.BLOCK_SIZE_SUFFIX;

    /** Every table key, each with its family settings. */
    public static final java.util.List<String> TABLE_KEYS = RowflowDefinition.TABLE_KEYS;

    public static final ConfigDef CONFIG = RowflowDefinition.CONFIG;

    /**
     * The family settings configured for the table named by {@code tableKey}.
     *
     * @throws ConfigException naming both keys if the cell TTL outlives the family TTL or min
     *                         versions exceed max versions
     */
    public FamilySettings familySettings(String tableKey) {
        return TableSettings.read(this, "", tableKey);
    }

    private static final String HBASE_PERIODIC_FLUSH = "hbase.client.write.buffer.periodicflush.timeout.ms";

    /** Prefixes of keys handed to the HBase client configuration unchanged. */
    private static final String[] HBASE_PREFIXES = {"hbase.", "zookeeper.", "hadoop.", "google.bigtable."};

    /**
     * @throws org.apache.kafka.common.config.ConfigException naming the key and the reason, for a
     *                                                        missing required key or a bad value
     */
    public RowflowConfig(Map<String, ?> props) {
        super(CONFIG, props, false);
        // Cross-key checks at start, not at first use: a cell TTL beyond the family TTL is refused here.
        TABLE_KEYS.forEach(this::familySettings);
        if (getBoolean(CUSTOMER_PLUS_PLUS_CONFIG) && OrderDesign.of(getString(ORDER_DESIGN_CONFIG)) == OrderDesign.NORMALIZED) {
            throw new ConfigException(CUSTOMER_PLUS_PLUS_CONFIG, true, "CUSTOMER++ keeps a customer and its orders in one "
                    + "table, and " + ORDER_DESIGN_CONFIG + "=normalized needs three: choose record-types, denormalized or blob");
        }
        if (props.containsKey(HBASE_PERIODIC_FLUSH)) {
            throw new ConfigException(HBASE_PERIODIC_FLUSH, props.get(HBASE_PERIODIC_FLUSH), "not used by rowflow: "
                    + "HBase's periodic flush can still be sending rows when a commit's flush returns; set "
                    + PERIODIC_FLUSH_MS_CONFIG + " instead");
        }
        this.inputs = declaredInputs(props);
        for (String key : props.keySet()) {
            if (!CONFIG.names().contains(key) && !isPassThrough(key) && !key.startsWith(InputConfig.PREFIX)) {
                // A typo must not silently fall back to a default.
                // The value is left out of the message: a misplaced secret (ssl.key.password=... without
                // the kafka. prefix) must not end up in a log.
                throw new ConfigException(key + ": unknown key: not a rowflow key (see `rowflow config`)"
                        + " and not passed through (prefixes kafka., hbase., zookeeper., hadoop., google.bigtable.)");
            }
        }
        checkStore();
    }

    private final List<InputConfig> inputs;

    /**
     * The declared inputs, each checked key by key (its mapping is compiled against its format by
     * the plan).
     *
     * @throws ConfigException naming the key, also for an {@code input.<name>.*} key of an input
     *                         that {@code inputs} does not declare
     */
    private List<InputConfig> declaredInputs(Map<String, ?> props) {
        List<String> names = getList(INPUTS_CONFIG);
        Map<String, Map<String, Object>> byInput = new LinkedHashMap<>();
        names.forEach(name -> byInput.put(name, new LinkedHashMap<>()));
        for (Map.Entry<String, ?> entry : props.entrySet()) {
            String key = entry.getKey();
            if (!key.startsWith(InputConfig.PREFIX)) {
                continue;
            }
            String rest = key.substring(InputConfig.PREFIX.length());
            String name = names.stream().filter(n -> rest.startsWith(n + ".")).findFirst().orElseThrow(() ->
                    new ConfigException(key + ": no input of that name is declared in " + INPUTS_CONFIG + " ("
                            + (names.isEmpty() ? "none are" : String.join(", ", names)) + ")"));
            byInput.get(name).put(rest.substring(name.length() + 1), entry.getValue());
        }
        List<InputConfig> declared = new ArrayList<>();
        for (Map.Entry<String, Map<String, Object>> input : byInput.entrySet()) {
            declared.add(InputConfig.of(input.getKey(), input.getValue()));
        }
        return List.copyOf(declared);
    }

    /** The declared inputs, in the order of {@code inputs}. */
    public List<InputConfig> inputs() {
        return inputs;
    }

    /** The configured store. */
    public Store store() {
        return Store.of(getString(STORE_CONFIG));
    }

    /**
     * Refuses, at start, what the configured store cannot do: each table's family settings
     * against the store's capabilities, and Bigtable without a project or instance.
     */
    private void checkStore() {
        Store store = store();
        for (String table : TABLE_KEYS) {
            TableSettings.checkSupported(store, this, "", table, getString(table));
        }
        for (InputConfig input : inputs) {
            input.checkStore(store);
        }
        if (store == Store.BIGTABLE) {
            for (String key : new String[] {BIGTABLE_PROJECT_CONFIG, BIGTABLE_INSTANCE_CONFIG}) {
                if (getString(key).isBlank()) {
                    throw new ConfigException(key, getString(key), "required with " + STORE_CONFIG + "=bigtable");
                }
            }
        }
    }

    private static boolean isPassThrough(String key) {
        if (key.startsWith(KAFKA_PREFIX)) {
            return true;
        }
        for (String prefix : HBASE_PREFIXES) {
            if (key.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** What to do with event times before 1970 or far ahead of their record's timestamp. */
    public TimestampPolicy timestampPolicy() {
        return new TimestampPolicy(TimestampPolicy.Mode.valueOf(
                        getString(TIMESTAMP_POLICY_CONFIG).toUpperCase(java.util.Locale.ROOT)),
                getLong(TIMESTAMP_MAX_FUTURE_MS_CONFIG));
    }

    /**
     * The built-in pipelines this configuration runs: {@code pipelines} as set; unset, {@code logs}
     * when {@code inputs} declares no input and none when it declares some (a user who declares
     * inputs gets those, not also a log pipeline on a topic never mentioned).
     */
    public List<String> pipelines() {
        List<String> named = getList(PIPELINES_CONFIG);
        if (named != null) {
            return named;
        }
        return getList(INPUTS_CONFIG).isEmpty() ? List.of(LOGS_PIPELINE) : List.of();
    }

    /** Whether this configuration runs the built-in {@code pipeline} ({@code logs}, {@code orders}). */
    public boolean runs(String pipeline) {
        return pipelines().contains(pipeline);
    }

    /** Settings for Kafka Streams and its clients: the {@code kafka.*} keys without their prefix. */
    public Map<String, Object> kafkaProperties() {
        return new LinkedHashMap<>(originalsWithPrefix(KAFKA_PREFIX, true));
    }

    /** Settings for the HBase client: the {@code hbase.*}, {@code zookeeper.*}, {@code hadoop.*} keys. */
    public Map<String, String> hbaseProperties() {
        Map<String, String> hbase = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : originals().entrySet()) {
            String key = e.getKey();
            if (!key.startsWith(KAFKA_PREFIX) && !CONFIG.names().contains(key)) {
                hbase.put(key, String.valueOf(e.getValue()));
            }
        }
        return hbase;
    }
}
