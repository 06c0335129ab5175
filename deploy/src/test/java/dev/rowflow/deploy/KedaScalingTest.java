package dev.rowflow.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1Volume;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The chart's KEDA objects for scaling on the consumer group's lag read from the brokers (the
 * {@code kafka} trigger): validated against KEDA's own CRD schemas and its kafka scaler's parameter
 * names (src/test/resources/keda), for a plain, a SASL/SCRAM + TLS and a Kerberos cluster, each
 * reaching the brokers with the credentials and the consumer group the pods use.
 */
class KedaScalingTest {
    private static final CustomResourceSchema SCALED_OBJECT =
            CustomResourceSchema.load("/keda/keda.sh_scaledobjects.yaml", "v1alpha1");
    private static final CustomResourceSchema TRIGGER_AUTHENTICATION =
            CustomResourceSchema.load("/keda/keda.sh_triggerauthentications.yaml", "v1alpha1");
    /** Where KEDA's kafka scaler reads each parameter: triggerMetadata, authParams, resolvedEnv. */
    private static final Map<String, Set<String>> KAFKA_PARAMETERS = kafkaScalerParameters();

    @Test
    void shouldScaleAPlainClusterFromZeroOnEveryInputTopicsLag() throws Exception {
        ChartTest.Rendered release = ChartTest.render(Chart.CI_VALUES.resolve("json-inputs-values.yaml"), Map.of());

        JsonNode scaledObject = valid(release);
        assertThat(scaledObject.path("spec").path("minReplicaCount").asInt()).isZero();
        Properties properties = ChartTest.properties(release);
        List<String> topics = new ArrayList<>();
        for (JsonNode trigger : scaledObject.path("spec").path("triggers")) {
            assertThat(trigger.path("type").asText()).isEqualTo("kafka");
            JsonNode metadata = trigger.path("metadata");
            assertThat(metadata.path("consumerGroup").asText()).isEqualTo(properties.getProperty("application.id"));
            assertThat(metadata.path("bootstrapServers").asText()).isEqualTo(properties.getProperty("kafka.bootstrap.servers"));
            assertThat(metadata.path("lagThreshold").asText()).isEqualTo("50000");
            assertThat(metadata.path("activationLagThreshold").asText()).isEqualTo("0");
            assertThat(metadata.path("offsetResetPolicy").asText()).as("Kafka Streams' auto.offset.reset").isEqualTo("earliest");
            assertThat(metadata.has("sasl") || metadata.has("tls")).isFalse();
            assertThat(trigger.has("authenticationRef")).isFalse();
            topics.add(metadata.path("topic").asText());
        }
        // Exactly the topics rowflow's group reads, each once (vector-logs feeds two inputs).
        assertThat(topics).containsExactlyElementsOf(sourceTopics(properties)).hasSize(4);
        assertThat(release.has("TriggerAuthentication")).isFalse();
    }

    @Test
    void shouldLogInToATlsAndScramClusterWithThePodsOwnSecrets() throws Exception {
        ChartTest.Rendered release = ChartTest.render(Chart.CI_VALUES.resolve("secure-values.yaml"), Map.of());

        JsonNode scaledObject = valid(release);
        JsonNode authentication = validAuthentication(release);
        for (JsonNode trigger : scaledObject.path("spec").path("triggers")) {
            assertThat(trigger.path("metadata").path("sasl").asText()).isEqualTo("scram_sha512");
            assertThat(trigger.path("metadata").path("tls").asText()).isEqualTo("enable");
            assertThat(trigger.path("authenticationRef").path("name").asText())
                    .isEqualTo(authentication.path("metadata").path("name").asText());
        }
        Map<String, String> secrets = refs(authentication, "secretTargetRef");
        Map<String, V1EnvVar> env = env(release);
        // The SCRAM user and password the pods log in with, from the same Secret keys.
        assertThat(secrets.get("username")).isEqualTo(secretKey(env.get("KAFKA_SASL_USERNAME")));
        assertThat(secrets.get("password")).isEqualTo(secretKey(env.get("KAFKA_SASL_PASSWORD")));
        // The PEM copies, in the Secret the pods' trust and key stores come from.
        String tlsSecret = volume(release, "rowflow-kafka-tls").getSecret().getSecretName();
        assertThat(secrets).containsEntry("ca", tlsSecret + "/ca.crt").containsEntry("cert", tlsSecret + "/tls.crt")
                .containsEntry("key", tlsSecret + "/tls.key").hasSize(5);
        assertThat(refs(authentication, "configMapTargetRef")).isEmpty();
    }

    @Test
    void shouldLogInToAKerberizedClusterWithThePodsKeytabAndKrb5Conf() throws Exception {
        ChartTest.Rendered release = ChartTest.render(Chart.CI_VALUES.resolve("kerberos-values.yaml"), Map.of());

        JsonNode scaledObject = valid(release);
        assertThat(scaledObject.path("spec").path("minReplicaCount").asInt()).isZero();
        assertThat(scaledObject.path("spec").path("triggers")).allSatisfy(trigger -> {
            assertThat(trigger.path("metadata").path("sasl").asText()).isEqualTo("gssapi");
            assertThat(trigger.path("metadata").path("activationLagThreshold").asText()).isEqualTo("100");
            assertThat(trigger.path("metadata").has("tls")).isFalse();
        });
        JsonNode authentication = validAuthentication(release);
        // KEDA logs in as name + realm, split from the principal the pods' JAAS line names.
        Map<String, String> configMaps = refs(authentication, "configMapTargetRef");
        String names = release.objects().keySet().stream().filter(k -> k.startsWith("ConfigMap/") && k.endsWith("-keda-kafka"))
                .findFirst().orElseThrow().substring("ConfigMap/".length());
        V1ConfigMap data = (V1ConfigMap) release.objects().get("ConfigMap/" + names);
        assertThat(data.getData()).containsExactlyInAnyOrderEntriesOf(
                Map.of("username", "rowflow", "realm", "EXAMPLE.COM", "kerberosServiceName", "kafka"));
        assertThat(ChartTest.properties(release).getProperty("kafka.sasl.jaas.config")).contains("principal=\"rowflow@EXAMPLE.COM\"");
        assertThat(configMaps).containsEntry("username", names + "/username").containsEntry("realm", names + "/realm")
                .containsEntry("kerberosServiceName", names + "/kerberosServiceName")
                .containsEntry("kerberosConfig", volume(release, "krb5-conf").getConfigMap().getName() + "/krb5.conf");
        // HBase's keytab serves Kafka (kafka.sasl.kerberos.secretName empty): the one the pods mount.
        assertThat(refs(authentication, "secretTargetRef"))
                .containsExactlyEntriesOf(Map.of("keytab", volume(release, "rowflow-keytab").getSecret().getSecretName() + "/rowflow.keytab"));
    }

    @Test
    void shouldKeepThePrometheusTriggerAsAnOption() throws Exception {
        ChartTest.Rendered release = ChartTest.render(Chart.CI_VALUES.resolve("monitoring-values.yaml"), Map.of());

        JsonNode scaledObject = valid(release);
        assertThat(scaledObject.path("spec").path("triggers")).singleElement()
                .satisfies(trigger -> assertThat(trigger.path("type").asText()).isEqualTo("prometheus"));
        assertThat(release.has("TriggerAuthentication")).isFalse();
    }

    @Test
    void shouldRefuseScalingValuesThatCannotWork() {
        assertThatThrownBy(() -> Chart.template(null, Map.of("autoscaling.enabled", true, "autoscaling.minReplicas", 0,
                "autoscaling.keda.trigger", "prometheus")))
                .hasMessageContaining("autoscaling.minReplicas must be at least 1 with autoscaling.keda.trigger prometheus");
        assertThatThrownBy(() -> Chart.template(Chart.CI_VALUES.resolve("hpa-values.yaml"), Map.of("autoscaling.minReplicas", 0)))
                .hasMessageContaining("autoscaling.minReplicas must be at least 1 with autoscaling.kind hpa");
        assertThatThrownBy(() -> Chart.template(Chart.CI_VALUES.resolve("secure-values.yaml"), Map.of(
                "kafka.tls.certPemKey", "", "kafka.tls.keyPemKey", "")))
                .hasMessageContaining("kafka.tls.keystoreKey sets a client certificate");
        assertThatThrownBy(() -> Chart.template(Chart.CI_VALUES.resolve("kerberos-values.yaml"), Map.of(
                "kafka.sasl.kerberos.principal", "rowflow")))
                .hasMessageContaining("kafka.sasl.kerberos.principal \"rowflow\" needs its realm");
        assertThatThrownBy(() -> Chart.template(Chart.CI_VALUES.resolve("kerberos-values.yaml"), Map.of(
                "hbase.kerberos.krb5ConfigMap", "")))
                .hasMessageContaining("hbase.kerberos.krb5ConfigMap is required with kafka.sasl.mechanism GSSAPI and the kafka trigger");
        assertThatThrownBy(() -> Chart.template(null, Map.of("autoscaling.keda.trigger", "lag")))
                .hasMessageContaining("trigger");
    }

    @Test
    void shouldFindWhatAnApiServerWouldRefuse() throws Exception {
        JsonNode good = ChartTest.render(Chart.CI_VALUES.resolve("secure-values.yaml"), Map.of()).document("ScaledObject");
        assertThat(SCALED_OBJECT.problems(good)).isEmpty();

        com.fasterxml.jackson.databind.node.ObjectNode bad = good.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) bad.path("spec")).put("minReplicas", 0);
        ((com.fasterxml.jackson.databind.node.ObjectNode) bad.path("spec")).put("maxReplicaCount", "six");
        ((com.fasterxml.jackson.databind.node.ObjectNode) bad.path("spec").path("triggers").get(0)).remove("type");
        assertThat(SCALED_OBJECT.problems(bad)).hasSize(3).anySatisfy(p -> assertThat(p).contains("unknown field .spec.minReplicas"))
                .anySatisfy(p -> assertThat(p).contains("maxReplicaCount")).anySatisfy(p -> assertThat(p).contains("type"));
    }

    private static JsonNode valid(ChartTest.Rendered release) {
        JsonNode scaledObject = release.document("ScaledObject");
        assertThat(SCALED_OBJECT.problems(scaledObject)).as("ScaledObject against KEDA's CRD").isEmpty();
        for (JsonNode trigger : scaledObject.path("spec").path("triggers")) {
            if (trigger.path("type").asText().equals("kafka")) {
                trigger.path("metadata").fieldNames().forEachRemaining(name -> assertThat(KAFKA_PARAMETERS.get(name))
                        .as("kafka scaler trigger metadata %s", name).isNotNull().contains("triggerMetadata"));
            }
        }
        return scaledObject;
    }

    private static JsonNode validAuthentication(ChartTest.Rendered release) {
        JsonNode authentication = release.document("TriggerAuthentication");
        assertThat(TRIGGER_AUTHENTICATION.problems(authentication)).as("TriggerAuthentication against KEDA's CRD").isEmpty();
        for (String refs : List.of("secretTargetRef", "configMapTargetRef")) {
            for (JsonNode ref : authentication.path("spec").path(refs)) {
                assertThat(KAFKA_PARAMETERS.get(ref.path("parameter").asText()))
                        .as("kafka scaler parameter %s", ref.path("parameter")).isNotNull().contains("authParams");
            }
        }
        return authentication;
    }

    /** parameter -> name/key of a TriggerAuthentication's {@code secretTargetRef} or {@code configMapTargetRef}. */
    private static Map<String, String> refs(JsonNode authentication, String kind) {
        Map<String, String> refs = new LinkedHashMap<>();
        for (JsonNode ref : authentication.path("spec").path(kind)) {
            assertThat(refs.put(ref.path("parameter").asText(), ref.path("name").asText() + "/" + ref.path("key").asText()))
                    .as("parameter %s twice", ref.path("parameter")).isNull();
        }
        return refs;
    }

    private static List<String> sourceTopics(Properties properties) {
        Map<String, String> config = new HashMap<>();
        properties.stringPropertyNames().forEach(k -> config.put(k, properties.getProperty(k)));
        try (PipelinePlan plan = PipelinePlan.build(new RowflowConfig(config), null)) {
            return List.copyOf(plan.deadLetterTopics().keySet());
        }
    }

    private static Map<String, V1EnvVar> env(ChartTest.Rendered release) {
        return pod(release).getContainers().get(0).getEnv().stream().collect(Collectors.toMap(V1EnvVar::getName, e -> e));
    }

    private static String secretKey(V1EnvVar var) {
        return var.getValueFrom().getSecretKeyRef().getName() + "/" + var.getValueFrom().getSecretKeyRef().getKey();
    }

    /** The pod's volume from the Secret or ConfigMap named {@code source}. */
    private static V1Volume volume(ChartTest.Rendered release, String source) {
        return pod(release).getVolumes().stream().filter(v -> v.getSecret() != null && source.equals(v.getSecret().getSecretName())
                || v.getConfigMap() != null && source.equals(v.getConfigMap().getName())).findFirst()
                .orElseThrow(() -> new AssertionError("the pods mount no " + source));
    }

    private static V1PodSpec pod(ChartTest.Rendered release) {
        return release.get("Deployment", V1Deployment.class).getSpec().getTemplate().getSpec();
    }

    private static Map<String, Set<String>> kafkaScalerParameters() {
        try (InputStream in = KedaScalingTest.class.getResourceAsStream("/keda/kafka-scaler-parameters.txt")) {
            Map<String, Set<String>> parameters = new HashMap<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] nameAndOrder = line.trim().split(" ");
                    parameters.put(nameAndOrder[0], Set.of(nameAndOrder[1].split(";")));
                }
            }
            return parameters;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
