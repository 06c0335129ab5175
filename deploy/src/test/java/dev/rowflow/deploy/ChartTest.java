package dev.rowflow.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1NetworkPolicy;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1VolumeMount;
import io.kubernetes.client.openapi.models.V2HorizontalPodAutoscaler;
import dev.rowflow.pipeline.config.InputConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Helm chart, rendered with helm-java for the default values and each {@code ci/*-values.yaml}:
 * every object parsed strictly by client-java's model classes (unknown or missing required fields
 * fail), the security and operating settings asserted, the rendered configuration accepted by
 * rowflow's own configuration, bad values refused by the values schema.
 */
class ChartTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Path> valuesFiles() throws IOException {
        try (Stream<Path> files = Files.list(Chart.CI_VALUES)) {
            return files.filter(f -> f.getFileName().toString().endsWith("-values.yaml")).sorted().toList().stream();
        }
    }

    /** A rendered release: each object parsed into its model, by kind and name. */
    record Rendered(Map<String, Object> objects, List<JsonNode> documents) {
        <T> T get(String kind, Class<T> type) {
            return objects.entrySet().stream().filter(e -> e.getKey().startsWith(kind + "/"))
                    .map(e -> type.cast(e.getValue())).findFirst()
                    .orElseThrow(() -> new AssertionError("no " + kind + " rendered; have " + objects.keySet()));
        }

        boolean has(String kind) {
            return objects.keySet().stream().anyMatch(k -> k.startsWith(kind + "/"));
        }

        JsonNode document(String kind) {
            return documents.stream().filter(d -> d.path("kind").asText().equals(kind)).findFirst()
                    .orElseThrow(() -> new AssertionError("no " + kind + " rendered"));
        }
    }

    static Rendered render(Path valuesFile, Map<String, Object> set) throws IOException {
        List<JsonNode> docs = Chart.documents(Chart.template(valuesFile, set));
        Map<String, Object> objects = new HashMap<>();
        for (JsonNode doc : docs) {
            String kind = doc.path("kind").asText();
            String json = doc.toString();
            Object model = switch (kind) {
                case "Deployment" -> V1Deployment.fromJson(json);
                case "StatefulSet" -> V1StatefulSet.fromJson(json);
                case "Service" -> V1Service.fromJson(json);
                case "ConfigMap" -> V1ConfigMap.fromJson(json);
                case "ServiceAccount" -> V1ServiceAccount.fromJson(json);
                case "PodDisruptionBudget" -> V1PodDisruptionBudget.fromJson(json);
                case "HorizontalPodAutoscaler" -> V2HorizontalPodAutoscaler.fromJson(json);
                case "NetworkPolicy" -> V1NetworkPolicy.fromJson(json);
                case "Pod" -> V1Pod.fromJson(json);
                // Custom resources have no client-java model: checked field by field below.
                case "ServiceMonitor", "PrometheusRule", "ScaledObject", "TriggerAuthentication" -> doc;
                default -> throw new AssertionError("rendered a " + kind + " the test has no model for: " + json);
            };
            String name = doc.path("metadata").path("name").asText();
            assertThat(name).as("name of a %s", kind).isNotEmpty().hasSizeLessThanOrEqualTo(63);
            assertThat(objects.put(kind + "/" + name, model)).as("%s/%s rendered twice", kind, name).isNull();
        }
        return new Rendered(objects, docs);
    }


    @Test
    void shouldLintStrictly() {
        LintResult lint = new Helm(Chart.DIR).lint().strict().call();

        assertThat(lint.isFailed()).as("helm lint --strict: %s", lint.getMessages()).isFalse();
    }

    @ParameterizedTest
    @MethodSource("valuesFiles")
    void shouldRenderObjectsTheKubernetesModelsAccept(Path valuesFile) throws Exception {
        Rendered release = render(valuesFile, Map.of());

        V1Deployment deployment = release.get("Deployment", V1Deployment.class);
        V1PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        V1Container rowflow = pod.getContainers().get(0);
        // Runs as the image's non-root user, read-only, nothing it does not need.
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(10001L);
        assertThat(rowflow.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(rowflow.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(rowflow.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(rowflow.getSecurityContext().getCapabilities().getAdd()).isNullOrEmpty();
        // Probes on the health endpoints.
        assertThat(rowflow.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(rowflow.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(rowflow.getResources().getRequests()).containsKeys("cpu", "memory");
        assertThat(rowflow.getResources().getLimits()).containsKey("memory");
        // Writable state and /tmp on volumes, the configuration read-only.
        assertThat(rowflow.getVolumeMounts()).extracting(V1VolumeMount::getMountPath)
                .contains("/var/lib/rowflow/state", "/tmp", "/etc/rowflow");

        Properties properties = properties(release);
        // The rendered configuration is one rowflow accepts: unknown keys and bad values would fail here.
        Map<String, String> config = new HashMap<>();
        properties.stringPropertyNames().forEach(k -> config.put(k, properties.getProperty(k)));
        // Not here: a registry's trust store (a file of the pod) and reader subject (asked of the
        // registry at start-up); shouldRenderARegistryInputWithItsCredentialsFromSecretsOnly covers them.
        config.keySet().removeIf(k -> k.endsWith(".registry.ssl.truststore.location")
                || k.endsWith(".registry.reader.subject"));
        PipelinePlan.build(new RowflowConfig(config), null).close();
        assertThat(properties.getProperty("kafka.state.dir")).isEqualTo("/var/lib/rowflow/state");
        assertThat(properties.getProperty("metrics.port")).isEqualTo("8080");
        // Kubernetes waits longer than rowflow's own shutdown timeout before it kills the pod.
        long shutdownMillis = Long.parseLong(properties.getProperty("shutdown.timeout.ms"));
        assertThat(pod.getTerminationGracePeriodSeconds() * 1000).isGreaterThan(shutdownMillis);
        // No secret in the ConfigMap (a Kerberos JAAS line holds a keytab's path and a principal, no secret).
        assertThat(properties.stringPropertyNames()).noneMatch(k -> k.contains("password") || k.contains("jaas")
                && !properties.getProperty(k).startsWith("com.sun.security.auth.module.Krb5LoginModule required "));

        V1Service service = release.get("Service", V1Service.class);
        assertThat(service.getSpec().getPorts()).anySatisfy(p -> assertThat(p.getPort()).isEqualTo(8080));
        // Not-ready pods stay scrape targets, so the not-ready alert can see rowflow_ready == 0.
        assertThat(service.getSpec().getPublishNotReadyAddresses()).isTrue();
        if (release.has("Pod")) {
            V1Pod test = release.get("Pod", V1Pod.class);
            assertThat(test.getMetadata().getAnnotations()).containsEntry("helm.sh/hook", "test");
            assertThat(test.getSpec().getContainers().get(0).getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        }
    }

    @Test
    void shouldMountSecretsAndPassPasswordsOnlyThroughSecretReferences() throws Exception {
        Rendered release = render(Chart.CI_VALUES.resolve("secure-values.yaml"), Map.of());
        V1PodSpec pod = release.get("Deployment", V1Deployment.class).getSpec().getTemplate().getSpec();
        V1Container rowflow = pod.getContainers().get(0);
        Properties properties = properties(release);

        assertThat(properties.getProperty("kafka.security.protocol")).isEqualTo("SASL_SSL");
        assertThat(properties.getProperty("kafka.ssl.truststore.location")).startsWith("/etc/rowflow/kafka-tls/");
        assertThat(properties.getProperty("hbase.site.path")).startsWith("/etc/rowflow/hbase/");
        assertThat(properties.getProperty("hbase.security.authentication")).isEqualTo("kerberos");
        assertThat(properties.getProperty("hbase.client.keytab.file")).startsWith("/etc/rowflow/hbase-keytab/");
        Map<String, V1EnvVar> env = new HashMap<>();
        rowflow.getEnv().forEach(e -> env.put(e.getName(), e));
        assertThat(env.get("ROWFLOW_CONFIG_KAFKA_SSL_TRUSTSTORE_PASSWORD").getValueFrom().getSecretKeyRef()).isNotNull();
        assertThat(env.get("ROWFLOW_CONFIG_KAFKA_SASL_JAAS_CONFIG").getValue())
                .contains("ScramLoginModule").contains("$(KAFKA_SASL_PASSWORD)");
        assertThat(env.get("KAFKA_SASL_PASSWORD").getValueFrom().getSecretKeyRef()).isNotNull();
        assertThat(rowflow.getVolumeMounts()).allSatisfy(m -> {
            if (!m.getMountPath().equals("/var/lib/rowflow/state") && !m.getMountPath().equals("/tmp")) {
                assertThat(m.getReadOnly()).as("mount %s read-only", m.getMountPath()).isTrue();
            }
        });
        assertThat(pod.getVolumes()).anySatisfy(v -> assertThat(v.getSecret()).isNotNull());
        assertThat(release.has("NetworkPolicy")).isTrue();
    }

    @Test
    void shouldLogInToKafkaWithGssapiFromTheKeytabWithoutASecretInTheJaasLine() throws Exception {
        Rendered release = render(Chart.CI_VALUES.resolve("kerberos-values.yaml"), Map.of());
        V1PodSpec pod = release.get("Deployment", V1Deployment.class).getSpec().getTemplate().getSpec();
        V1Container rowflow = pod.getContainers().get(0);
        Properties properties = properties(release);

        assertThat(properties.getProperty("kafka.security.protocol")).isEqualTo("SASL_PLAINTEXT");
        assertThat(properties.getProperty("kafka.sasl.mechanism")).isEqualTo("GSSAPI");
        assertThat(properties.getProperty("kafka.sasl.kerberos.service.name")).isEqualTo("kafka");
        // HBase's keytab serves Kafka too when kafka.sasl.kerberos.secretName is empty.
        assertThat(properties.getProperty("kafka.sasl.jaas.config")).isEqualTo("com.sun.security.auth.module."
                + "Krb5LoginModule required useKeyTab=true storeKey=true keyTab=\"/etc/rowflow/hbase-keytab/"
                + "rowflow.keytab\" principal=\"rowflow@EXAMPLE.COM\";");
        assertThat(properties.getProperty("hbase.client.keytab.file")).isEqualTo("/etc/rowflow/hbase-keytab/rowflow.keytab");
        Map<String, V1EnvVar> env = new HashMap<>();
        rowflow.getEnv().forEach(e -> env.put(e.getName(), e));
        assertThat(env).doesNotContainKeys("KAFKA_SASL_USERNAME", "KAFKA_SASL_PASSWORD",
                "ROWFLOW_CONFIG_KAFKA_SASL_JAAS_CONFIG");
        assertThat(env.get("JAVA_TOOL_OPTIONS").getValue()).contains("-Djava.security.krb5.conf=/etc/rowflow/krb5/krb5.conf");
        // KerberosPipelineIT runs exactly this configuration against a real KDC, Kerberized HBase and
        // a GSSAPI broker: a change of the rendering must be made there too.
        Properties tested = new Properties();
        try (java.io.Reader in = Files.newBufferedReader(Path.of("..", "pipeline", "src", "test", "resources", "kerberos",
                "chart-rowflow.properties"))) {
            tested.load(in);
        }
        assertThat(properties).isEqualTo(tested);

        // A keytab of its own for Kafka, and Kafka alone on Kerberos: still the krb5.conf.
        Rendered own = render(Chart.CI_VALUES.resolve("kerberos-values.yaml"), Map.of(
                "kafka.sasl.kerberos.secretName", "rowflow-kafka-keytab", "hbase.kerberos.enabled", "false"));
        assertThat(properties(own).getProperty("kafka.sasl.jaas.config"))
                .contains("keyTab=\"/etc/rowflow/kafka-keytab/rowflow.keytab\"");
        V1PodSpec ownPod = own.get("Deployment", V1Deployment.class).getSpec().getTemplate().getSpec();
        assertThat(ownPod.getVolumes()).extracting(v -> v.getSecret() == null ? null : v.getSecret().getSecretName())
                .contains("rowflow-kafka-keytab");
        assertThat(ownPod.getContainers().get(0).getVolumeMounts()).extracting(m -> m.getMountPath())
                .contains("/etc/rowflow/kafka-keytab", "/etc/rowflow/krb5").doesNotContain("/etc/rowflow/hbase-keytab");
        assertThatThrownBy(() -> render(Chart.CI_VALUES.resolve("kerberos-values.yaml"),
                Map.of("hbase.kerberos.enabled", "false"))).hasMessageContaining(
                "kafka.sasl.kerberos.secretName is required with kafka.sasl.mechanism GSSAPI unless hbase.kerberos.enabled");
        assertThatThrownBy(() -> render(Chart.CI_VALUES.resolve("kerberos-values.yaml"),
                Map.of("kafka.sasl.kerberos.principal", ""))).hasMessageContaining(
                "kafka.sasl.kerberos.principal is required with kafka.sasl.mechanism GSSAPI");
    }

    @Test
    void shouldConfigureBigtableWithItsKeyFileAndNoHBaseKeys() throws Exception {
        Rendered release = render(Chart.CI_VALUES.resolve("bigtable-values.yaml"), Map.of());
        V1Container rowflow = release.get("Deployment", V1Deployment.class).getSpec().getTemplate().getSpec()
                .getContainers().get(0);
        Properties properties = properties(release);

        assertThat(properties.getProperty("store")).isEqualTo("bigtable");
        assertThat(properties.getProperty("bigtable.project.id")).isEqualTo("my-project");
        assertThat(properties.getProperty("bigtable.instance.id")).isEqualTo("rowflow-prod");
        assertThat(properties.stringPropertyNames()).noneMatch(k -> k.startsWith("hbase.") || k.startsWith("zookeeper."));
        Map<String, V1EnvVar> env = new HashMap<>();
        rowflow.getEnv().forEach(e -> env.put(e.getName(), e));
        assertThat(env.get("GOOGLE_APPLICATION_CREDENTIALS").getValue()).isEqualTo("/etc/rowflow/bigtable/key.json");
        assertThat(rowflow.getVolumeMounts()).anySatisfy(m -> {
            assertThat(m.getMountPath()).isEqualTo("/etc/rowflow/bigtable");
            assertThat(m.getReadOnly()).isTrue();
        });

        assertThatThrownBy(() -> render(Chart.CI_VALUES.resolve("bigtable-values.yaml"),
                Map.of("bigtable.instanceId", "")))
                .hasMessageContaining("bigtable.instanceId is required when store is bigtable");
        assertThatThrownBy(() -> render(Chart.CI_VALUES.resolve("default-values.yaml"), Map.of("store", "cassandra"))).hasMessageContaining("store");
        Properties hbase = properties(render(Chart.CI_VALUES.resolve("default-values.yaml"), Map.of()));
        assertThat(hbase.getProperty("store")).isEqualTo("hbase");
        assertThat(hbase.getProperty("hbase.zookeeper.quorum")).isNotEmpty();
    }

    @Test
    void shouldRenderTheRulesAndDashboardFromTheirOneCopy() throws Exception {
        Rendered release = render(Chart.CI_VALUES.resolve("monitoring-values.yaml"), Map.of());

        JsonNode rules = new ObjectMapper(new YAMLFactory()).readTree(Chart.DIR.resolve("files/prometheus-rules.yaml").toFile());
        assertThat(release.document("PrometheusRule").path("spec").path("groups")).isEqualTo(rules.path("groups"));
        assertThat(release.document("ServiceMonitor").path("spec").path("endpoints").get(0).path("path").asText())
                .isEqualTo("/metrics");
        JsonNode dashboard = JSON.readTree(Chart.DIR.resolve("files/grafana-dashboard.json").toFile());
        V1ConfigMap dashboards = release.objects().entrySet().stream()
                .filter(e -> e.getValue() instanceof V1ConfigMap c && c.getData() != null
                        && c.getData().keySet().stream().anyMatch(k -> k.endsWith(".json")))
                .map(e -> (V1ConfigMap) e.getValue()).findFirst().orElseThrow();
        assertThat(dashboards.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
        assertThat(JSON.readTree(dashboards.getData().values().iterator().next())).isEqualTo(dashboard);
        JsonNode scaledObject = release.document("ScaledObject");
        assertThat(scaledObject.path("spec").path("triggers").get(0).path("type").asText()).isEqualTo("prometheus");
        // The lag of the Deployment's pods (<name>-<pod-template-hash>-<suffix>), not the test pod's.
        String query = scaledObject.path("spec").path("triggers").get(0).path("metadata").path("query").asText();
        java.util.regex.Matcher pods = java.util.regex.Pattern.compile("pod=~\"([^\"]+)\"").matcher(query);
        assertThat(pods.find()).as(query).isTrue();
        String deployment = release.get("Deployment", V1Deployment.class).getMetadata().getName();
        assertThat(deployment + "-7d9f8c6b5-x2x4q").matches(pods.group(1));
        assertThat(deployment + "-test-connection").doesNotMatch(pods.group(1));
        assertThat(query).startsWith("sum(kafka_consumer_fetch_manager_records_lag_max{");
        assertThat(release.get("Deployment", V1Deployment.class).getSpec().getReplicas())
                .as("replicas left to the autoscaler").isNull();
    }

    @Test
    void shouldLeaveTheGroupAtOnceFromADeploymentByDefault() throws IOException {
        Rendered release = render(null, Map.of());

        V1Container rowflow = release.get("Deployment", V1Deployment.class).getSpec().getTemplate().getSpec()
                .getContainers().get(0);
        assertThat(release.has("StatefulSet")).isFalse();
        assertThat(rowflow.getEnv()).extracting(V1EnvVar::getName).doesNotContain("ROWFLOW_CONFIG_KAFKA_GROUP_INSTANCE_ID");
        Properties properties = properties(release);
        assertThat(properties.getProperty("kafka.num.standby.replicas")).isEqualTo("1");
        assertThat(properties.getProperty("kafka.session.timeout.ms")).as("Kafka's default").isNull();
    }

    @Test
    void shouldSizeTheYoungGenerationForTheRowsInFlightExceptUnderG1() throws IOException {
        assertThat(javaToolOptions(Map.of())).isEqualTo(
                "-XX:MaxRAMPercentage=50.0 -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError -Xmn64m");
        assertThat(javaToolOptions(Map.of("jvm.gc", "parallel", "jvm.youngGenerationMiB", 128)))
                .isEqualTo("-XX:MaxRAMPercentage=50.0 -XX:+UseParallelGC -XX:+ExitOnOutOfMemoryError -Xmn128m");
        assertThat(javaToolOptions(Map.of("jvm.youngGenerationMiB", 0))).doesNotContain("-Xmn");
        assertThat(javaToolOptions(Map.of("jvm.gc", "g1"))).as("G1 sizes its young generation by its pause goal")
                .isEqualTo("-XX:MaxRAMPercentage=50.0 -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError");
    }

    private static String javaToolOptions(Map<String, Object> values) throws IOException {
        return render(null, values).get("Deployment", V1Deployment.class).getSpec().getTemplate().getSpec()
                .getContainers().get(0).getEnv().stream().filter(e -> e.getName().equals("JAVA_TOOL_OPTIONS"))
                .findFirst().orElseThrow().getValue();
    }

    @Test
    void shouldRunStaticMembersUnderTheirPodNamesFromAStatefulSet() throws IOException {
        Rendered release = render(null, Map.of("groupMembership.static", true,
                "groupMembership.sessionTimeoutSeconds", 180, "standbyReplicas", 2, "autoscaling.enabled", true,
                "autoscaling.keda.trigger", "prometheus"));

        assertThat(release.has("Deployment")).isFalse();
        V1StatefulSet statefulSet = release.get("StatefulSet", V1StatefulSet.class);
        assertThat(statefulSet.getSpec().getPodManagementPolicy()).isEqualTo("Parallel");
        assertThat(statefulSet.getSpec().getServiceName()).isEqualTo(release.get("Service", V1Service.class)
                .getMetadata().getName());
        V1PodSpec pod = statefulSet.getSpec().getTemplate().getSpec();
        V1EnvVar instanceId = pod.getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals("ROWFLOW_CONFIG_KAFKA_GROUP_INSTANCE_ID")).findFirst().orElseThrow();
        assertThat(instanceId.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
        Properties properties = properties(release);
        assertThat(properties.getProperty("kafka.session.timeout.ms")).isEqualTo("180000");
        assertThat(properties.getProperty("kafka.num.standby.replicas")).isEqualTo("2");
        assertThat(pod.getTerminationGracePeriodSeconds() * 1000)
                .isGreaterThan(Long.parseLong(properties.getProperty("shutdown.timeout.ms")));
        // The autoscaler scales what is rendered.
        JsonNode scaledObject = release.document("ScaledObject").path("spec");
        assertThat(scaledObject.path("scaleTargetRef").path("kind").asText()).isEqualTo("StatefulSet");
        // Its pods are <name>-<ordinal>.
        assertThat(scaledObject.path("triggers").get(0).path("metadata").path("query").asText())
                .contains("pod=~\"" + statefulSet.getMetadata().getName() + "-[0-9]+\"");
        // The chart sets the session timeout from its value; config.extra may not fight it.
        assertThatThrownBy(() -> Chart.template(null, Map.of("groupMembership.static", true,
                "config.extra.kafka\\.session\\.timeout\\.ms", "5000")))
                .hasMessageContaining("config.extra.kafka.session.timeout.ms is set by the chart");
        assertThatThrownBy(() -> Chart.template(null, Map.of("groupMembership.sessionTimeoutSeconds", 3)))
                .hasMessageContaining("sessionTimeoutSeconds");
    }

    @Test
    void shouldScaleOnLagWithAnHpaWhenAskedTo() throws IOException {
        Rendered release = render(Chart.CI_VALUES.resolve("hpa-values.yaml"), Map.of());

        V2HorizontalPodAutoscaler hpa = release.get("HorizontalPodAutoscaler", V2HorizontalPodAutoscaler.class);
        assertThat(hpa.getSpec().getMetrics().get(0).getExternal().getTarget().getType()).isEqualTo("AverageValue");
        assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo("Deployment");
    }

    @Test
    void shouldRefuseValuesTheSchemaDoesNotAllow() {
        assertThatThrownBy(() -> Chart.template(null, Map.of("replicaCount", 0)))
                .hasMessageContaining("replicaCount");
        assertThatThrownBy(() -> Chart.template(null, Map.of("replicaCuont", 2)))
                .hasMessageContaining("replicaCuont");
        assertThatThrownBy(() -> Chart.template(null, Map.of("autoscaling.kind", "foo")))
                .hasMessageContaining("kind");
        assertThatThrownBy(() -> Chart.template(null, Map.of("config.orders.design", "star")))
                .hasMessageContaining("design");
    }

    @Test
    void shouldRenderDeclaredInputsAsTheirInputKeys() throws Exception {
        Rendered release = render(Chart.CI_VALUES.resolve("json-inputs-values.yaml"), Map.of());
        String file = release.get("ConfigMap", V1ConfigMap.class).getData().get("rowflow.properties");
        Properties properties = properties(release);

        // The layouts' |, :, ,, @ and spaces go into the file as they are.
        assertThat(file.lines()).contains(
                "pipelines=",
                "inputs=filebeat,vector,vectorerrors,accounts,logins",
                "input.filebeat.key=bucket(16) | @timestamp:ts, host.name:text, log.file.path:md5, log.offset:long",
                "input.filebeat.time=@timestamp",
                "input.filebeat.index.host.key=host.name:text, event.dataset | 'generic':text, @timestamp:rts, log.file.path:md5, log.offset:long",
                "input.vectorerrors.where=level = 'error' or status >= 500",
                "input.filebeat.table.ttl.seconds=2592000",
                "input.vector.time.missing=record-timestamp");
        // Exactly the keys the values set, named as InputConfig defines them.
        Map<String, String> inputKeys = new LinkedHashMap<>();
        properties.stringPropertyNames().stream().filter(k -> k.startsWith(InputConfig.PREFIX)).sorted()
                .forEach(k -> inputKeys.put(k, properties.getProperty(k)));
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("input.accounts.before.image", "full");
        expected.put("input.accounts.columns", "name=n, email=e, id=i");
        expected.put("input.accounts.delete.when", "status = 'closed'");
        expected.put("input.accounts.envelope", "debezium");
        expected.put("input.accounts.index.email.key", "email:text, id:long");
        expected.put("input.accounts.index.email.when.missing", "skip");
        expected.put("input.accounts.indexes", "email");
        expected.put("input.accounts.key", "id | $key.id:long");
        expected.put("input.accounts.time", "updated");
        expected.put("input.accounts.time.format", "epoch-ms");
        expected.put("input.accounts.tombstones", "delete");
        expected.put("input.accounts.topic", "accounts");
        expected.put("input.filebeat.columns", "message=m, host.name=h, event.dataset | 'generic'=e, log.level=l, log.file.path=f, log.offset=o, *=x.*");
        expected.put("input.filebeat.format", "json");
        expected.put("input.filebeat.index.host.key", "host.name:text, event.dataset | 'generic':text, @timestamp:rts, log.file.path:md5, log.offset:long");
        expected.put("input.filebeat.index.host.table.ttl.seconds", "2592000");
        expected.put("input.filebeat.indexes", "host");
        expected.put("input.filebeat.key", "bucket(16) | @timestamp:ts, host.name:text, log.file.path:md5, log.offset:long");
        expected.put("input.filebeat.rows", "tags");
        expected.put("input.filebeat.rows.tags.columns", "host.name=h, message=m");
        expected.put("input.filebeat.rows.tags.each", "tags as tag");
        expected.put("input.filebeat.rows.tags.key", "tag:text, @timestamp:rts, log.file.path:md5, log.offset:long");
        expected.put("input.filebeat.rows.tags.table", "filebeat_tags");
        expected.put("input.filebeat.summary.key", "host.name:text, event.dataset | 'generic':text, @timestamp:ts");
        expected.put("input.filebeat.summary.period.seconds", "3600");
        expected.put("input.filebeat.table", "filebeat");
        expected.put("input.filebeat.table.compression", "GZ");
        expected.put("input.filebeat.table.ttl.seconds", "2592000");
        expected.put("input.filebeat.time", "@timestamp");
        expected.put("input.filebeat.time.format", "iso8601");
        expected.put("input.filebeat.topic", "filebeat");
        expected.put("input.logins.columns", "account.name=an, at=t");
        expected.put("input.logins.envelope", "debezium");
        expected.put("input.logins.join.as", "account");
        expected.put("input.logins.join.field", "id");
        expected.put("input.logins.join.input", "accounts");
        expected.put("input.logins.join.on", "account_id");
        expected.put("input.logins.key", "account_id:long, id:long");
        expected.put("input.logins.time", "$source.ts_ms");
        expected.put("input.logins.time.format", "epoch-ms");
        expected.put("input.logins.topic", "logins");
        expected.put("input.vector.columns", "message=m, host=h, source_type=st, file=f, *=x.*");
        expected.put("input.vector.dead.letter.topic", "vector-logs.dead-letter");
        expected.put("input.vector.format", "json");
        expected.put("input.vector.key", "bucket(16) | timestamp:ts, host:text, message:md5");
        expected.put("input.vector.max.cell.bytes", "524288");
        expected.put("input.vector.table.bloom", "ROWCOL");
        expected.put("input.vector.time", "timestamp");
        expected.put("input.vector.time.format", "iso8601");
        expected.put("input.vector.time.missing", "record-timestamp");
        expected.put("input.vector.topic", "vector-logs");
        expected.put("input.vectorerrors.columns", "message=m, level=l, status:long=s");
        expected.put("input.vectorerrors.dead.letter.topic", "vector-logs.dead-letter");
        expected.put("input.vectorerrors.key", "host:text, timestamp:rts, message:md5");
        expected.put("input.vectorerrors.time", "timestamp");
        expected.put("input.vectorerrors.time.format", "iso8601, epoch-ms");
        expected.put("input.vectorerrors.time.missing", "record-timestamp");
        expected.put("input.vectorerrors.topic", "vector-logs");
        expected.put("input.vectorerrors.ttl.ms", "long($header.ttl-ms)");
        expected.put("input.vectorerrors.where", "level = 'error' or status >= 500");
        assertThat(inputKeys).containsExactlyEntriesOf(expected);

        // rowflow reads them as the two inputs, in order, each mapping compiled.
        Map<String, String> config = new HashMap<>();
        properties.stringPropertyNames().forEach(k -> config.put(k, properties.getProperty(k)));
        List<InputConfig> inputs = new RowflowConfig(config).inputs();
        assertThat(inputs).extracting(InputConfig::name).containsExactly("filebeat", "vector", "vectorerrors", "accounts",
                "logins");
        assertThat(inputs).extracting(InputConfig::topic).containsExactly("filebeat", "vector-logs", "vector-logs",
                "accounts", "logins");
        // Start-up accepts them: the join links two inputs of change events, each alone on its topic.
        try (var plan = dev.rowflow.pipeline.ingest.PipelinePlan.build(new RowflowConfig(config), null)) {
            assertThat(plan.declaredInputNames()).hasSize(5);
            assertThat(plan.tables().get(dev.rowflow.keying.TableRole.of("filebeat.rows.tags")).name()
                    .getNameAsString()).isEqualTo("filebeat_tags");
        }
        assertThat(inputs.get(3).tombstones()).isEqualTo("delete");
        assertThat(inputs.get(0).indexes()).containsExactly("host");
        assertThat(inputs.get(0).tableName("index.host.table")).isEqualTo("filebeat_host");
        assertThat(inputs.get(1).deadLetterTopic()).isEqualTo("vector-logs.dead-letter");
        assertThat(inputs.get(1).tableName(InputConfig.TABLE)).isEqualTo("vector");
    }

    @Test
    void shouldMountTheSchemasOfAnAvroInputThroughExtraVolumes(@TempDir Path dir) throws Exception {
        Path values = write(dir, "avro-input", """
                config:
                  pipelines: []
                  inputs:
                    - name: payments
                      topic: payments
                      format: avro
                      avroSchemas: [/etc/rowflow/avro/payment.avsc]
                      time: {path: paidAt, format: epoch-ms}
                      key: "bucket(8) | paidAt:ts, account:text"
                      columns: "amount=a, currency=c"
                extraVolumes:
                  - name: avro-schemas
                    configMap: {name: payments-avro}
                extraVolumeMounts:
                  - name: avro-schemas
                    mountPath: /etc/rowflow/avro
                    readOnly: true
                """);
        Rendered release = render(values, Map.of());
        V1PodSpec pod = release.get("Deployment", V1Deployment.class).getSpec().getTemplate().getSpec();
        V1Container rowflow = pod.getContainers().get(0);

        assertThat(pod.getVolumes()).filteredOn(v -> v.getName().equals("avro-schemas")).singleElement()
                .satisfies(v -> assertThat(v.getConfigMap().getName()).isEqualTo("payments-avro"));
        V1VolumeMount mount = rowflow.getVolumeMounts().stream().filter(m -> m.getName().equals("avro-schemas"))
                .findFirst().orElseThrow();
        assertThat(mount.getReadOnly()).isTrue();
        // The chart's own volumes stay.
        assertThat(pod.getVolumes()).extracting(v -> v.getName()).contains("config", "state", "tmp", "avro-schemas");

        // What the pod sees at the mount path, rowflow accepts: the schema file found, the mapping compiled.
        Path mounted = Files.createDirectories(dir.resolve("mounted"));
        Files.writeString(mounted.resolve("payment.avsc"), """
                {"type": "record", "name": "Payment", "namespace": "example", "fields": [
                  {"name": "account", "type": "string"}, {"name": "paidAt", "type": "long"},
                  {"name": "amount", "type": "long"}, {"name": "currency", "type": "string"}]}
                """);
        Properties properties = properties(release);
        String schemas = properties.getProperty("input.payments.avro.schemas");
        assertThat(schemas).isEqualTo(mount.getMountPath() + "/payment.avsc");
        Map<String, String> config = new HashMap<>();
        properties.stringPropertyNames().forEach(k -> config.put(k, properties.getProperty(k)));
        config.put("input.payments.avro.schemas", schemas.replace(mount.getMountPath(), mounted.toString()));
        List<InputConfig> inputs = new RowflowConfig(config).inputs();
        assertThat(inputs).extracting(InputConfig::name).containsExactly("payments");
        try (PipelinePlan plan = PipelinePlan.build(new RowflowConfig(config), null)) {
            assertThat(plan.declaredInput("payments").orElseThrow().format().name()).isEqualTo("avro");
        }
    }

    @Test
    void shouldRenderARegistryInputWithItsCredentialsFromSecretsOnly() throws Exception {
        Rendered release = render(Chart.CI_VALUES.resolve("registry-values.yaml"), Map.of());
        String file = release.get("ConfigMap", V1ConfigMap.class).getData().get("rowflow.properties");
        Properties properties = properties(release);
        V1PodSpec pod = release.get("Deployment", V1Deployment.class).getSpec().getTemplate().getSpec();
        V1Container rowflow = pod.getContainers().get(0);

        assertThat(properties.getProperty("input.payments.format")).isEqualTo("avro-registry");
        assertThat(properties.getProperty("input.payments.registry.url"))
                .isEqualTo("https://registry-0.registry:8081,https://registry-1.registry:8081");
        assertThat(properties.getProperty("input.payments.registry.reader.subject")).isEqualTo("payments-value");
        assertThat(properties.getProperty("input.payments.registry.cache.ids")).isEqualTo("500");
        assertThat(properties.getProperty("input.payments.registry.ssl.truststore.location"))
                .isEqualTo("/etc/rowflow/registry-tls/payments/truststore.p12");
        // Secrets never in the ConfigMap: they come from secretKeyRefs.
        assertThat(file).doesNotContain("user.info").doesNotContain("truststore.password");
        assertThat(rowflow.getEnv()).filteredOn(e -> e.getName().equals(
                        "ROWFLOW_CONFIG_INPUT_PAYMENTS_REGISTRY_BASIC_AUTH_USER_INFO")).singleElement()
                .satisfies(e -> {
                    assertThat(e.getValueFrom().getSecretKeyRef().getName()).isEqualTo("payments-registry");
                    assertThat(e.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("user-info");
                });
        assertThat(rowflow.getEnv()).filteredOn(e -> e.getName().equals(
                        "ROWFLOW_CONFIG_INPUT_PAYMENTS_REGISTRY_SSL_TRUSTSTORE_PASSWORD")).singleElement()
                .satisfies(e -> assertThat(e.getValueFrom().getSecretKeyRef().getName()).isEqualTo("registry-ca"));
        V1VolumeMount mount = rowflow.getVolumeMounts().stream().filter(m -> m.getName().equals("registry-tls-payments"))
                .findFirst().orElseThrow();
        assertThat(mount.getMountPath()).isEqualTo("/etc/rowflow/registry-tls/payments");
        assertThat(mount.getReadOnly()).isTrue();
        assertThat(pod.getVolumes()).filteredOn(v -> v.getName().equals("registry-tls-payments")).singleElement()
                .satisfies(v -> {
                    assertThat(v.getSecret().getSecretName()).isEqualTo("registry-ca");
                    assertThat(v.getSecret().getItems()).extracting(i -> i.getKey()).containsExactly("truststore.p12");
                });

        // The environment rowflow reads (ConfigSources) lands on the input's keys, and the whole is accepted.
        Map<String, String> env = Map.of("ROWFLOW_CONFIG_INPUT_PAYMENTS_REGISTRY_BASIC_AUTH_USER_INFO", "svc:pw");
        Map<String, String> config = new HashMap<>();
        properties.stringPropertyNames().forEach(k -> config.put(k, properties.getProperty(k)));
        config.putAll(dev.rowflow.pipeline.config.ConfigSources.fromEnvironment(env));
        assertThat(config).containsEntry("input.payments.registry.basic.auth.user.info", "svc:pw");
        config.remove("input.payments.registry.ssl.truststore.location"); // a file of the pod
        config.remove("input.payments.registry.reader.subject"); // asked of the registry at start-up
        try (PipelinePlan plan = PipelinePlan.build(new RowflowConfig(config), null)) {
            assertThat(plan.declaredInput("payments").orElseThrow().format().name()).isEqualTo("avro-registry");
        }
    }

    @Test
    void shouldRefuseRegistryValuesThatCannotWork(@TempDir Path dir) throws Exception {
        String input = """
                config:
                  inputs:
                    - name: NAME
                      topic: payments
                      format: avro-registry
                      REGISTRY
                      time: {path: paidAt, format: epoch-ms}
                      key: "paidAt:ts"
                """;
        assertThatThrownBy(() -> Chart.template(write(dir, "no-registry", input.replace("NAME", "payments")
                .replace("REGISTRY", "")), Map.of())).hasMessageContaining("registry");
        assertThatThrownBy(() -> Chart.template(write(dir, "dash", input.replace("NAME", "pay-ments").replace("REGISTRY",
                "registry: {urls: [http://r:8081], basicAuthSecret: {name: s, key: k}}")), Map.of()))
                .hasMessageContaining("cannot name an input with '-' or '_' in its name (pay-ments)");
        assertThatThrownBy(() -> Chart.template(write(dir, "both", input.replace("NAME", "payments").replace("REGISTRY",
                "registry: {urls: [http://r:8081], readerSubject: s, readerSchema: /x.avsc}")), Map.of()))
                .hasMessageContaining("give readerSubject or readerSchema, not both");
        assertThatThrownBy(() -> Chart.template(write(dir, "secret-extra", input.replace("NAME", "payments")
                .replace("REGISTRY", "registry: {urls: [http://r:8081]}\n      extra: {registry.basic.auth.user.info: a:b}")),
                Map.of())).hasMessageContaining("is a secret");
        assertThatThrownBy(() -> Chart.template(write(dir, "bad-url", input.replace("NAME", "payments")
                .replace("REGISTRY", "registry: {urls: [\"registry:8081\"]}")), Map.of()))
                .hasMessageContaining("urls");
        String protobuf = input.replace("NAME", "payments").replace("avro-registry", "protobuf-registry");
        assertThatThrownBy(() -> Chart.template(write(dir, "proto-no-registry", protobuf.replace("REGISTRY", "")),
                Map.of())).hasMessageContaining("registry");
        assertThatThrownBy(() -> Chart.template(write(dir, "proto-reader", protobuf.replace("REGISTRY",
                "registry: {urls: [http://r:8081], readerSubject: s}")), Map.of()))
                .hasMessageContaining("readerSubject and readerSchema are for format avro-registry; protobuf-registry");
        assertThatThrownBy(() -> Chart.template(write(dir, "json-no-registry", input.replace("NAME", "payments")
                .replace("avro-registry", "json-schema-registry").replace("REGISTRY", "")), Map.of()))
                .hasMessageContaining("registry");
    }

    @Test
    void shouldRenderAProtobufRegistryInputThatRowflowAccepts(@TempDir Path dir) throws Exception {
        Properties properties = properties(render(write(dir, "protobuf", """
                config:
                  pipelines: []
                  inputs:
                    - name: orders
                      topic: orders
                      format: protobuf-registry
                      registry: {urls: [http://registry:8080/apis/ccompat/v7], cacheIds: 200}
                      time: {path: placed_at, format: iso8601}
                      key: "id:text"
                """), Map.of()));

        assertThat(properties.getProperty("input.orders.format")).isEqualTo("protobuf-registry");
        assertThat(properties.getProperty("input.orders.registry.url")).isEqualTo("http://registry:8080/apis/ccompat/v7");
        assertThat(properties.getProperty("input.orders.registry.cache.ids")).isEqualTo("200");
        Map<String, String> config = new HashMap<>();
        properties.stringPropertyNames().forEach(k -> config.put(k, properties.getProperty(k)));
        try (PipelinePlan plan = PipelinePlan.build(new RowflowConfig(config), null)) {
            assertThat(plan.declaredInput("orders").orElseThrow().format().name()).isEqualTo("protobuf-registry");
        }
    }

    @Test
    void shouldEscapeInputValuesForAPropertiesFile(@TempDir Path dir) throws Exception {
        // A backslash, a tab and leading blanks would be lost by Properties#load if written as they are.
        Path values = write(dir, "escape", """
                config:
                  inputs:
                    - name: app
                      topic: app
                      time: {path: ts, format: epoch-ms}
                      key: "ts:ts"
                      columns: "  path=C:\\\\tmp,\\tm"
                """);

        Properties properties = properties(render(values, Map.of()));

        assertThat(properties.getProperty("input.app.columns")).isEqualTo("  path=C:\\tmp,\tm");
        assertThat(properties.getProperty("pipelines")).isEqualTo("logs");
        assertThat(properties.getProperty("inputs")).isEqualTo("app");
    }

    @Test
    void shouldRefuseInputsTheSchemaOrTheChartDoesNotAllow(@TempDir Path dir) throws Exception {
        String good = """
                config:
                  pipelines: []
                  inputs:
                    - name: app
                      topic: app
                      format: json
                      time: {path: "@timestamp"}
                      key: "@timestamp:ts, host:text"
                """;
        assertThat(properties(render(write(dir, "good", good), Map.of())).getProperty("inputs")).isEqualTo("app");

        assertThatThrownBy(() -> Chart.template(write(dir, "no-key", good.replace("      key: \"@timestamp:ts, host:text\"\n", "")), Map.of()))
                .hasMessageContaining("'/config/inputs/0': missing property 'key'");
        assertThatThrownBy(() -> Chart.template(write(dir, "bad-format", good.replace("format: json", "format: xml")), Map.of()))
                .hasMessageContaining("'/config/inputs/0/format'");
        assertThatThrownBy(() -> Chart.template(write(dir, "bad-name", good.replace("name: app", "name: App.v2")), Map.of()))
                .hasMessageContaining("'/config/inputs/0/name'");
        assertThatThrownBy(() -> Chart.template(write(dir, "unknown-field", good.replace("format: json", "formt: json")), Map.of()))
                .hasMessageContaining("formt");
        assertThatThrownBy(() -> Chart.template(write(dir, "avro", good.replace("format: json", "format: avro")), Map.of()))
                .hasMessageContaining("avroSchemas");
        assertThatThrownBy(() -> Chart.template(write(dir, "bad-time", good.replace("time: {path: \"@timestamp\"}",
                "time: {path: \"@timestamp\", format: rfc822}")), Map.of()))
                .hasMessageContaining("'/config/inputs/0/time/format'");
        // What the schema cannot say, the chart's templates refuse, naming the values.
        String twice = good + """
                    - name: app
                      topic: other
                      time: {path: ts}
                      key: "ts:ts"
                """;
        assertThatThrownBy(() -> Chart.template(write(dir, "twice", twice), Map.of()))
                .hasMessageContaining("config.inputs names the input \"app\" twice");
        assertThatThrownBy(() -> Chart.template(write(dir, "bad-tombstones", good + "      tombstones: drop\n"),
                Map.of())).hasMessageContaining("'/config/inputs/0/tombstones'");
        assertThatThrownBy(() -> Chart.template(write(dir, "bad-time-list", good.replace("time: {path: \"@timestamp\"}",
                "time: {path: \"@timestamp\", format: \"epoch-s, iso\"}")), Map.of()))
                .hasMessageContaining("'/config/inputs/0/time/format'");
        assertThatThrownBy(() -> Chart.template(write(dir, "extra-clash", good + """
                      extra:
                        topic: app2
                """), Map.of()))
                .hasMessageContaining("config.inputs[app].extra.topic is set by the chart");
        assertThatThrownBy(() -> Chart.template(write(dir, "nothing", "config: {pipelines: []}\n"), Map.of()))
                .hasMessageContaining("rowflow would ingest nothing");
    }

    private static Path write(Path dir, String name, String values) throws IOException {
        return Files.writeString(dir.resolve(name + "-values.yaml"), values);
    }

    @Test
    void shouldKeepThePlainManifestsGeneratedFromTheChart() throws Exception {
        Path plain = Path.of("kubernetes", "rowflow.yaml");
        String expected = PlainManifests.HEADER + Chart.template(Chart.CI_VALUES.resolve("default-values.yaml"),
                Map.of("tests.enabled", false));
        if (Boolean.getBoolean("rowflow.regenerate")) {
            Files.writeString(plain, expected);
        }

        assertThat(Files.readString(plain)).as("deploy/kubernetes/rowflow.yaml is generated from the chart; "
                + "regenerate with: mvn -pl deploy test -Dtest=ChartTest -Drowflow.regenerate=true").isEqualTo(expected);
    }

    static Properties properties(Rendered release) throws IOException {
        V1ConfigMap config = release.objects().values().stream()
                .filter(o -> o instanceof V1ConfigMap c && c.getData() != null && c.getData().containsKey("rowflow.properties"))
                .map(o -> (V1ConfigMap) o).findFirst().orElseThrow();
        Properties properties = new Properties();
        properties.load(new StringReader(config.getData().get("rowflow.properties")));
        return properties;
    }
}
