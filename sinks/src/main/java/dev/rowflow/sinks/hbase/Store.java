package dev.rowflow.sinks.hbase;

import org.apache.hadoop.hbase.client.Connection;

import java.util.Locale;

/**
 * The wide-column store behind an HBase {@link Connection}: rowflow writes and reads every store
 * through the HBase client API, and asks the store's {@link Capabilities} where the stores differ
 * instead of branching on names. A setting a store cannot honour is refused (at start-up by the
 * pipeline's configuration, and again here, in {@link TableAdmin}) rather than silently ignored.
 */
public enum Store {
    /** Apache HBase: everything rowflow uses. */
    HBASE(new Capabilities(true, true, true, true, true, true, true, true)),
    /**
     * Google Cloud Bigtable through Google's HBase adapter ({@code bigtable-hbase-2.x}). Column
     * families keep cells by garbage-collection rules only (max age, max versions), which the
     * adapter maps from the family TTL and versions; there is no per-cell TTL, no table metadata,
     * no coprocessors, no region metrics, no increment inside a conditional mutation, no delete
     * markers (a delete removes cells at once), and Bigtable tunes storage (bloom filters,
     * compression, block size) and tablet boundaries itself.
     */
    BIGTABLE(new Capabilities(false, false, false, false, false, false, false, false));

    /**
     * What a store can do beyond rows, cells and scans.
     *
     * @param cellTtl       per-cell TTL ({@code Mutation#setTTL}); without it only the family TTL
     *                      (a max-age rule) expires cells
     * @param familyTuning  bloom filter, compression and block size per family
     * @param tableMetadata key/value metadata in the table descriptor, where rowflow records a
     *                      table's key layout; without it the layout goes to
     *                      {@value TableAdmin#LAYOUTS_TABLE}
     * @param regionMetrics per-region request counts ({@code Admin#getRegionMetrics}), which the
     *                      hotspot experiment reads
     * @param coprocessors  region observers (the tests' fault injection)
     * @param conditionalIncrement an increment inside a conditional row mutation; without it the
     *                      exactly-once counters keep one cell per source ({@link CounterCells})
     * @param fixedRegions  regions start at the pre-split points and stay there until they grow;
     *                      Bigtable takes split points as a hint and moves tablets by load
     * @param deleteMarkers a Delete is a marker that masks cells by timestamp (unless the family
     *                      has new version behaviour) until a major compaction; Bigtable removes
     *                      the cells there are at once
     */
    public record Capabilities(boolean cellTtl, boolean familyTuning, boolean tableMetadata, boolean regionMetrics,
                               boolean coprocessors, boolean conditionalIncrement, boolean fixedRegions,
                               boolean deleteMarkers) {
    }

    private final Capabilities capabilities;

    Store(Capabilities capabilities) {
        this.capabilities = capabilities;
    }

    public Capabilities capabilities() {
        return capabilities;
    }

    /** The name used in configuration: {@code hbase}, {@code bigtable}. */
    public String token() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException naming the value and the known stores */
    public static Store of(String token) {
        for (Store store : values()) {
            if (store.token().equals(token)) {
                return store;
            }
        }
        throw new IllegalArgumentException("unknown store '" + token + "': one of hbase, bigtable");
    }

    /**
     * The store a connection talks to, from the connection's class: Google's adapter implements
     * {@link Connection} in {@code com.google.cloud.bigtable}.
     */
    public static Store of(Connection connection) {
        return connection.getClass().getName().startsWith("com.google.cloud.bigtable.") ? BIGTABLE : HBASE;
    }
}
