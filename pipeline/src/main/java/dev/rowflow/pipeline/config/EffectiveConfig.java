package dev.rowflow.pipeline.config;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.streams.StreamsConfig;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The configuration a process would run with, key by key, with where each value comes from: what
 * {@code rowflow config --effective} prints. Built only from a configuration {@link RowflowConfig}
 * accepts, so it also answers "would this start?".
 *
 * <p>Secrets are printed as {@value #HIDDEN}: keys of type password in rowflow's or Kafka's
 * definitions, and keys without a definition (hbase.*, hadoop.*) whose name says secret.
 */
public final class EffectiveConfig {
    public static final String HIDDEN = "[hidden]";
    /** An empty value, as printed. */
    public static final String EMPTY = "(empty)";

    /** Where a value comes from. */
    public enum Source { DEFAULT, FILE, ENVIRONMENT }

    /** One key: its value as the process sees it (secrets hidden) and its source. */
    public record Entry(String key, String value, Source source, String variable) {
        /** The source as printed: {@code default}, {@code file}, {@code env ROWFLOW_CONFIG_...}. */
        public String describeSource() {
            return switch (source) {
                case DEFAULT -> "default";
                case FILE -> "file";
                case ENVIRONMENT -> "env " + variable;
            };
        }
    }

    /** Names of keys without a definition that hold secrets (Hadoop's and Bigtable's credentials). */
    private static final Pattern SECRET_NAME = Pattern.compile(
            "(?i).*(password|secret|jaas|credential|token|user\\.info|private\\.key|keystore\\.key).*");

    /** Kafka's own definitions of the keys passed through with kafka.: their types tell the secrets. */
    private static final Map<String, ConfigKey> KAFKA_KEYS = Stream.of(StreamsConfig.configDef(),
                    ConsumerConfig.configDef(), ProducerConfig.configDef(), AdminClientConfig.configDef())
            .flatMap(def -> def.configKeys().values().stream())
            .collect(Collectors.toMap(k -> k.name, k -> k, (a, b) -> a));

    private EffectiveConfig() {
    }

    /**
     * Every key rowflow defines (with its default where not set), every declared input's keys and
     * every key passed through, sorted by key.
     *
     * @param file the file's properties
     * @param env  the process environment ({@code ROWFLOW_CONFIG_*} variables override the file)
     * @throws org.apache.kafka.common.config.ConfigException as {@code rowflow run} would stop with
     */
    public static List<Entry> of(Map<String, String> file, Map<String, String> env) {
        Map<String, String> variables = new LinkedHashMap<>();
        env.forEach((name, value) -> {
            Map<String, String> one = ConfigSources.fromEnvironment(Map.of(name, value));
            one.keySet().forEach(key -> variables.put(key, name));
        });
        Map<String, String> effective = new LinkedHashMap<>(file);
        effective.putAll(ConfigSources.fromEnvironment(env));
        RowflowConfig config = new RowflowConfig(effective);

        Map<String, Entry> entries = new TreeMap<>();
        defaults(RowflowConfig.CONFIG, "", entries);
        for (InputConfig input : config.inputs()) {
            defaults(input.definition(), input.prefix(), entries);
        }
        // Unset, the pipelines depend on the inputs: print the ones that run.
        entries.put(RowflowConfig.PIPELINES_CONFIG, new Entry(RowflowConfig.PIPELINES_CONFIG,
                config.pipelines().isEmpty() ? EMPTY : String.join(",", config.pipelines()), Source.DEFAULT, null));
        effective.forEach((key, value) -> {
            Source source = variables.containsKey(key) ? Source.ENVIRONMENT : Source.FILE;
            entries.put(key, new Entry(key, secret(key, config) && !value.isEmpty() ? HIDDEN : value, source,
                    variables.get(key)));
        });
        return new ArrayList<>(entries.values());
    }

    private static void defaults(ConfigDef definition, String prefix, Map<String, Entry> entries) {
        for (ConfigKey key : definition.configKeys().values()) {
            String value = key.defaultValue == ConfigDef.NO_DEFAULT_VALUE ? "(required)"
                    : key.defaultValue == null ? "(none)" : ConfigDef.convertToString(key.defaultValue, key.type);
            value = value.isEmpty() ? EMPTY : value;
            if (key.type == Type.PASSWORD && !value.isEmpty() && key.defaultValue != ConfigDef.NO_DEFAULT_VALUE) {
                value = HIDDEN;
            }
            entries.put(prefix + key.name, new Entry(prefix + key.name, value, Source.DEFAULT, null));
        }
    }

    /** Whether the value of {@code key} is a secret. */
    static boolean secret(String key, RowflowConfig config) {
        ConfigKey defined = RowflowConfig.CONFIG.configKeys().get(key);
        if (defined != null) {
            return defined.type == Type.PASSWORD;
        }
        for (InputConfig input : config.inputs()) {
            if (key.startsWith(input.prefix())) {
                ConfigKey inputKey = input.definition().configKeys()
                        .get(key.substring(input.prefix().length()));
                return inputKey != null && inputKey.type == Type.PASSWORD;
            }
        }
        if (key.startsWith(RowflowConfig.KAFKA_PREFIX)) {
            String kafkaKey = key.substring(RowflowConfig.KAFKA_PREFIX.length())
                    .replaceFirst("^(main\\.consumer|restore\\.consumer|global\\.consumer|consumer|producer|admin)\\.", "");
            ConfigKey kafka = KAFKA_KEYS.get(kafkaKey);
            if (kafka != null) {
                return kafka.type == Type.PASSWORD;
            }
        }
        return SECRET_NAME.matcher(key.toLowerCase(Locale.ROOT)).matches();
    }
}
