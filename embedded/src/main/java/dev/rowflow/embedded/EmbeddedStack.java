package dev.rowflow.embedded;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Kafka broker and an HBase mini cluster for one test class or one demo run. Starting takes
 * about 12 s on two cores; share one stack across the tests of a class.
 */
public final class EmbeddedStack implements AutoCloseable {
    private final Path dir;
    private final EmbeddedKafka kafka;
    private final EmbeddedHBase hbase;
    private EmbeddedBigtable bigtable;

    private EmbeddedStack(Path dir, EmbeddedKafka kafka, EmbeddedHBase hbase) {
        this.dir = dir;
        this.kafka = kafka;
        this.hbase = hbase;
    }

    /** Starts Kafka, then HBase (in parallel they gain nothing on two cores). */
    public static EmbeddedStack start() {
        Path dir = TempDirs.create("rowflow-stack-");
        EmbeddedKafka kafka = EmbeddedKafka.start(dir);
        try {
            return new EmbeddedStack(dir, kafka, EmbeddedHBase.start(dir));
        } catch (RuntimeException e) {
            kafka.close();
            TempDirs.delete(dir);
            throw e;
        }
    }

    public EmbeddedKafka kafka() {
        return kafka;
    }

    /** The stack's own directory (deleted with it), for files that should go with it. */
    public Path directory() {
        return dir;
    }

    public EmbeddedHBase hbase() {
        return hbase;
    }

    /**
     * The Bigtable emulator, started on first use and stopped with the stack.
     *
     * @throws IllegalStateException saying how to get it if it is not on the machine
     */
    public synchronized EmbeddedBigtable bigtable() {
        if (bigtable == null) {
            bigtable = EmbeddedBigtable.start();
        }
        return bigtable;
    }

    /** The HBase-API connection to the given store ({@code hbase} or {@code bigtable}). */
    public org.apache.hadoop.hbase.client.Connection connection(String store) {
        return switch (store) {
            case "hbase" -> hbase.connection();
            case "bigtable" -> bigtable().connection();
            default -> throw new IllegalArgumentException("unknown store '" + store + "': one of hbase, bigtable");
        };
    }

    /**
     * Connection settings in rowflow's configuration keys for the given store ({@code hbase} or
     * {@code bigtable}): {@code kafka.bootstrap.servers} and the store's client keys.
     */
    public Map<String, String> rowflowProperties(String store) {
        if (store.equals("hbase")) {
            return rowflowProperties();
        }
        if (!store.equals("bigtable")) {
            throw new IllegalArgumentException("unknown store '" + store + "': one of hbase, bigtable");
        }
        Map<String, String> props = rowflowProperties();
        props.keySet().removeIf(key -> key.startsWith("hbase.") || key.startsWith("zookeeper."));
        props.put("store", "bigtable");
        props.put("bigtable.project.id", EmbeddedBigtable.PROJECT);
        props.put("bigtable.instance.id", EmbeddedBigtable.INSTANCE);
        props.put("bigtable.emulator.host", bigtable().endpoint());
        return props;
    }

    /**
     * Connection settings in rowflow's configuration keys: {@code kafka.bootstrap.servers} and the
     * {@code hbase.*} client keys.
     */
    public Map<String, String> rowflowProperties() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("kafka.bootstrap.servers", kafka.bootstrapServers());
        // Local state (RocksDB stores) lives and dies with this stack: a store left in the shared
        // default /tmp/kafka-streams by an earlier stack would hold records this broker never had.
        props.put("kafka.state.dir", dir.resolve("streams-state").toString());
        props.putAll(hbase.clientProperties());
        return props;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (bigtable != null) {
                bigtable.close();
            }
        }
        try {
            hbase.close();
        } finally {
            try {
                kafka.close();
            } finally {
                TempDirs.delete(dir);
            }
        }
    }
}
