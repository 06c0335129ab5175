package dev.rowflow.pipeline.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Where configuration values come from: a properties file, then environment variables, which win.
 *
 * <p>An environment variable {@code ROWFLOW_CONFIG_<KEY>} sets key {@code <key>} lower-cased with
 * {@code _} read as {@code .}: {@code ROWFLOW_CONFIG_KAFKA_BOOTSTRAP_SERVERS} sets
 * {@code kafka.bootstrap.servers}, {@code ROWFLOW_CONFIG_HBASE_ZOOKEEPER_QUORUM} sets
 * {@code hbase.zookeeper.quorum}. (Keys containing {@code _} or upper case cannot be set this way;
 * put them in the file.) The prefix is not just {@code ROWFLOW_} because Kubernetes injects
 * {@code ROWFLOW_SERVICE_HOST}, {@code ROWFLOW_PORT} and the like into pods when a Service named
 * {@code rowflow} exists.
 */
public final class ConfigSources {
    public static final String ENV_PREFIX = "ROWFLOW_CONFIG_";

    private ConfigSources() {
    }

    /** The file's properties overlaid with the {@code ROWFLOW_CONFIG_*} variables of {@code env}. */
    public static Map<String, String> load(Path file, Map<String, String> env) throws IOException {
        Map<String, String> props = new LinkedHashMap<>();
        if (file != null) {
            Properties fromFile = new Properties();
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                fromFile.load(reader);
            } catch (NoSuchFileException e) {
                throw new NoSuchFileException(file.toString(), null, "configuration file not found");
            }
            for (String key : fromFile.stringPropertyNames()) {
                props.put(key, fromFile.getProperty(key).trim());
            }
        }
        props.putAll(fromEnvironment(env));
        return props;
    }

    /** The keys the {@code ROWFLOW_CONFIG_*} variables of {@code env} set. */
    public static Map<String, String> fromEnvironment(Map<String, String> env) {
        Map<String, String> props = new LinkedHashMap<>();
        env.forEach((name, value) -> {
            if (name.startsWith(ENV_PREFIX) && name.length() > ENV_PREFIX.length()) {
                props.put(name.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.'), value);
            }
        });
        return props;
    }
}
