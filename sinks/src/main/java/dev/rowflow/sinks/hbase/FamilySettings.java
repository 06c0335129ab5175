package dev.rowflow.sinks.hbase;

import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.regionserver.BloomType;

/**
 * How a table's one column family stores its cells (seed 002, 1.1-1.8; seed 004).
 *
 * @param ttlSeconds  family TTL: cells older than this (by cell timestamp = event time) are
 *                    dropped at compaction and hidden from reads; 0 keeps them forever
 * @param cellTtlMillis per-cell TTL set on every Put ({@code Mutation#setTTL}), 0 for none; HBase
 *                    applies the shorter of cell and family TTL, so a longer one is refused here
 * @param maxVersions versions kept per cell; 1 suits rowflow, whose replays rewrite the same version
 * @param minVersions versions kept even past the TTL
 * @param bloom       bloom filter: NONE, ROW or ROWCOL
 * @param compression NONE, GZ (pure Java) or a codec whose native library the servers have
 * @param blockSize   HFile block size in bytes
 */
public record FamilySettings(int ttlSeconds, long cellTtlMillis, int maxVersions, int minVersions, BloomType bloom,
                             Compression.Algorithm compression, int blockSize) {

    /** One version, kept forever, row bloom filter, no compression, 64 KiB blocks. */
    public static final FamilySettings DEFAULT =
            new FamilySettings(0, 0, 1, 0, BloomType.ROW, Compression.Algorithm.NONE, 65_536);

    public FamilySettings {
        if (ttlSeconds < 0) {
            throw new IllegalArgumentException("family TTL must be >= 0 seconds (0 = forever), got " + ttlSeconds);
        }
        if (cellTtlMillis < 0) {
            throw new IllegalArgumentException("cell TTL must be >= 0 ms (0 = none), got " + cellTtlMillis);
        }
        if (ttlSeconds > 0 && cellTtlMillis > ttlSeconds * 1000L) {
            throw new IllegalArgumentException("cell TTL " + cellTtlMillis + " ms is longer than the family TTL "
                    + ttlSeconds + " s: HBase would drop the cells with the family TTL, so the cell TTL would be a lie");
        }
        if (maxVersions < 1 || minVersions < 0 || minVersions > maxVersions) {
            throw new IllegalArgumentException("versions need 1 <= max and 0 <= min <= max, got max " + maxVersions
                    + ", min " + minVersions);
        }
        if (blockSize < 1024) {
            throw new IllegalArgumentException("block size must be >= 1024 bytes, got " + blockSize);
        }
    }

    /** The family TTL as HBase stores it ({@link HConstants#FOREVER} for 0). */
    int hbaseTtl() {
        return ttlSeconds == 0 ? HConstants.FOREVER : ttlSeconds;
    }
}
