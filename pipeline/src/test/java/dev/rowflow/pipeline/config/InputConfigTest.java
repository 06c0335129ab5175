package dev.rowflow.pipeline.config;

import dev.rowflow.keying.TableRole;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Declared inputs: what a configuration may say, and every mistake stopping start-up by its key. */
class InputConfigTest {
    /** Input app beside the log pipeline (named: with declared inputs it runs only when named). */
    private static Map<String, String> app(String... overrides) {
        Map<String, String> props = new HashMap<>(Map.of(
                "kafka.bootstrap.servers", "b:9092",
                "pipelines", "logs",
                "inputs", "app",
                "input.app.topic", "app-logs",
                "input.app.time", "@timestamp",
                "input.app.key", "bucket(8) | @timestamp:ts, host.name:text",
                "input.app.columns", "message=m, host.name=h, *=f.*",
                "input.app.indexes", "host",
                "input.app.index.host.key", "host.name:text, @timestamp:rts"));
        for (int i = 0; i < overrides.length; i += 2) {
            if (overrides[i + 1] == null) {
                props.remove(overrides[i]);
            } else {
                props.put(overrides[i], overrides[i + 1]);
            }
        }
        return props;
    }

    private static void refused(Map<String, String> props, String message) {
        assertThatThrownBy(() -> plan(props)).isInstanceOf(ConfigException.class).hasMessage(message);
    }

    /** The configuration and what start-up builds from it, as `rowflow run` refuses it. */
    private static PipelinePlan plan(Map<String, String> props) {
        return PipelinePlan.build(new RowflowConfig(props), null);
    }

    @Test
    void shouldDeclareTheTablesAndDeadLetterTopicOfAnInputBesideTheLogPipeline() {
        PipelinePlan plan = plan(app("input.app.summary.key", "host.name:text, @timestamp:ts"));

        assertThat(plan.config().inputs()).extracting(InputConfig::name).containsExactly("app");
        assertThat(plan.deadLetterTopics()).containsEntry("logs", "logs.dead-letter")
                .containsEntry("app-logs", "app-logs.dead-letter");
        var tables = plan.tables();
        assertThat(tables.get(TableRole.of("app.data")).name().getNameAsString()).isEqualTo("app");
        assertThat(tables.get(TableRole.of("app.index.host")).name().getNameAsString()).isEqualTo("app_host");
        assertThat(tables.get(TableRole.of("app.summary")).name().getNameAsString()).isEqualTo("app_summary");
        assertThat(tables.get(TableRole.of("app.data")).layout().spec())
                .isEqualTo("bucket(8) | @timestamp:ts, host.name:text");
        assertThat(plan.table(TableRole.of("app.index.host")).layoutKey()).isEqualTo("input.app.index.host.key");
        assertThat(plan.table(TableRole.of("app.summary")).tableKey()).isEqualTo("input.app.summary.table");
    }

    @Test
    void shouldDeclareRowsPerArrayElementInTheDataTableOrTheirOwnAndRefuseMistakesNamingTheKey() {
        String[] items = {"input.app.rows", "items, tags", "input.app.rows.items.each", "items as item",
                "input.app.rows.items.key", "host.name:text, @timestamp:ts, $position.item:int",
                "input.app.rows.items.columns", "item.sku=s, item.qty:int64=q",
                "input.app.rows.tags.each", "tags as tag", "input.app.rows.tags.key", "tag:text, host.name:text",
                "input.app.rows.tags.columns", "host.name=h", "input.app.rows.tags.table", "app_tags"};
        PipelinePlan plan = plan(app(items));

        assertThat(plan.tables().get(TableRole.of("app.rows.tags")).name().getNameAsString()).isEqualTo("app_tags");
        assertThat(plan.table(TableRole.of("app.rows.tags")).layoutKey()).isEqualTo("input.app.rows.tags.key");
        assertThat(plan.tables()).doesNotContainKey(TableRole.of("app.rows.items"));
        assertThat(plan.declaredInput("app").orElseThrow().mapping().hasElementRows()).isTrue();

        String[] bad = java.util.Arrays.copyOf(items, items.length + 2);
        bad[items.length] = "input.app.rows.items.key";
        bad[items.length + 1] = "host.name:text, $position.itm:int";
        refused(app(bad), "Invalid value host.name:text, $position.itm:int for configuration "
                + "input.app.rows.items.key: rows items: $position.itm: each gives no alias itm (aliases: item)");
        bad[items.length] = "input.app.rows.items.each";
        bad[items.length + 1] = "items item";
        refused(app(bad), "Invalid value items item for configuration input.app.rows.items.each: rows items each "
                + "'items item': 'items item' is not 'path as alias' (e.g. shippingLocations as location, "
                + "location.lineItems as item)");
        refused(app(java.util.Arrays.copyOf(items, 2)), "Missing required configuration \"input.app.rows.items.each\" "
                + "which has no default value.");
        String[] deleting = java.util.Arrays.copyOf(items, items.length + 2);
        deleting[items.length] = "input.app.tombstones";
        deleting[items.length + 1] = "delete";
        refused(app(deleting), "Invalid value delete for configuration input.app.tombstones: a record that deletes "
                + "(or replaces) its row deletes the row and its index rows, not the rows made per array element "
                + "(input.app.rows=items,tags): take the elements' rows from an input of events");
    }

    @Test
    void shouldReadFamilySettingsPerDeclaredTable() {
        RowflowConfig config = new RowflowConfig(app("input.app.table.ttl.seconds", "86400",
                "input.app.index.host.table.max.versions", "3"));

        InputConfig input = config.inputs().get(0);
        assertThat(input.familySettings("table").ttlSeconds()).isEqualTo(86400);
        assertThat(input.familySettings("index.host.table").maxVersions()).isEqualTo(3);
    }

    @Test
    void shouldStopStartUpNamingTheKeyOfEachMistake() {
        refused(app("input.app.key", null), "Missing required configuration \"input.app.key\" which has no default value.");
        refused(app("input.app.format", "xml"), "Invalid value xml for configuration input.app.format: String must be one "
                + "of: json, avro, avro-registry, protobuf-registry, json-schema-registry, otlp-proto, otlp-json");
        refused(app("input.app.colums", "message"), "input.app.colums: unknown key of input app (see `rowflow config`)");
        refused(app("input.other.topic", "t"), "input.other.topic: no input of that name is declared in inputs (app)");
        refused(app("input.app.key", "bucket(8) | @timestamp:ts, host..name:text"), "Invalid value bucket(8) | "
                + "@timestamp:ts, host..name:text for configuration input.app.key: data key 'bucket(8) | @timestamp:ts, "
                + "host..name:text', part host..name:text: field path 'host..name': expected a name or a quoted \"name\" "
                + "at offset 5");
        refused(app("input.app.time.format", "pattern:yyyy-MM-dd'T"), "Invalid value pattern:yyyy-MM-dd'T for "
                + "configuration input.app.time.format: " + timeFormatError("pattern:yyyy-MM-dd'T"));
        refused(app("input.app.columns", "message=m, host.name=m"), "Invalid value message=m, host.name=m for "
                + "configuration input.app.columns: columns 'message=m' and 'host.name=m' both write qualifier 'm'");
        refused(app("input.app.columns", "message=m, host.name=h", "input.app.index.host.key", "host.name:text, level:text"),
                "Invalid value host.name:text, level:text "
                + "for configuration input.app.index.host.key: index host key 'host.name:text, level:text': part level is "
                + "in no column of the data row, so index verify and backfill could not rebuild the index row from it; "
                + "add level to the columns");
        refused(app("inputs", "App"), "Invalid value [App] for configuration inputs: input name 'App' must be 1 to 40 of "
                + "a-z, 0-9, _ and -, starting with a letter");
        refused(app("input.app.topic", "logs"), "Invalid value logs for configuration input.app.topic: already read by "
                + "topic.logs: only declared inputs share a topic (each with its where)");
        refused(app("input.app.where", "status >= 'x' or"), "Invalid value status >= 'x' or for configuration "
                + "input.app.where: expression 'status >= 'x' or': expected a value at offset 16 (the end)");
        refused(app("input.app.where", "lower(host.name)"), "Invalid value lower(host.name) for configuration "
                + "input.app.where: expression 'lower(host.name)' is text, where a condition is expected (e.g. x = 'a', "
                + "exists(x), x matches '^a')");
        refused(app("input.app.delete.when", "deleted ="), "Invalid value deleted = for configuration "
                + "input.app.delete.when: expression 'deleted =': expected a value at offset 9 (the end)");
        refused(app("input.app.tombstones", "drop"), "Invalid value drop for configuration input.app.tombstones: "
                + "String must be one of: dead-letter, ignore, delete");
        Map<String, String> bucketed = app("input.app.tombstones", "delete", "input.app.time.bucket.seconds", "60",
                "input.app.indexes", "");
        bucketed.remove("input.app.index.host.key");
        refused(bucketed, "Invalid value delete for configuration input.app.tombstones: rows as columns "
                + "(input.app.time.bucket.seconds) keep many records in one row, so one record cannot be deleted");
        refused(app("input.app.columns", "message=m, host.name=h, upper(x=h"), "Invalid value message=m, host.name=h, "
                + "upper(x=h for configuration input.app.columns: column 'upper(x=h': expression 'upper(x=h': "
                + "expected ')' at offset 9 (the end)");
        refused(app("input.app.table", "log_data"), "Invalid value log_data for configuration input.app.table: already "
                + "the table of table.log.data: every table has one key layout and one writer");
        refused(app("input.app.index.mine.key", "host.name:text"), "input.app.index.mine.key: unknown key of input app "
                + "(is the index in input.app.indexes?) (see `rowflow config`)");
    }

    @Test
    void shouldRefuseAnAvroLayoutOverAFieldTheSchemaLacks() throws Exception {
        Path schema = Files.createTempFile("event", ".avsc");
        Files.writeString(schema, "{\"type\":\"record\",\"name\":\"Event\",\"fields\":[{\"name\":\"host\",\"type\":\"string\"},"
                + "{\"name\":\"ts\",\"type\":\"long\"}]}");
        Map<String, String> props = app("input.app.format", "avro", "input.app.avro.schemas", schema.toString(),
                "input.app.time", "ts", "input.app.time.format", "epoch-ms", "input.app.key", "ts:ts, hostname:text",
                "input.app.columns", "host=h", "input.app.indexes", null, "input.app.index.host.key", null);

        refused(props, "Invalid value ts:ts, hostname:text for configuration input.app.key: data key 'ts:ts, hostname:text', "
                + "part hostname:text: Avro record Event has no field 'hostname' (it has host, ts)");
        props.put("input.app.key", "ts:ts, host:text");
        assertThat(plan(props).declaredInput("app").orElseThrow().format().name()).isEqualTo("avro");
        props.put("input.app.avro.schemas", schema + ".missing");
        assertThatThrownBy(() -> plan(props)).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Invalid value " + schema + ".missing for configuration input.app.avro.schemas: "
                        + "cannot be read as an Avro schema");
    }

    @Test
    void shouldRefuseAtStartAKeyTheSchemasFieldTypesCanNeverMake() throws Exception {
        Path schema = Files.createTempFile("event", ".avsc");
        Files.writeString(schema, "{\"type\":\"record\",\"name\":\"Event\",\"fields\":[{\"name\":\"host\",\"type\":\"string\"},"
                + "{\"name\":\"ts\",\"type\":\"long\"},{\"name\":\"seq\",\"type\":[\"null\",\"long\"]},"
                + "{\"name\":\"geo\",\"type\":{\"type\":\"record\",\"name\":\"Geo\",\"fields\":[{\"name\":\"lat\","
                + "\"type\":\"double\"}]}}]}");
        Map<String, String> props = app("input.app.format", "avro", "input.app.avro.schemas", schema.toString(),
                "input.app.time", "ts", "input.app.time.format", "epoch-ms", "input.app.key", "ts:ts, host:long",
                "input.app.columns", "host=h, seq=s", "input.app.indexes", null, "input.app.index.host.key", null);

        // A string field as a long part: every record would be set aside, so start-up is refused naming the key.
        refused(props, "Invalid value ts:ts, host:long for configuration input.app.key: part 'host:long': the schema "
                + "types host as text, which a long key part never takes: every record would be set aside (key it as "
                + "text, or convert it with long(...))");
        props.put("input.app.key", "ts:ts, geo:text");
        refused(props, "Invalid value ts:ts, geo:text for configuration input.app.key: part 'geo:text': the schema "
                + "types geo as an object, which a text key part never takes: every record would be set aside");
        // An optional long, a string as text, a double (the schema leaves its key value to the records): taken.
        props.put("input.app.key", "ts:ts, seq:long, host:text, geo.lat:text");
        assertThat(plan(props).declaredInput("app")).isPresent();
    }

    @Test
    void shouldReadChangeEventsFromJsonIgnoringTheirTombstonesUnlessToldOtherwise() {
        Map<String, String> cdc = app("input.app.envelope", "debezium");
        try (PipelinePlan plan = plan(cdc)) {
            assertThat(plan.declaredInput("app").orElseThrow().deletes()).isTrue();
            assertThat(plan.declaredInput("app").orElseThrow().format()).isInstanceOf(
                    dev.rowflow.keying.format.DebeziumEnvelope.class);
        }
        assertThat(new RowflowConfig(cdc).inputs().get(0).tombstones()).isEqualTo("ignore");
        cdc.put("input.app.tombstones", "dead-letter");
        assertThat(new RowflowConfig(cdc).inputs().get(0).tombstones()).isEqualTo("dead-letter");
        assertThat(new RowflowConfig(app()).inputs().get(0).tombstones()).isEqualTo("dead-letter");

        refused(app("input.app.envelope", "debezium", "input.app.format", "avro", "input.app.avro.schemas",
                "/dev/null"), "Invalid value debezium for configuration input.app.envelope: change events are "
                + "read from format json (Kafka Connect's JsonConverter, with or without schemas) or avro-registry (a "
                + "Connect Avro converter through a Schema Registry); input.app.format is avro");
        refused(app("input.app.columns", "message=m, host.name=h, $before.status=was"), "Invalid value message=m, "
                + "host.name=h, $before.status=was for configuration input.app.columns: $before is a source of change "
                + "events, and input.app.envelope is none: no record of this input has it");
        refused(app("input.app.where", "$op != 'd'"), "Invalid value $op != 'd' for configuration input.app.where: $op is "
                + "a source of change events, and input.app.envelope is none: no record of this input has it");
        refused(app("input.app.envelope", "maxwell"), "Invalid value maxwell for configuration input.app.envelope: "
                + "String must be one of: none, debezium");
    }

    @Test
    void shouldTakeTheColumnsTypesOfChangeEventsAndRefuseMistakesNamingTheKey() {
        Map<String, String> cdc = app("input.app.envelope", "debezium",
                "input.app.types", "total:decimal(10, 2), created_at : timestamp-micros");
        assertThat(new RowflowConfig(cdc).inputs().get(0).declaredTypes()).containsExactly(
                Map.entry("total", dev.rowflow.keying.logical.LogicalType.parse("decimal(10,2)")),
                Map.entry("created_at", dev.rowflow.keying.logical.LogicalType.parse("timestamp-micros")));
        plan(cdc).close();

        refused(app("input.app.types", "total:decimal(10,2)"), "Invalid value total:decimal(10,2) for configuration "
                + "input.app.types: types are declared for the columns of change events (input.app.envelope=debezium); "
                + "convert a field of an event with convert(path, 'type') in a column");
        refused(app("input.app.envelope", "debezium", "input.app.types", "created_at:timestamp"), "Invalid value "
                + "created_at:timestamp for configuration input.app.types: 'timestamp' is not a type: the types are "
                + dev.rowflow.keying.logical.LogicalType.NAMES);
        refused(app("input.app.envelope", "debezium", "input.app.types", "decimal(10,2)"), "Invalid value "
                + "decimal(10,2) for configuration input.app.types: 'decimal(10,2)' is not column:type");
        refused(app("input.app.envelope", "debezium", "input.app.types", "a:date, a:year"), "Invalid value "
                + "a:date, a:year for configuration input.app.types: column a is declared twice");
    }

    @Test
    void shouldTakeFullBeforeImagesOnlyOfChangeEventsAndIndexesWhoseRowsTheyFind() {
        Map<String, String> full = app("input.app.envelope", "debezium", "input.app.before.image", "full",
                "input.app.index.host.key", "host.name:text, message:text");
        try (PipelinePlan plan = plan(full)) {
            assertThat(plan.declaredInput("app").orElseThrow().deletes()).isTrue();
        }
        assertThat(new RowflowConfig(full).inputs().get(0).fullBeforeImages()).isTrue();
        assertThat(new RowflowConfig(app("input.app.envelope", "debezium")).inputs().get(0).fullBeforeImages())
                .isFalse();

        refused(app("input.app.before.image", "full"), "Invalid value full for configuration input.app.before.image: "
                + "only change events have before images: set input.app.envelope=debezium, or leave "
                + "input.app.before.image out");
        // The time a field of the row: the before image has the time its index row was written at.
        try (PipelinePlan plan = plan(app("input.app.envelope", "debezium", "input.app.before.image", "full"))) {
            assertThat(plan.declaredInput("app").orElseThrow().deletes()).isTrue();
        }
        refused(app("input.app.envelope", "debezium", "input.app.before.image", "full", "input.app.time",
                "$source.ts_ms", "input.app.time.format", "epoch-ms", "input.app.key", "host.name:text",
                "input.app.index.host.key", "host.name:text, $source.ts_ms:rts"), "Invalid value full for configuration "
                + "input.app.before.image: the key of index host holds the time, so its row is found only with the "
                + "time the row was written at, and input.app.time is not a column of the row that a before image "
                + "would have: set input.app.before.image=partial (each change reads its row), take the time from a "
                + "column, or drop it from input.app.index.host.key");
        refused(app("input.app.envelope", "debezium", "input.app.before.image", "all"), "Invalid value all for "
                + "configuration input.app.before.image: String must be one of: partial, full");
    }

    @Test
    void shouldStopStartUpNamingTheRegistryKeyOfEachMistakeWithoutPrintingSecrets() throws Exception {
        Path schema = Files.createTempFile("event", ".avsc");
        Files.writeString(schema, "{\"type\":\"record\",\"name\":\"Event\",\"fields\":[{\"name\":\"host\",\"type\":\"string\"},"
                + "{\"name\":\"ts\",\"type\":\"long\"}]}");
        Map<String, String> props = app("input.app.format", "avro-registry", "input.app.registry.url",
                "http://registry-a:8081, http://registry-b:8081", "input.app.time", "ts", "input.app.time.format",
                "epoch-ms", "input.app.key", "ts:ts, host:text", "input.app.columns", "host=h", "input.app.indexes", null,
                "input.app.index.host.key", null);
        // Without a reader schema nothing is fetched at start-up, and no path can be checked.
        assertThat(plan(props).declaredInput("app").orElseThrow().format().name()).isEqualTo("avro-registry");

        props.put("input.app.registry.reader.schema", schema.toString());
        props.put("input.app.key", "ts:ts, hostname:text");
        refused(props, "Invalid value ts:ts, hostname:text for configuration input.app.key: data key 'ts:ts, hostname:text', "
                + "part hostname:text: Avro record Event has no field 'hostname' (it has host, ts)");
        props.put("input.app.key", "ts:ts, host:text");
        assertThat(plan(props).declaredInput("app").orElseThrow().format().name()).isEqualTo("avro-registry");

        refused(with(props, "input.app.registry.url", null), "Invalid value  for configuration input.app.registry.url: "
                + "format=avro-registry needs the registry's URL");
        refused(with(props, "input.app.registry.url", "registry:8081"), "Invalid value registry:8081 for configuration "
                + "input.app.registry.url: an http or https URL with a host is expected: registry:8081");
        refused(with(props, "input.app.registry.reader.subject", "events-value"), "Invalid value events-value for "
                + "configuration input.app.registry.reader.subject: give the reader schema once: as "
                + "input.app.registry.reader.schema or as a subject, not both");
        refused(with(props, "input.app.registry.basic.auth.user.info", "s3cret"), "Invalid value [hidden] for "
                + "configuration input.app.registry.basic.auth.user.info: user:password is expected (no ':' in it)");
        assertThatThrownBy(() -> plan(with(props, "input.app.registry.ssl.truststore.location", "/no/such.p12",
                "input.app.registry.ssl.truststore.password", "t0ps3cret")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Invalid value /no/such.p12 for configuration input.app.registry.ssl.truststore."
                        + "location: trust store /no/such.p12 cannot be read")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("t0ps3cret"));
    }

    @Test
    void shouldTakeTheProtobufAndJsonSchemaRegistryFormatsWithTheirOwnSchemasAndASubjectToCheckAgainst() throws Exception {
        for (String format : List.of("protobuf-registry", "json-schema-registry")) {
            Map<String, String> props = app("input.app.format", format, "input.app.registry.url", "http://registry:8081",
                    "input.app.time", "ts", "input.app.time.format", "epoch-ms", "input.app.key", "ts:ts, host:text",
                    "input.app.columns", "host=h", "input.app.indexes", null, "input.app.index.host.key", null);
            assertThat(plan(props).declaredInput("app").orElseThrow().format().name()).isEqualTo(format);

            refused(with(props, "input.app.registry.url", null), "Invalid value  for configuration "
                    + "input.app.registry.url: format=" + format + " needs the registry's URL");
            // A subject's latest schema checks the declaration at start: one the registry cannot give stops it.
            assertThatThrownBy(() -> plan(with(props, "input.app.registry.reader.subject", "app-value")))
                    .isInstanceOf(ConfigException.class).hasMessageStartingWith("Invalid value app-value for "
                            + "configuration input.app.registry.reader.subject: ");
            refused(with(props, "input.app.registry.reader.schema", "/etc/app.avsc"), "Invalid value /etc/app.avsc for "
                    + "configuration input.app.registry.reader.schema: a reader schema file is for "
                    + "format=avro-registry; format=" + format + " reads each record with its own schema "
                    + "(input.app.registry.reader.subject checks the declaration against a subject's latest schema at "
                    + "start-up)");
        }
    }

    private static Map<String, String> with(Map<String, String> props, String... overrides) {
        Map<String, String> copy = new HashMap<>(props);
        for (int i = 0; i < overrides.length; i += 2) {
            if (overrides[i + 1] == null) {
                copy.remove(overrides[i]);
            } else {
                copy.put(overrides[i], overrides[i + 1]);
            }
        }
        return copy;
    }

    private static String timeFormatError(String spec) {
        try {
            dev.rowflow.keying.mapping.TimeFormat.parse(spec, java.time.ZoneOffset.UTC);
            throw new AssertionError(spec + " parsed");
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    @Test
    void shouldLetInputsShareATopicThatTheyReadAlike() {
        Map<String, String> two = app("inputs", "app,errors", "input.app.where", "status < 500",
                "input.errors.topic", "app-logs", "input.errors.where", "status >= 500", "input.errors.time", "@timestamp",
                "input.errors.key", "host.name:text, @timestamp:rts", "input.errors.columns", "message");
        try (PipelinePlan plan = plan(two)) {
            assertThat(plan.declaredInput("app").orElseThrow().where().orElseThrow().text()).isEqualTo("status < 500");
            assertThat(plan.deadLetterTopics()).containsEntry("app-logs", "app-logs.dead-letter");
        }
        Map<String, String> otherDeadLetters = new HashMap<>(two);
        otherDeadLetters.put("input.errors.dead.letter.topic", "errors-dlq");
        refused(otherDeadLetters, "Invalid value errors-dlq for configuration input.errors.dead.letter.topic: input "
                + "errors reads topic app-logs with input app, which reads it once for both: they must agree on "
                + "dead.letter.topic (input.app.dead.letter.topic=app-logs.dead-letter)");
        Map<String, String> otherPolicy = new HashMap<>(two);
        otherPolicy.put("input.errors.unrouted", "dead-letter");
        refused(otherPolicy, "Invalid value dead-letter for configuration input.errors.unrouted: input errors reads "
                + "topic app-logs with input app, which reads it once for both: they must agree on unrouted "
                + "(input.app.unrouted=count)");
        Map<String, String> otherTombstones = new HashMap<>(two);
        otherTombstones.put("input.errors.tombstones", "ignore");
        refused(otherTombstones, "Invalid value ignore for configuration input.errors.tombstones: input errors reads "
                + "topic app-logs with input app, which reads it once for both: they must agree on tombstones "
                + "(input.app.tombstones=dead-letter)");
    }

    /** Orders joining customers: two inputs of change events, each alone on its topic. */
    private static Map<String, String> joined(String... overrides) {
        Map<String, String> props = new HashMap<>(Map.of("kafka.bootstrap.servers", "b:9092", "pipelines", "",
                "inputs", "customers, orders"));
        for (String input : List.of("customers", "orders")) {
            props.put("input." + input + ".topic", "shop." + input);
            props.put("input." + input + ".envelope", "debezium");
            props.put("input." + input + ".time", "$source.ts_ms");
            props.put("input." + input + ".time.format", "epoch-ms");
            props.put("input." + input + ".key", "id:long");
            props.put("input." + input + ".columns", "name=n");
        }
        props.put("input.orders.join.input", "customers");
        props.put("input.orders.join.on", "customer_id");
        props.put("input.orders.join.field", "id");
        for (int i = 0; i < overrides.length; i += 2) {
            if (overrides[i + 1] == null) {
                props.remove(overrides[i]);
            } else {
                props.put(overrides[i], overrides[i + 1]);
            }
        }
        return props;
    }

    @Test
    void shouldJoinInputsAndRefuseJoinsThatCannotWorkNamingTheKey() {
        PipelinePlan plan = plan(joined());
        assertThat(plan.config().inputs().get(1).joinAs()).isEqualTo("customers");
        assertThat(plan(joined("input.orders.join.as", "customer")).config().inputs().get(1).joinAs())
                .isEqualTo("customer");
        assertThat(plan.deadLetterTopicsWithInternal("shop")).containsEntry(
                "shop-orders-join-subscription-response-topic", "shop.orders.dead-letter");

        refused(joined("input.orders.join.input", "clients"), "Invalid value clients for configuration "
                + "input.orders.join.input: is no declared input (inputs: customers, orders)");
        refused(joined("input.orders.join.input", "orders"), "Invalid value orders for configuration "
                + "input.orders.join.input: an input cannot join its own rows");
        // Inputs of events join and are joined too (each event of the joined input its row as of then).
        assertThat(plan(joined("input.customers.envelope", "none", "input.customers.time", "t",
                "input.orders.envelope", "none", "input.orders.time", "t")).deadLetterTopicsWithInternal("shop"))
                .containsEntry("shop-orders-by-key-repartition", "shop.orders.dead-letter");
        refused(joined("input.orders.envelope", "none", "input.orders.time", "t", "input.orders.key",
                "customers.name:text, id:long"), "Invalid value customers.name:text, id:long for configuration "
                + "input.orders.key: an event keeps the key it was written under: the key of an input of events that "
                + "joins another (input.orders.join.input=customers) reads no field of the joined row (customers)");
        refused(joined("input.orders.envelope", "none", "input.orders.time", "t", "input.orders.columns",
                "name=n, $header.trace=t"), "Invalid value name=n, $header.trace=t for configuration "
                + "input.orders.columns: $header is not known when an event is joined again after a change of the "
                + "joined row (input.orders.join.input=customers): read the event's fields, $timestamp or $value");
        refused(joined("input.orders.join.on", null), "Invalid value  for configuration input.orders.join.on: is "
                + "needed with input.orders.join.input: the path of the foreign key in this input's row");
        refused(joined("input.orders.where", "$op != 'r'"), "Invalid value $op != 'r' for configuration "
                + "input.orders.where: an input that joins another (input.orders.join.input=customers) writes every "
                + "row of its table: leave input.orders.where out");
        refused(joined("input.orders.before.image", "full"), "Invalid value full for configuration "
                + "input.orders.before.image: an input that joins another reads each stored row (a change of the "
                + "joined row changes its rows without a before image): leave input.orders.before.image out");
        refused(joined("input.customers.join.input", "orders", "input.customers.join.on", "last_order",
                "input.customers.join.field", "id"), "Invalid value orders for configuration "
                + "input.customers.join.input: joins go round in a circle: customers -> orders -> customers");
        Map<String, String> shared = joined("inputs", "customers, orders, vip", "input.vip.topic", "shop.customers",
                "input.vip.envelope", "debezium", "input.vip.time", "$source.ts_ms", "input.vip.time.format",
                "epoch-ms", "input.vip.key", "id:long", "input.vip.where", "tier = 'gold'", "input.vip.table", "vip",
                "input.customers.where", "tier != 'gold'");
        refused(shared, "Invalid value customers for configuration input.orders.join.input: input customers shares "
                + "its topic with other inputs; the inputs of a join each read their topic alone");
    }
    @Test
    void shouldRunAJoinExactlyOnceAndRefuseAtLeastOnceNamingTheKey() {
        java.util.Properties streams = dev.rowflow.pipeline.runtime.StreamsProperties.of(plan(joined()));
        assertThat(streams).containsEntry("processing.guarantee", "exactly_once_v2")
                .containsEntry("commit.interval.ms", 1000L).doesNotContainKey("max.task.idle.ms");
        // The user's interval wins; exactly-once said out loud is accepted.
        assertThat(dev.rowflow.pipeline.runtime.StreamsProperties.of(plan(joined("kafka.commit.interval.ms", "5000",
                "kafka.processing.guarantee", "exactly_once_v2"))))
                .containsEntry("processing.guarantee", "exactly_once_v2").containsEntry("commit.interval.ms", "5000");
        // Without a join, Kafka Streams' defaults (at-least-once; the sinks' rows are idempotent).
        assertThat(dev.rowflow.pipeline.runtime.StreamsProperties.of(plan(app())))
                .doesNotContainKeys("processing.guarantee", "commit.interval.ms");

        refused(joined("kafka.processing.guarantee", "at_least_once"), "Invalid value at_least_once for configuration "
                + "kafka.processing.guarantee: input orders joins input customers: a join's state must be restored to "
                + "the last commit after a crash, as only exactly_once_v2 does (with at_least_once it comes back ahead "
                + "of the rows written, and the changes replayed no longer reach them); leave the key out or set "
                + "exactly_once_v2");
    }
}
