package dev.rowflow.pipeline.config;

import java.net.URI;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.format.DebeziumEnvelope;
import dev.rowflow.keying.logical.LogicalType;
import dev.rowflow.keying.mapping.MappingException;
import dev.rowflow.keying.mapping.MappingSpec;
import dev.rowflow.sinks.hbase.FamilySettings;
import dev.rowflow.sinks.hbase.Store;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

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
 * <p>This class reads a configured input: its values, tables and roles. What the keys may hold
 * (the {@code ConfigDef}, checks across keys) is {@link InputDefinition}'s, and the mapping they
 * declare is read by {@link InputMapping}; the key names stay here, where callers find them.
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
    public static final String TOPIC_PATTERN = "topic.pattern";
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
    /** With envelope=debezium: the logical type of columns whose change events carry no schema. */
    public static final String TYPES = "types";
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
    private final Optional<TopicPattern> topics;

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
        InputDefinition.checkFormat(this);
        this.topics = TopicPattern.of(this);
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
        return InputDefinition.of(indexes, rows);
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

    /** The topic it reads; empty for an input of a {@link #topicPattern()}. */
    public String topic() {
        return getString(TOPIC);
    }

    /** The topics it reads, if it reads every topic a regex matches ({@code topic.pattern}). */
    public Optional<TopicPattern> topicPattern() {
        return topics;
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

    /**
     * The logical type declared per column of a change event's row image ({@code types}: {@code column:type, ...}),
     * read where the event's schema names none; empty if none is declared.
     *
     * @throws ConfigException naming the key and the entry, for an entry that is not {@code column:type} of a
     *                         known type, a column declared twice, or types on an input that is not of change events
     */
    public Map<String, LogicalType> declaredTypes() {
        String declared = getString(TYPES).strip();
        if (!declared.isEmpty() && !changeEvents()) {
            throw new ConfigException(key(TYPES), declared, "types are declared for the columns of change events "
                    + "(" + key(ENVELOPE) + "=debezium); convert a field of an event with convert(path, 'type') in a column");
        }
        try {
            return LogicalType.parseColumns(declared);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(key(TYPES), declared, e.getMessage());
        }
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
                DEAD_LETTER_TOPIC, UNROUTED, TOMBSTONES, ENVELOPE, TYPES)) {
            settings.put(key, key.equals(DEAD_LETTER_TOPIC) ? deadLetterTopic()
                    : key.equals(TOMBSTONES) ? tombstones() : get(key));
        }
        return settings;
    }

    public String deadLetterTopic() {
        String configured = getString(DEAD_LETTER_TOPIC);
        return configured.isEmpty() ? (topics.isPresent() ? name : topic()) + ".dead-letter" : configured;
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
        String data = !getString(TABLE).isEmpty() ? getString(TABLE)
                : topics.isPresent() ? TopicPattern.TOPIC : name.replace('-', '_');
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

    /** The base URLs of {@code registry.url}, checked in the constructor. */
    public List<URI> registryUrls() {
        return InputDefinition.registryUrls(this);
    }

    /** The mapping as declared. */
    public MappingSpec mappingSpec() {
        return InputMapping.spec(this);
    }

    /**
     * The key (without prefix) of the piece of this input's mapping a {@link MappingException} is
     * about.
     */
    public String keyOf(MappingException.Piece piece, String index) {
        return InputMapping.keyOf(piece, index);
    }

    public FamilySettings familySettings(String tableKey) {
        return TableSettings.read(this, prefix(), tableKey);
    }

    /** Refuses what {@code store} cannot do with this input's tables, naming the key. */
    void checkStore(Store store) {
        for (String table : tableKeys()) {
            TableSettings.checkSupported(store, this, prefix(), table, TopicPattern.sample(tableName(table)));
        }
        if (!getString(TTL_MS).isBlank() && !store.capabilities().cellTtl()) {
            throw new ConfigException(key(TTL_MS), getString(TTL_MS), "the store " + store
                    + " keeps no TTL per cell (Mutation#setTTL); use the tables' ttl.seconds");
        }
    }
}
