package dev.rowflow.pipeline.config;

import dev.rowflow.keying.format.AvroFormat;
import dev.rowflow.keying.format.DebeziumEnvelope;
import dev.rowflow.keying.logical.LogicalType;
import dev.rowflow.keying.format.JsonFormat;
import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.mapping.TimeFormat;
import dev.rowflow.pipeline.otlp.OtlpLogsFormat;
import dev.rowflow.pipeline.registry.RegistryAvroFormat;
import dev.rowflow.pipeline.registry.RegistryJsonSchemaFormat;
import dev.rowflow.pipeline.registry.RegistryProtobufFormat;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;

// The key names are InputConfig's constants, where the code that reads an input finds them.
import static dev.rowflow.pipeline.config.InputConfig.*;

/**
 * What one declared input's keys may hold: each key's type, default, validator, importance and
 * doc, as a Kafka {@code ConfigDef} (docs/configuration.md's input table is generated from it by
 * {@link ConfigDocs}), and the checks across keys a {@code ConfigDef} cannot express. Reading the
 * values of a configured input is {@link InputConfig}'s job.
 */
final class InputDefinition {
    private InputDefinition() {
    }

    /** See {@link InputConfig#definition(List, List)}. */
    static ConfigDef of(List<String> indexes, List<String> rows) {
        ConfigDef def = new ConfigDef()
                .define(TOPIC, Type.STRING, "", Importance.HIGH, "Kafka topic of the input; it must exist. "
                        + "Or topic.pattern.")
                .define(TOPIC_PATTERN, Type.STRING, "", Importance.HIGH, "Instead of topic: a Java regex; every "
                        + "topic it matches whole is read, also one created later (within kafka.metadata.max.age.ms), "
                        + "each into a table of its own named by table, a template of the regex's named groups and "
                        + "${topic} (dbserver1\\.inventory\\.(?<table>.+) with table=inventory_${table}). Topics "
                        + "other inputs read are left to them. No indexes, rows, summary or join: declare a table's "
                        + "own input for those.")
                .define(FORMAT, Type.STRING, JsonFormat.NAME, ConfigDef.ValidString.in(JsonFormat.NAME, AvroFormat.NAME,
                                RegistryAvroFormat.NAME, RegistryProtobufFormat.NAME, RegistryJsonSchemaFormat.NAME,
                                OtlpLogsFormat.PROTO, OtlpLogsFormat.JSON),
                        Importance.HIGH, "json: one UTF-8 JSON object per record value (schemaless); avro: Avro "
                                + "single-object encoding with the schemas of avro.schemas; avro-registry: Avro in the "
                                + "Schema Registry wire format (magic byte 0, 4-byte schema id), schemas from registry.url; "
                                + "protobuf-registry: Protobuf in that wire format (then the message indexes), .proto "
                                + "schemas and their imports from registry.url; json-schema-registry: JSON in that wire "
                                + "format, each record validated against its JSON Schema from registry.url; "
                                + "otlp-proto, otlp-json: OpenTelemetry Collector logs as its Kafka exporter writes "
                                + "them (otlp_proto, otlp_json), each log record a record of its own.")
                .define(DEAD_LETTER_TOPIC, Type.STRING, "", Importance.MEDIUM, "Where records that cannot become rows "
                        + "go, unchanged, with headers saying why; empty: <topic>.dead-letter (with topic.pattern: "
                        + "<input>.dead-letter). Created at start-up.")
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
                        + REGISTRY_READER_SCHEMA + " empty too: each record is read as written, paths unchecked. "
                        + "format=protobuf-registry (the first message of its latest schema) and "
                        + "json-schema-registry: the schema field paths and their types are checked against at "
                        + "start-up; records are read with their own schema.")
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
                .define(TABLE, Type.STRING, "", Importance.HIGH, "Data table; empty: the input's name (with "
                        + "topic.pattern: ${topic}, the topic's name).")
                .define(KEY, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH,
                        "Row key of the data table: [salt |] path:encoding, ... over field paths or expressions "
                                + "(lower(host.name):text, $key.id:long; see `rowflow keys --help`, docs/mapping.md); with "
                                + "topic.pattern and envelope=debezium, $key.* stands for the record key's fields (the "
                                + "primary key; bucket(8) | $key.* salts it); "
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
                .define(TYPES, Type.STRING, "", Importance.MEDIUM, "With envelope=debezium, the logical type of "
                                + "columns of the row images whose events carry no schema (JsonConverter with "
                                + "schemas.enable=false): column:type, ... with types " + LogicalType.NAMES + ", e.g. "
                                + "total:decimal(10,2), created_at:timestamp-micros. Each is then written as the "
                                + "schema's logical type would be, so both converter shapes give the same rows; where "
                                + "an event's schema names a type, the schema's applies (docs/cdc.md). Empty: none.")
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

    /** Refuses what the format keys cannot mean together, without reading a file or asking a registry. */
    /** The base URLs of {@code registry.url}; see {@link InputConfig#registryUrls()}. */
    static List<java.net.URI> registryUrls(InputConfig input) {
        List<java.net.URI> urls = new java.util.ArrayList<>();
        for (String url : input.getList(REGISTRY_URL)) {
            try {
                java.net.URI uri = new java.net.URI(url);
                if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                    throw new java.net.URISyntaxException(url, "an http or https URL with a host is expected");
                }
                urls.add(uri);
            } catch (java.net.URISyntaxException e) {
                throw new ConfigException(input.key(REGISTRY_URL), url, e.getMessage());
            }
        }
        return urls;
    }

    static void checkFormat(InputConfig input) {
        String format = input.getString(FORMAT);
        if (format.equals(AvroFormat.NAME) && input.getList(AVRO_SCHEMAS).isEmpty()) {
            throw new ConfigException(input.key(AVRO_SCHEMAS), "", "format=avro needs the .avsc files of its records");
        }
        if (!format.equals(RegistryAvroFormat.NAME) && !format.equals(RegistryProtobufFormat.NAME)
                && !format.equals(RegistryJsonSchemaFormat.NAME)) {
            return;
        }
        if (input.registryUrls().isEmpty()) {
            throw new ConfigException(input.key(REGISTRY_URL), "", "format=" + format + " needs the registry's URL");
        }
        if (!format.equals(RegistryAvroFormat.NAME)) {
            // Protobuf and JSON Schema read each record with its own schema; a subject's latest checks the
            // declaration at start, and a reader schema file is Avro's.
            if (!input.getString(REGISTRY_READER_SCHEMA).isEmpty()) {
                throw new ConfigException(input.key(REGISTRY_READER_SCHEMA), input.getString(REGISTRY_READER_SCHEMA),
                        "a reader schema file is for format=avro-registry; format=" + format + " reads each record "
                        + "with its own schema (" + input.key(REGISTRY_READER_SUBJECT) + " checks the declaration "
                        + "against a subject's latest schema at start-up)");
            }
        }
        String userInfo = input.getPassword(REGISTRY_BASIC_AUTH_USER_INFO).value();
        if (!userInfo.isEmpty() && userInfo.indexOf(':') < 0) {
            throw new ConfigException(input.key(REGISTRY_BASIC_AUTH_USER_INFO), "[hidden]", "user:password is expected "
                    + "(no ':' in it)");
        }
        String subject = input.getString(REGISTRY_READER_SUBJECT);
        if (!input.getString(REGISTRY_READER_SCHEMA).isEmpty() && !subject.isEmpty()) {
            throw new ConfigException(input.key(REGISTRY_READER_SUBJECT), subject, "give the reader schema once: as "
                    + input.key(REGISTRY_READER_SCHEMA) + " or as a subject, not both");
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
