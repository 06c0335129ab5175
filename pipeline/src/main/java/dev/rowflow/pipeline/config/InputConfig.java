package dev.rowflow.pipeline.config;

import java.net.URISyntaxException;
import java.net.URI;
import dev.rowflow.pipeline.registry.RegistryAvroFormat;
import dev.rowflow.pipeline.registry.RegistryJsonSchemaFormat;
import dev.rowflow.pipeline.registry.RegistryProtobufFormat;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.format.AvroFormat;
import dev.rowflow.keying.format.DebeziumEnvelope;
import dev.rowflow.keying.format.JsonFormat;
import dev.rowflow.keying.mapping.ColumnSpec;
import dev.rowflow.keying.mapping.MappingException;
import dev.rowflow.keying.mapping.MappingSpec;
import dev.rowflow.keying.mapping.TimeFormat;
import dev.rowflow.sinks.hbase.FamilySettings;
import dev.rowflow.sinks.hbase.Store;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One declared input: a topic, a format and a mapping, configured under {@code input.<name>.}
 * in the same file as every other key -- the way Kafka Connect configures its transforms
 * ({@code transforms=a,b}, {@code transforms.a.type=...}). Declared once in {@link #definition};
 * docs/configuration.md's table is generated from it. Unknown keys under {@code input.<name>.} are
 * refused. It only configures: the format is opened and the mapping compiled by the
 * {@code PipelinePlan}, once per start.
 *
 * <pre>
 * inputs=app
 * input.app.topic=filebeat
 * input.app.format=json
 * input.app.time=@timestamp
 * input.app.time.format=iso8601
 * input.app.key=bucket(16) | @timestamp:ts, host.name:text, event.dataset:text
 * input.app.columns=message=m, host.name=h, event.dataset=e, log.level=l, *=f.*
 * input.app.indexes=host
 * input.app.index.host.key=host.name:text, event.dataset:text, @timestamp:rts
 * </pre>
 */
public final class InputConfig extends AbstractConfig {
    public static final String PREFIX = "input.";

    public static final String TOPIC = "topic";
    public static final String FORMAT = "format";
    public static final String DEAD_LETTER_TOPIC = "dead.letter.topic";
    public static final String AVRO_SCHEMAS = "avro.schemas";
    public static final String REGISTRY_URL = "registry.url";
    public static final String REGISTRY_BASIC_AUTH_USER_INFO = "registry.basic.auth.user.info";
    public static final String REGISTRY_TRUSTSTORE_LOCATION = "registry.ssl.truststore.location";
    public static final String REGISTRY_TRUSTSTORE_PASSWORD = "registry.ssl.truststore.password";
    public static final String REGISTRY_READER_SCHEMA = "registry.reader.schema";
    public static final String REGISTRY_READER_SUBJECT = "registry.reader.subject";
    public static final String REGISTRY_CACHE_IDS = "registry.cache.ids";
    public static final String REGISTRY_REQUEST_TIMEOUT_MS = "registry.request.timeout.ms";
    public static final String REGISTRY_RETRY_BACKOFF_MAX_MS = "registry.retry.backoff.max.ms";
    public static final String TIME = "time";
    public static final String TIME_FORMAT = "time.format";
    /** Per index: what a record without a value for one of the index key's parts does. */
    public static final String WHEN_MISSING = "when.missing";
    public static final String WHEN_MISSING_SKIP = "skip";
    public static final String TIME_ZONE = "time.zone";
    public static final String TIME_MISSING = "time.missing";
    public static final String TABLE = "table";
    public static final String KEY = "key";
    public static final String COLUMNS = "columns";
    /** What a value of another type than its typed column's does. */
    public static final String COLUMNS_MISMATCH = "columns.type.mismatch";
    public static final String MISMATCH_NO_CELL = "no-cell";
    public static final String FAMILY = "family";
    public static final String TIME_BUCKET_SECONDS = "time.bucket.seconds";
    public static final String MAX_CELL_BYTES = "max.cell.bytes";
    public static final String INDEXES = "indexes";
    /** The kinds of rows made per array element, each configured by {@code rows.<kind>.*}. */
    public static final String ROWS = "rows";
    public static final String EACH = "each";
    public static final String SUMMARY_TABLE = "summary.table";
    public static final String SUMMARY_KEY = "summary.key";
    public static final String SUMMARY_PERIOD_SECONDS = "summary.period.seconds";
    /** Which records the input takes: a condition; empty, every record. */
    public static final String WHERE = "where";
    /** What a record of the topic that no input's {@code where} takes does. */
    public static final String UNROUTED = "unrouted";
    public static final String UNROUTED_COUNT = "count";
    /** What wraps each record: nothing, or a change event's envelope. */
    public static final String ENVELOPE = "envelope";
    public static final String ENVELOPE_NONE = "none";
    /** The input whose rows this one's records join by a foreign key; empty, none. */
    public static final String JOIN_INPUT = "join.input";
    /** The path of the foreign key in this input's row. */
    public static final String JOIN_ON = "join.on";
    /** The path in the joined input's row that the foreign key equals (its primary key). */
    public static final String JOIN_FIELD = "join.field";
    /** The name under which the joined row's fields appear in this input's records. */
    public static final String JOIN_AS = "join.as";
    /** Whether change events carry the whole row before each update and delete. */
    public static final String BEFORE_IMAGE = "before.image";
    public static final String BEFORE_IMAGE_FULL = "full";
    public static final String BEFORE_IMAGE_PARTIAL = "partial";
    public static final String TOMBSTONES = "tombstones";
    public static final String TOMBSTONES_IGNORE = "ignore";
    public static final String TOMBSTONES_DELETE = "delete";
    /** Records that delete their row instead of writing it: a condition; empty, none. */
    public static final String DELETE_WHEN = "delete.when";
    /** The TTL of each record's rows, from the record. */
    public static final String TTL_MS = "ttl.ms";

    /** What {@code time.missing} may say. */
    public static final String MISSING_DEAD_LETTER = "dead-letter";
    public static final String MISSING_RECORD_TIMESTAMP = "record-timestamp";

    private final String name;
    private final List<String> indexes;
    private final List<String> rows;

    /**
     * @param name  the input's name (from {@code inputs})
     * @param props this input's keys without their {@code input.<name>.} prefix
     * @throws ConfigException naming the full key, for a missing or bad value or an unknown key
     */
    public static InputConfig of(String name, Map<String, ?> props) {
        try {
            return new InputConfig(name, props);
        } catch (ConfigException e) {
            // Kafka's messages name the key as defined, without the input's prefix.
            throw new ConfigException(e.getMessage().replaceFirst("(configuration \"?)(?!input\\.)([A-Za-z0-9_.@-]+)",
                    "$1" + PREFIX + name + ".$2"));
        }
    }

    private InputConfig(String name, Map<String, ?> props) {
        super(definition(names(name, props, INDEXES), names(name, props, ROWS)), props, false);
        this.name = name;
        this.indexes = getList(INDEXES);
        this.rows = getList(ROWS);
        ConfigDef def = definition(indexes, rows);
        for (String key : props.keySet()) {
            if (!def.names().contains(key)) {
                throw new ConfigException(PREFIX + name + "." + key + ": unknown key of input " + name
                        + (key.startsWith("index.") ? " (is the index in " + key(INDEXES) + "?)" : "")
                        + (key.startsWith("rows.") ? " (are the rows in " + key(ROWS) + "?)" : "")
                        + " (see `rowflow config`)");
            }
        }
        for (String table : tableKeys()) {
            TableSettings.read(this, prefix(), table);
        }
        checkFormat();
    }

    /** The names listed under {@code key} ({@code indexes}, {@code rows}), read before the rest. */
    private static List<String> names(String name, Map<String, ?> props, String key) {
        Object value = props.get(key);
        if (value == null) {
            return List.of();
        }
        try {
            return (List<String>) ConfigDef.parseType(key, value, Type.LIST);
        } catch (ConfigException e) {
            throw new ConfigException(PREFIX + name + "." + key, value, e.getMessage());
        }
    }

    /** The definition of this input's keys, its indexes' and kinds of rows' included. */
    public ConfigDef definition() {
        return definition(indexes, rows);
    }

    /**
     * The keys of one input, each without its {@code input.<name>.} prefix; {@code index.<i>.*}
     * keys for each index named in {@code indexes}, {@code rows.<kind>.*} for each kind in
     * {@code rows}.
     */
    public static ConfigDef definition(List<String> indexes, List<String> rows) {
        ConfigDef def = new ConfigDef()
                .define(TOPIC, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH,
                        "Kafka topic of the input; it must exist.")
                .define(FORMAT, Type.STRING, JsonFormat.NAME, ConfigDef.ValidString.in(JsonFormat.NAME, AvroFormat.NAME,
                                RegistryAvroFormat.NAME, RegistryProtobufFormat.NAME, RegistryJsonSchemaFormat.NAME),
                        Importance.HIGH, "json: one UTF-8 JSON object per record value (schemaless); avro: Avro "
                                + "single-object encoding with the schemas of avro.schemas; avro-registry: Avro in the "
                                + "Schema Registry wire format (magic byte 0, 4-byte schema id), schemas from registry.url; "
                                + "protobuf-registry: Protobuf in that wire format (then the message indexes), .proto "
                                + "schemas and their imports from registry.url; json-schema-registry: JSON in that wire "
                                + "format, each record validated against its JSON Schema from registry.url.")
                .define(DEAD_LETTER_TOPIC, Type.STRING, "", Importance.MEDIUM, "Where records that cannot become rows "
                        + "go, unchanged, with headers saying why; empty: <topic>.dead-letter. Created at start-up.")
                .define(AVRO_SCHEMAS, Type.LIST, "", Importance.HIGH, "format=avro: .avsc files, the reader schema "
                        + "first, then earlier versions records may have been written with (found by fingerprint).")
                .define(REGISTRY_URL, Type.LIST, "", Importance.HIGH, "registry formats (avro-, protobuf-, json-schema-registry): base URLs of the "
                        + "registry's Confluent-compatible API (Confluent, Karapace, Redpanda: http://host:8081; Apicurio: "
                        + "http://host:8080/apis/ccompat/v7), several for failover, tried in order.")
                .define(REGISTRY_BASIC_AUTH_USER_INFO, Type.PASSWORD, "", Importance.MEDIUM, "registry formats (avro-, protobuf-, json-schema-registry): "
                        + "user:password for HTTP basic authentication; empty: none. Never printed.")
                .define(REGISTRY_TRUSTSTORE_LOCATION, Type.STRING, "", Importance.MEDIUM, "registry formats (avro-, protobuf-, json-schema-registry): "
                        + "trust store (PKCS12 or JKS) for https URLs; empty: the JVM's trusted certificates.")
                .define(REGISTRY_TRUSTSTORE_PASSWORD, Type.PASSWORD, "", Importance.MEDIUM, "registry formats (avro-, protobuf-, json-schema-registry): "
                        + "password of the trust store. Never printed.")
                .define(REGISTRY_READER_SCHEMA, Type.STRING, "", Importance.MEDIUM, "format=avro-registry: an .avsc file "
                        + "every record is resolved to (projection, defaults for added fields, aliases for renamed "
                        + "ones), and that field paths are checked against at start-up; empty: see "
                        + REGISTRY_READER_SUBJECT + ".")
                .define(REGISTRY_READER_SUBJECT, Type.STRING, "", Importance.MEDIUM, "format=avro-registry: the "
                        + "reader schema is the latest of this subject, fetched at start-up; empty with "
                        + REGISTRY_READER_SCHEMA + " empty too: each record is read as written, paths unchecked.")
                .define(REGISTRY_CACHE_IDS, Type.INT, 1000, Range.atLeast(1), Importance.LOW, "registry formats (avro-, protobuf-, json-schema-registry): "
                        + "writer schemas kept, by id, each fetched once; past this many the first fetched is dropped.")
                .define(REGISTRY_REQUEST_TIMEOUT_MS, Type.INT, 10_000, Range.atLeast(1), Importance.LOW,
                        "registry formats (avro-, protobuf-, json-schema-registry): how long one request to one registry URL may take.")
                .define(REGISTRY_RETRY_BACKOFF_MAX_MS, Type.INT, 5_000, Range.atLeast(1), Importance.LOW,
                        "registry formats (avro-, protobuf-, json-schema-registry): longest pause between asking an unavailable registry again (starting "
                                + "at 100 ms, doubling). Records wait, they are not set aside.")
                .define(TIME, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH,
                        "Field path of the event time (e.g. @timestamp, with fallbacks @timestamp | time), or an "
                                + "expression ($timestamp: the Kafka record's; see docs/mapping.md): the cell timestamp "
                                + "of every row of the record, and the value of key parts written the same.")
                .define(TIME_FORMAT, Type.STRING, "iso8601", new TimeFormatValidator(), Importance.HIGH,
                        "How the time value reads: epoch-ms, epoch-s (a fraction allowed), epoch-us, epoch-ns, "
                                + "iso8601 (RFC 3339, any fraction, an offset), or pattern:<java.time pattern>; or "
                                + "several, comma-separated, tried in order (the first that reads the value wins): "
                                + "epoch-s, iso8601.")
                .define(TIME_ZONE, Type.STRING, "UTC", new ZoneValidator(), Importance.LOW,
                        "Zone of pattern times that carry none.")
                .define(TIME_MISSING, Type.STRING, MISSING_DEAD_LETTER,
                        ConfigDef.ValidString.in(MISSING_DEAD_LETTER, MISSING_RECORD_TIMESTAMP), Importance.MEDIUM,
                        "A record without an event time: dead-letter sets it aside, record-timestamp uses the Kafka "
                                + "record's timestamp (which a replay reads again, so rows stay the same).")
                .define(TABLE, Type.STRING, "", Importance.HIGH, "Data table; empty: the input's name.")
                .define(KEY, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH,
                        "Row key of the data table: [salt |] path:encoding, ... over field paths or expressions "
                                + "(lower(host.name):text, $key.id:long; see `rowflow keys --help`, docs/mapping.md); "
                                + "the table is pre-split to match. Do not change it for an existing table.")
                .define(COLUMNS, Type.STRING, "*", Importance.HIGH, "Cells of the data row: path[:type][=qualifier] "
                        + "(type: text, long, number, bool, json; an expression instead of a path needs a qualifier: "
                        + "lower(host.name)=h, $header.trace-id=trace), path.*[=prefix*] (every other leaf under path), * "
                        + "(every other leaf). Values as UTF-8 text, objects and arrays as compact JSON; a missing or "
                        + "null value writes no cell.")
                .define(COLUMNS_MISMATCH, Type.STRING, MISSING_DEAD_LETTER,
                        ConfigDef.ValidString.in(MISSING_DEAD_LETTER, MISMATCH_NO_CELL), Importance.MEDIUM,
                        "A value of another type than its typed column's: dead-letter sets the record aside with the "
                                + "reason (nothing is dropped unseen), no-cell writes the row without that cell.")
                .define(FAMILY, Type.STRING, "d", new ConfigDef.NonEmptyString(), Importance.LOW,
                        "Column family of the data table.")
                .define(TIME_BUCKET_SECONDS, Type.INT, 0, Range.between(0, 86_400), Importance.MEDIUM,
                        "0: one row per record. N > 0: rows as columns (seed 002, 1.11.2): one row per N-second "
                                + "bucket (the key's time part holds the bucket start), one cell per record holding "
                                + "the whole record. Needs no indexes.")
                .define(MAX_CELL_BYTES, Type.INT, 1024 * 1024, Range.atLeast(0), Importance.LOW,
                        "Largest cell a value may become; a record with a larger value is set aside. 0: no limit "
                                + "but HBase's hbase.client.keyvalue.maxsize.")
                .define(INDEXES, Type.LIST, "", Importance.MEDIUM, "Names of the dual-written index tables, each "
                        + "configured by index.<name>.*.")
                .define(SUMMARY_KEY, Type.STRING, "", Importance.MEDIUM, "Row key of a summary table counting "
                        + "records per key and period (seed 002, 1.9.4), with a part over the time path; empty: none.")
                .define(SUMMARY_TABLE, Type.STRING, "", Importance.MEDIUM,
                        "Summary table; empty: <table>_summary.")
                .define(SUMMARY_PERIOD_SECONDS, Type.LONG, 3600L, Range.atLeast(1), Importance.MEDIUM,
                        "Length of a summary period; the key's time part holds the period's start.")
                .define(WHERE, Type.STRING, "", new ConditionValidator(), Importance.MEDIUM, "Which records of the topic this input takes: a "
                        + "condition (e.g. exists(event.dataset) and event.dataset != 'system.health'; see "
                        + "docs/mapping.md). The others are counted in rowflow_records_filtered_total, not "
                        + "dead-lettered. Several inputs may read one topic, each with its own where: the topic is "
                        + "read once and each record goes to every input that takes it. Empty: every record.")
                .define(TTL_MS, Type.STRING, "", Importance.MEDIUM, "The TTL in ms of each record's data and "
                        + "index rows, from the record: a path or expression giving a whole number of ms (e.g. "
                        + "retention_ms, long($header.ttl-ms)), set as the Puts' cell TTL (Mutation#setTTL, counted "
                        + "from the event time) in place of the table's cell.ttl.ms; the family TTL still applies. A "
                        + "record without a value takes the table's; one that is not a positive whole number is set "
                        + "aside. Empty: the tables' TTL.")
                .define(ENVELOPE, Type.STRING, ENVELOPE_NONE, ConfigDef.ValidString.in(ENVELOPE_NONE,
                                DebeziumEnvelope.NAME), Importance.HIGH, "none: each record is an event; debezium: "
                                + "each record is a Debezium change event (format json, with or without the "
                                + "JsonConverter's schema, or avro-registry): paths address the row after the change, creates, snapshot "
                                + "reads and updates make the data row that image (a null column has no cell) and move "
                                + "its index rows, deletes delete it (docs/cdc.md). Tombstones are then ignored unless "
                                + "tombstones says otherwise. Inputs on one topic must agree.")
                .define(BEFORE_IMAGE, Type.STRING, BEFORE_IMAGE_PARTIAL, ConfigDef.ValidString.in(BEFORE_IMAGE_PARTIAL,
                                BEFORE_IMAGE_FULL), Importance.MEDIUM, "With envelope=debezium, what the before "
                                + "image of an update or delete holds. partial: what the database logs by default "
                                + "(PostgreSQL: nothing for an update, the key columns for a delete); each change "
                                + "reads its stored row to find the cells and index rows to remove. full: every "
                                + "column's old value (PostgreSQL REPLICA IDENTITY FULL, MySQL binlog_row_image=FULL, "
                                + "its default); the before image stands for the stored row and nothing is read, a "
                                + "create writes without reading. An index whose key holds the time is refused with "
                                + "full: its row is found only with the time it was written at (docs/cdc.md).")
                .define(JOIN_INPUT, Type.STRING, "", Importance.MEDIUM, "With envelope=debezium, another input of "
                        + "change events (e.g. customers) whose present row each record of this one (e.g. orders) "
                        + "joins by a foreign key, as Kafka Streams' table-table foreign-key join does: the joined "
                        + "row's fields are in the record under join.as, and this input's rows follow changes of "
                        + "either side (docs/cdc.md, Joins). Empty: none.")
                .define(JOIN_ON, Type.STRING, "", Importance.MEDIUM, "With join.input, the path of the foreign key "
                        + "in this input's row (customer_id).")
                .define(JOIN_FIELD, Type.STRING, "", Importance.MEDIUM, "With join.input, the path in the joined "
                        + "input's row whose value the foreign key equals, its primary key (id).")
                .define(JOIN_AS, Type.STRING, "", Importance.LOW, "With join.input, the name under which the joined "
                        + "row's fields appear in this input's records (customer: customer.name). Empty: the joined "
                        + "input's name.")
                .define(TOMBSTONES, Type.STRING, MISSING_DEAD_LETTER,
                        ConfigDef.ValidString.in(MISSING_DEAD_LETTER, TOMBSTONES_IGNORE, TOMBSTONES_DELETE),
                        Importance.MEDIUM, "What a tombstone (a record whose value is null) does: dead-letter (set "
                                + "aside), ignore (counted in rowflow_tombstones_ignored_total) or delete: the data row "
                                + "whose key the mapping makes from the record key ($key.id...) is deleted with its "
                                + "index rows (docs/mapping.md, Deletes). Inputs on one topic must agree.")
                .define(DELETE_WHEN, Type.STRING, "", new ConditionValidator(), Importance.MEDIUM, "Records that "
                        + "delete their row instead of writing it: a condition (e.g. op = 'delete'); the data key "
                        + "is made from the record as for a write, and the row goes with its index rows. Empty: "
                        + "none.")
                .define(UNROUTED, Type.STRING, UNROUTED_COUNT,
                        ConfigDef.ValidString.in(UNROUTED_COUNT, MISSING_DEAD_LETTER), Importance.MEDIUM,
                        "A record of the topic that no input's where takes: count (rowflow_records_unrouted_total) "
                                + "or dead-letter (set aside with the conditions it failed). Inputs on one topic "
                                + "must agree.");
        TableSettings.define(def, TABLE);
        TableSettings.define(def, SUMMARY_TABLE);
        for (String index : indexes) {
            String prefix = "index." + index + ".";
            def.define(prefix + TABLE, Type.STRING, "", Importance.MEDIUM, "Table of index " + index
                            + "; empty: <table>_" + index + ".")
                    .define(prefix + KEY, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                            Importance.HIGH, "Row key of index " + index + " over field paths, each part a column of the "
                                    + "data row or the time path; its rows hold the data row key in i:r.")
                    .define(prefix + WHEN_MISSING, Type.STRING, WHEN_MISSING_SKIP,
                            ConfigDef.ValidString.in(WHEN_MISSING_SKIP, MISSING_DEAD_LETTER), Importance.MEDIUM,
                            "A record without a value (absent or null) for a part of index " + index + "'s key: skip "
                                    + "writes its data row and no row of this index (a sparse index, counted in "
                                    + "rowflow_index_rows_skipped_total); dead-letter sets the record aside.");
            TableSettings.define(def, prefix + TABLE);
        }
        def.define(ROWS, Type.LIST, "", Importance.MEDIUM, "Kinds of rows made per element of an array in "
                + "the record (an order's line items), each configured by rows.<kind>.*; see docs/mapping.md.");
        for (String kind : rows) {
            String prefix = "rows." + kind + ".";
            def.define(prefix + EACH, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                            Importance.HIGH, "The arrays rows " + kind + " are made of, outermost first, each with "
                                    + "the alias its element is read under: 'items as item' or 'boxes as box, "
                                    + "box.items as item'.")
                    .define(prefix + KEY, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                            Importance.HIGH, "Row key of rows " + kind + " over the record's fields, the aliases' "
                                    + "($position.<alias> the element's 1-based position, $ordinal the row's number).")
                    .define(prefix + COLUMNS, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                            Importance.HIGH, "The cells of rows " + kind + ", as columns.")
                    .define(prefix + TABLE, Type.STRING, "", Importance.MEDIUM, "Table of rows " + kind + "; empty: "
                            + "the data table (keep the rows' keys apart from the data rows').");
            TableSettings.define(def, prefix + TABLE);
        }
        return def;
    }

    public String name() {
        return name;
    }

    /** {@code input.<name>.} */
    public String prefix() {
        return PREFIX + name + ".";
    }

    /** The full key of {@code key}, e.g. {@code input.app.topic}. */
    public String key(String key) {
        return prefix() + key;
    }

    public String topic() {
        return getString(TOPIC);
    }

    /** The condition of {@code where}, or empty: every record. */
    public String where() {
        return getString(WHERE).strip();
    }

    /**
     * What a tombstone does: {@code dead-letter}, {@code ignore} or {@code delete}; unless set,
     * {@code ignore} for change events (Debezium follows each delete with one) and
     * {@code dead-letter} for events.
     */
    public String tombstones() {
        if (changeEvents() && !originals().containsKey(TOMBSTONES)) {
            return TOMBSTONES_IGNORE;
        }
        return getString(TOMBSTONES);
    }

    /** Whether each record is a change event ({@code envelope=debezium}). */
    public boolean changeEvents() {
        return getString(ENVELOPE).equals(DebeziumEnvelope.NAME);
    }

    /** Whether change events carry every column's old value ({@code before.image=full}). */
    public boolean fullBeforeImages() {
        return getString(BEFORE_IMAGE).equals(BEFORE_IMAGE_FULL);
    }

    /** The input this one joins ({@code join.input}), or empty. */
    public Optional<String> joinInput() {
        String joined = getString(JOIN_INPUT).strip();
        return joined.isEmpty() ? Optional.empty() : Optional.of(joined);
    }

    /** The name the joined row's fields appear under ({@code join.as}, else the joined input's name). */
    public String joinAs() {
        String as = getString(JOIN_AS).strip();
        return as.isEmpty() ? getString(JOIN_INPUT).strip() : as;
    }

    /** The condition of {@code delete.when}, or empty: no record deletes. */
    public String deleteWhen() {
        return getString(DELETE_WHEN).strip();
    }

    /** Whether a record no input of the topic takes is set aside ({@code unrouted=dead-letter}). */
    public boolean unroutedToDeadLetter() {
        return getString(UNROUTED).equals(MISSING_DEAD_LETTER);
    }

    /**
     * The keys saying how the topic's bytes are read, with their values: inputs that read one
     * topic read it once, so they must agree on every one.
     */
    public Map<String, Object> readSettings() {
        Map<String, Object> settings = new java.util.LinkedHashMap<>();
        for (String key : List.of(FORMAT, AVRO_SCHEMAS, REGISTRY_URL, REGISTRY_READER_SCHEMA, REGISTRY_READER_SUBJECT,
                DEAD_LETTER_TOPIC, UNROUTED, TOMBSTONES, ENVELOPE)) {
            settings.put(key, key.equals(DEAD_LETTER_TOPIC) ? deadLetterTopic()
                    : key.equals(TOMBSTONES) ? tombstones() : get(key));
        }
        return settings;
    }

    public String deadLetterTopic() {
        String configured = getString(DEAD_LETTER_TOPIC);
        return configured.isEmpty() ? topic() + ".dead-letter" : configured;
    }

    public List<String> indexes() {
        return indexes;
    }

    /** The kinds of rows made per array element, in declaration order. */
    public List<String> rows() {
        return rows;
    }

    /** The keys (without prefix) naming this input's tables, data table first. */
    List<String> tableKeys() {
        List<String> keys = new ArrayList<>();
        keys.add(TABLE);
        for (String index : indexes) {
            keys.add("index." + index + "." + TABLE);
        }
        if (!getString(SUMMARY_KEY).isEmpty()) {
            keys.add(SUMMARY_TABLE);
        }
        for (String kind : rows) {
            if (!getString("rows." + kind + "." + TABLE).isEmpty()) {
                keys.add("rows." + kind + "." + TABLE);
            }
        }
        return keys;
    }

    /** The table the key {@code tableKey} names, defaults applied. */
    public String tableName(String tableKey) {
        String configured = getString(tableKey);
        if (!configured.isEmpty()) {
            return configured;
        }
        String data = getString(TABLE).isEmpty() ? name.replace('-', '_') : getString(TABLE);
        if (tableKey.equals(TABLE)) {
            return data;
        }
        if (tableKey.equals(SUMMARY_TABLE)) {
            return data + "_summary";
        }
        return data + "_" + tableKey.substring("index.".length(), tableKey.length() - TABLE.length() - 1)
                .replace('-', '_');
    }

    public TableRole dataRole() {
        return TableRole.of(name + ".data");
    }

    public TableRole indexRole(String index) {
        return TableRole.of(name + ".index." + index);
    }

    public TableRole summaryRole() {
        return TableRole.of(name + ".summary");
    }

    /** The table rows {@code kind} go to: their own if {@code rows.<kind>.table} names one, else the data table. */
    public TableRole rowsRole(String kind) {
        return getString("rows." + kind + "." + TABLE).isEmpty() ? dataRole() : TableRole.of(name + ".rows." + kind);
    }

    /** The role of each table key, data table first. */
    public Map<String, TableRole> rolesByTableKey() {
        Map<String, TableRole> roles = new LinkedHashMap<>();
        roles.put(TABLE, dataRole());
        for (String index : indexes) {
            roles.put("index." + index + "." + TABLE, indexRole(index));
        }
        if (!getString(SUMMARY_KEY).isEmpty()) {
            roles.put(SUMMARY_TABLE, summaryRole());
        }
        for (String kind : rows) {
            if (!rowsRole(kind).equals(dataRole())) {
                roles.put("rows." + kind + "." + TABLE, rowsRole(kind));
            }
        }
        return roles;
    }

    /** The key (with prefix) whose value decides the row keys of the table of {@code role}. */
    public String layoutKey(TableRole role) {
        if (role == dataRole()) {
            return key(KEY);
        }
        if (role == summaryRole()) {
            return key(SUMMARY_KEY);
        }
        for (String index : indexes) {
            if (role == indexRole(index)) {
                return key("index." + index + "." + KEY);
            }
        }
        for (String kind : rows) {
            if (role == rowsRole(kind)) {
                return key("rows." + kind + "." + KEY);
            }
        }
        throw new IllegalArgumentException("table " + role + " is not one of input " + name + "'s");
    }

    /**
     * The base URLs of {@code registry.url}, checked in the constructor.
     */
    public List<URI> registryUrls() {
        List<URI> urls = new ArrayList<>();
        for (String url : getList(REGISTRY_URL)) {
            try {
                URI uri = new URI(url);
                if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                    throw new URISyntaxException(url, "an http or https URL with a host is expected");
                }
                urls.add(uri);
            } catch (URISyntaxException e) {
                throw new ConfigException(key(REGISTRY_URL), url, e.getMessage());
            }
        }
        return urls;
    }

    /** Refuses what the format keys cannot mean together, without reading a file or asking a registry. */
    private void checkFormat() {
        String format = getString(FORMAT);
        if (format.equals(AvroFormat.NAME) && getList(AVRO_SCHEMAS).isEmpty()) {
            throw new ConfigException(key(AVRO_SCHEMAS), "", "format=avro needs the .avsc files of its records");
        }
        if (!format.equals(RegistryAvroFormat.NAME) && !format.equals(RegistryProtobufFormat.NAME)
                && !format.equals(RegistryJsonSchemaFormat.NAME)) {
            return;
        }
        if (registryUrls().isEmpty()) {
            throw new ConfigException(key(REGISTRY_URL), "", "format=" + format + " needs the registry's URL");
        }
        if (!format.equals(RegistryAvroFormat.NAME)) {
            for (String avroOnly : List.of(REGISTRY_READER_SCHEMA, REGISTRY_READER_SUBJECT)) {
                if (!getString(avroOnly).isEmpty()) {
                    throw new ConfigException(key(avroOnly), getString(avroOnly), "a reader schema is for "
                            + "format=avro-registry; format=" + format + " reads each record with its own schema");
                }
            }
        }
        String userInfo = getPassword(REGISTRY_BASIC_AUTH_USER_INFO).value();
        if (!userInfo.isEmpty() && userInfo.indexOf(':') < 0) {
            throw new ConfigException(key(REGISTRY_BASIC_AUTH_USER_INFO), "[hidden]", "user:password is expected "
                    + "(no ':' in it)");
        }
        String subject = getString(REGISTRY_READER_SUBJECT);
        if (!getString(REGISTRY_READER_SCHEMA).isEmpty() && !subject.isEmpty()) {
            throw new ConfigException(key(REGISTRY_READER_SUBJECT), subject, "give the reader schema once: as "
                    + key(REGISTRY_READER_SCHEMA) + " or as a subject, not both");
        }
    }

    /** The mapping as declared. */
    public MappingSpec mappingSpec() {
        List<MappingSpec.IndexSpec> indexSpecs = new ArrayList<>();
        for (String index : indexes) {
            indexSpecs.add(new MappingSpec.IndexSpec(index, indexRole(index), getString("index." + index + "." + KEY),
                    getString("index." + index + "." + WHEN_MISSING).equals(WHEN_MISSING_SKIP)));
        }
        String summaryKey = getString(SUMMARY_KEY);
        List<ColumnSpec> columns;
        try {
            columns = ColumnSpec.parseList(getString(COLUMNS), getString(COLUMNS_MISMATCH).equals(MISMATCH_NO_CELL));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(key(COLUMNS), getString(COLUMNS), e.getMessage());
        }
        return new MappingSpec(dataRole(), getString(FAMILY), getString(KEY), columns, getString(TIME),
                TimeFormat.parse(getString(TIME_FORMAT), ZoneId.of(getString(TIME_ZONE))),
                getString(TIME_MISSING).equals(MISSING_RECORD_TIMESTAMP), getInt(TIME_BUCKET_SECONDS) * 1000L,
                indexSpecs, summaryKey.isEmpty() ? null : new MappingSpec.SummarySpec(summaryRole(), summaryKey,
                getLong(SUMMARY_PERIOD_SECONDS) * 1000L), getInt(MAX_CELL_BYTES))
                .withTtl(getString(TTL_MS).isBlank() ? null : getString(TTL_MS)).withElementRows(elementRows());
    }

    private List<MappingSpec.ElementRowsSpec> elementRows() {
        List<MappingSpec.ElementRowsSpec> specs = new ArrayList<>();
        for (String kind : rows) {
            String prefix = "rows." + kind + ".";
            try {
                specs.add(new MappingSpec.ElementRowsSpec(kind, rowsRole(kind), getString(prefix + EACH),
                        getString(prefix + KEY), ColumnSpec.parseList(getString(prefix + COLUMNS),
                        getString(COLUMNS_MISMATCH).equals(MISMATCH_NO_CELL))));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(key(prefix + COLUMNS), getString(prefix + COLUMNS), e.getMessage());
            }
        }
        return specs;
    }

    /**
     * The key (without prefix) of the piece of this input's mapping a {@link MappingException} is
     * about.
     */
    public String keyOf(MappingException.Piece piece, String index) {
        return switch (piece) {
            case TIME -> TIME;
            case COLUMNS -> COLUMNS;
            case TIME_BUCKET -> TIME_BUCKET_SECONDS;
            case DATA_KEY -> KEY;
            case INDEX_KEY -> "index." + index + "." + KEY;
            case SUMMARY_KEY -> SUMMARY_KEY;
            case TTL -> TTL_MS;
            case ELEMENT_EACH -> "rows." + index + ".each";
            case ELEMENT_KEY -> "rows." + index + "." + KEY;
            case ELEMENT_COLUMNS -> "rows." + index + "." + COLUMNS;
        };
    }

    public FamilySettings familySettings(String tableKey) {
        return TableSettings.read(this, prefix(), tableKey);
    }

    /** Refuses what {@code store} cannot do with this input's tables, naming the key. */
    void checkStore(Store store) {
        for (String table : tableKeys()) {
            TableSettings.checkSupported(store, this, prefix(), table, tableName(table));
        }
        if (!getString(TTL_MS).isBlank() && !store.capabilities().cellTtl()) {
            throw new ConfigException(key(TTL_MS), getString(TTL_MS), "the store " + store
                    + " keeps no TTL per cell (Mutation#setTTL); use the tables' ttl.seconds");
        }
    }

    private static final class TimeFormatValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            try {
                TimeFormat.parse((String) value, ZoneId.of("UTC"));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }

        @Override
        public String toString() {
            return "epoch-ms, epoch-s, epoch-us, epoch-ns, iso8601, pattern:<pattern>, or several comma-separated";
        }
    }

    private static final class ConditionValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            if (value != null && !value.toString().isBlank()) {
                try {
                    Expression.parseCondition(value.toString());
                } catch (IllegalArgumentException e) {
                    throw new ConfigException(name, value, e.getMessage());
                }
            }
        }

        @Override
        public String toString() {
            return "a condition (docs/mapping.md), or empty";
        }
    }

    private static final class ZoneValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            try {
                ZoneId.of((String) value);
            } catch (DateTimeException e) {
                throw new ConfigException(name, value, "not a time zone: " + e.getMessage());
            }
        }

        @Override
        public String toString() {
            return "a zone id, e.g. UTC, Europe/Berlin";
        }
    }
}
