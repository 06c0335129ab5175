package dev.rowflow.pipeline.ingest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.rowflow.keying.TableRole;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.StreamsProperties;
import dev.rowflow.pipeline.topology.DeadLetterTopics;
import dev.rowflow.pipeline.topology.FlushBeforeCommit;
import dev.rowflow.pipeline.topology.SinkFactory;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The plan: every way in built once from the configuration, and the one topology they make. */
class PipelinePlanTest {
    private static final String SCHEMA = "{\"type\":\"record\",\"name\":\"Event\",\"fields\":["
            + "{\"name\":\"host\",\"type\":\"string\"},{\"name\":\"ts\",\"type\":\"long\"}]}";

    /** Building a topology opens no sink: stream threads do, when they start. */
    private static final SinkFactory NO_SINK = () -> {
        throw new AssertionError("a sink opened while the topology was built");
    };

    private final List<String> requests = new CopyOnWriteArrayList<>();
    private HttpServer registry;

    @AfterEach
    void stop() {
        if (registry != null) {
            registry.stop(0);
        }
    }

    /** A registry that answers every latest-version request with {@link #SCHEMA} and counts requests. */
    private String registry() throws Exception {
        registry = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        registry.createContext("/", exchange -> {
            requests.add(exchange.getRequestURI().getPath());
            byte[] body = new ObjectMapper().writeValueAsBytes(Map.of("subject", "x", "version", 1, "id", 7,
                    "schema", SCHEMA));
            try (exchange) {
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            }
        });
        registry.start();
        return "http://127.0.0.1:" + registry.getAddress().getPort();
    }

    private static Map<String, String> registryInput(Map<String, String> props, String name, String url, String subject) {
        props.put("input." + name + ".topic", name + "-topic");
        props.put("input." + name + ".format", "avro-registry");
        props.put("input." + name + ".registry.url", url);
        props.put("input." + name + ".registry.reader.subject", subject);
        props.put("input." + name + ".time", "ts");
        props.put("input." + name + ".time.format", "epoch-ms");
        props.put("input." + name + ".key", "bucket(4) | ts:ts, host:text");
        props.put("input." + name + ".columns", "host=h");
        return props;
    }

    @Test
    void shouldFetchEachReaderSubjectOnceAtStart() throws Exception {
        String url = registry();
        Map<String, String> props = new HashMap<>(Map.of("kafka.bootstrap.servers", "unused:9092",
                "pipelines", "logs,orders", "inputs", "a,b,c"));
        registryInput(props, "a", url, "events-value");
        registryInput(props, "b", url, "events-value");
        registryInput(props, "c", url, "payments-value");

        try (PipelinePlan plan = PipelinePlan.build(new RowflowConfig(props), null)) {
            // Everything start-up builds from the plan: tables, Streams properties, the topology.
            plan.tables();
            StreamsProperties.of(plan);
            plan.topology(new Wiring(NO_SINK, new FlushBeforeCommit(), Map.of("customers", 3)));

            assertThat(requests).containsExactlyInAnyOrder("/subjects/events-value/versions/latest",
                    "/subjects/events-value/versions/latest", "/subjects/payments-value/versions/latest");
            assertThat(requests.stream().filter(path -> path.contains("events-value")).count())
                    .as("one fetch per input's subject, none when the topology and properties are made").isEqualTo(2);
            assertThat(plan.ingests()).extracting(Ingest::name).containsExactly("logs", "a", "b", "c", "customers",
                    "orders");
        }
    }

    @Test
    void shouldRunOnlyTheDeclaredInputsUnlessTheBuiltInPipelinesAreNamed() {
        Map<String, String> props = new HashMap<>(Map.of("kafka.bootstrap.servers", "unused:9092",
                "inputs", "app", "input.app.topic", "app-logs", "input.app.time", "@timestamp",
                "input.app.key", "bucket(8) | @timestamp:ts, host.name:text", "input.app.columns", "host.name=h"));
        try (PipelinePlan plan = PipelinePlan.build(new RowflowConfig(props), null)) {
            assertThat(plan.ingests()).extracting(Ingest::name).containsExactly("app");
        }
        props.put("pipelines", "logs");
        try (PipelinePlan plan = PipelinePlan.build(new RowflowConfig(props), null)) {
            assertThat(plan.ingests()).extracting(Ingest::name).containsExactly("logs", "app");
        }
        // Neither pipelines nor inputs: the log pipeline, as before there were inputs.
        try (PipelinePlan plan = PipelinePlan.build(new RowflowConfig(Map.of("kafka.bootstrap.servers", "b:9092")), null)) {
            assertThat(plan.ingests()).extracting(Ingest::name).containsExactly("logs");
        }
        assertThatThrownBy(() -> PipelinePlan.build(new RowflowConfig(Map.of("kafka.bootstrap.servers", "b:9092",
                "pipelines", "")), null)).isInstanceOf(ConfigException.class).hasMessage("Invalid value  for "
                + "configuration pipelines: nothing to ingest: it names no built-in pipeline (logs, orders) and inputs "
                + "declares no input");
        assertThatThrownBy(() -> new RowflowConfig(Map.of("kafka.bootstrap.servers", "b:9092", "pipelines", "log")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("no built-in pipeline 'log' (there are logs, "
                        + "orders)");
    }

    @Test
    void shouldNotHoldRecordsBackForOtherPartitionsUnlessAnIngestJoins() {
        Map<String, String> props = new HashMap<>(Map.of("kafka.bootstrap.servers", "unused:9092",
                "pipelines", "logs", "inputs", "app", "input.app.topic", "app-logs", "input.app.time", "@timestamp",
                "input.app.key", "bucket(8) | @timestamp:ts, host.name:text", "input.app.columns", "host.name=h"));
        try (PipelinePlan plan = PipelinePlan.build(new RowflowConfig(props), null)) {
            assertThat(plan.hasJoins()).isFalse();
            assertThat(StreamsProperties.of(plan)).containsEntry("max.task.idle.ms", -1L);
        }
        props.put("kafka.max.task.idle.ms", "250");
        try (PipelinePlan plan = PipelinePlan.build(new RowflowConfig(props), null)) {
            assertThat(StreamsProperties.of(plan)).containsEntry("max.task.idle.ms", "250");
        }
        // The orders pipeline joins the customers: Kafka Streams' own default, and exactly-once, as
        // for a declared join (its state restored to the last commit after a crash).
        props.remove("kafka.max.task.idle.ms");
        props.put("pipelines", "logs,orders");
        try (PipelinePlan plan = PipelinePlan.build(new RowflowConfig(props), null)) {
            assertThat(plan.hasJoins()).isTrue();
            assertThat(StreamsProperties.of(plan)).doesNotContainKey("max.task.idle.ms")
                    .containsEntry("processing.guarantee", "exactly_once_v2");
        }
        props.put("kafka.processing.guarantee", "at_least_once");
        assertThatThrownBy(() -> PipelinePlan.build(new RowflowConfig(props), null))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Invalid value at_least_once for configuration kafka.processing.guarantee: "
                        + "input orders joins input customers: a join's state must be restored to the last commit");
    }

    @Test
    void shouldBuildOneTopologyOfEveryIngestWithEachSourceAndItsDeadLetterTopic() {
        Map<String, String> props = new HashMap<>(Map.of("kafka.bootstrap.servers", "unused:9092",
                "pipelines", "logs,orders", "inputs", "app", "application.id", "billing",
                "input.app.topic", "app-logs", "input.app.time", "@timestamp",
                "input.app.key", "bucket(8) | @timestamp:ts, host.name:text", "input.app.columns", "host.name=h"));
        try (PipelinePlan plan = PipelinePlan.build(new RowflowConfig(props), null)) {
            TopologyDescription topology = plan.topology(new Wiring(NO_SINK,
                    new FlushBeforeCommit(), Map.of("customers", 6))).describe();
            Set<String> sources = new TreeSet<>();
            topology.subtopologies().forEach(sub -> sub.nodes().stream()
                    .filter(TopologyDescription.Source.class::isInstance)
                    .forEach(node -> sources.addAll(((TopologyDescription.Source) node).topicSet())));
            assertThat(sources).containsExactly("app-logs", "customers", "customers-rows-table-repartition", "logs",
                    "orders", "orders-by-key-repartition", "orders-join-subscription-registration-topic",
                    "orders-join-subscription-response-topic");

            assertThat(plan.deadLetterTopics()).containsExactly(Map.entry("logs", "logs.dead-letter"),
                    Map.entry("app-logs", "app-logs.dead-letter"), Map.entry("customers", "customers.dead-letter"),
                    Map.entry("orders", "orders.dead-letter"));
            assertThat(StreamsProperties.of(plan).getProperty(DeadLetterTopics.CONFIG))
                    .contains("billing-orders-by-key-repartition").contains("orders.dead-letter");
            assertThat(plan.table(TableRole.of("app.data")).layoutKey()).isEqualTo("input.app.key");
            assertThat(plan.table(TableRole.LOG_INDEX).layoutKey()).isEqualTo(RowflowConfig.LOG_INDEX_LAYOUT_CONFIG);
            assertThat(plan.table(TableRole.ORDER).tableKey()).isEqualTo(RowflowConfig.ORDER_TABLE_CONFIG);
        }
    }

    @Test
    void shouldNameTheLogKeyOfARowsAsColumnsMistake() {
        assertThatThrownBy(() -> PipelinePlan.build(new RowflowConfig(Map.of("kafka.bootstrap.servers", "b:9092",
                RowflowConfig.LOG_TIME_BUCKET_SECONDS_CONFIG, "300")), null))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value 300 for configuration keying.log.time.bucket.seconds: rows as columns keep no "
                        + "index: the rows are keyed by the data layout already; leave the indexes out");
    }

    @Test
    void shouldNameTheKeyOfAMappingTheRegistrysReaderSchemaRefuses() throws Exception {
        String url = registry();
        Map<String, String> props = new HashMap<>(Map.of("kafka.bootstrap.servers", "unused:9092",
                "pipelines", "", "inputs", "a,b"));
        registryInput(props, "a", url, "events-value");
        registryInput(props, "b", url, "events-value");
        props.put("input.b.key", "ts:ts, hostname:text");
        assertThatThrownBy(() -> PipelinePlan.build(new RowflowConfig(props), null))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("input.b.key").hasMessageContaining("no field 'hostname'");
    }
}
