package dev.rowflow.pipeline.config;

import dev.rowflow.sinks.hbase.FamilySettings;
import dev.rowflow.sinks.hbase.Store;
import dev.rowflow.sinks.hbase.TableAdmin;
import dev.rowflow.sinks.hbase.UnsupportedSettingException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

import java.util.Map;

/**
 * The family settings every table has, declared and read the same way wherever a table is
 * configured: after the key naming the table ({@code table.log.data}, {@code input.app.table},
 * {@code input.app.index.by-host.table}) come {@code .ttl.seconds}, {@code .cell.ttl.ms},
 * {@code .max.versions}, {@code .min.versions}, {@code .bloom}, {@code .compression},
 * {@code .block.size}.
 */
final class TableSettings {
    static final String TTL_SECONDS_SUFFIX = ".ttl.seconds";
    static final String CELL_TTL_MS_SUFFIX = ".cell.ttl.ms";
    static final String MAX_VERSIONS_SUFFIX = ".max.versions";
    static final String MIN_VERSIONS_SUFFIX = ".min.versions";
    static final String BLOOM_SUFFIX = ".bloom";
    static final String COMPRESSION_SUFFIX = ".compression";
    static final String BLOCK_SIZE_SUFFIX = ".block.size";

    /** The configuration suffix of each setting {@link TableAdmin#checkSupported} names. */
    private static final Map<String, String> SETTING_SUFFIXES = Map.of(
            "cell TTL", CELL_TTL_MS_SUFFIX, "bloom filter", BLOOM_SUFFIX, "compression", COMPRESSION_SUFFIX,
            "block size", BLOCK_SIZE_SUFFIX, "min versions", MIN_VERSIONS_SUFFIX);

    private TableSettings() {
    }

    /** Declares the family settings of the table named by {@code table}. */
    static ConfigDef define(ConfigDef def, String table) {
        FamilySettings d = FamilySettings.DEFAULT;
        return def
                .define(table + TTL_SECONDS_SUFFIX, Type.INT, d.ttlSeconds(), Range.atLeast(0), Importance.MEDIUM,
                        "Family TTL of " + table + " in seconds, counted from the event time (the cell timestamp); "
                                + "0 keeps cells forever. Applied to an existing table by `rowflow tables update`.")
                .define(table + CELL_TTL_MS_SUFFIX, Type.LONG, d.cellTtlMillis(), Range.atLeast(0), Importance.MEDIUM,
                        "Cell TTL in milliseconds set on every Put to " + table + " (Mutation#setTTL); 0 for none. "
                                + "Must not exceed the family TTL.")
                .define(table + MAX_VERSIONS_SUFFIX, Type.INT, d.maxVersions(), Range.atLeast(1), Importance.LOW,
                        "Versions kept per cell in " + table + ".")
                .define(table + MIN_VERSIONS_SUFFIX, Type.INT, d.minVersions(), Range.atLeast(0), Importance.LOW,
                        "Versions of " + table + " kept even past the TTL.")
                .define(table + BLOOM_SUFFIX, Type.STRING, d.bloom().name(),
                        ConfigDef.ValidString.in("NONE", "ROW", "ROWCOL"), Importance.LOW, "Bloom filter of " + table + ".")
                .define(table + COMPRESSION_SUFFIX, Type.STRING, d.compression().name(),
                        ConfigDef.ValidString.in("NONE", "GZ", "SNAPPY", "LZ4", "ZSTD"), Importance.LOW,
                        "Compression of " + table + "; codecs other than NONE and GZ need the servers' native libraries.")
                .define(table + BLOCK_SIZE_SUFFIX, Type.INT, d.blockSize(), Range.atLeast(1024), Importance.LOW,
                        "HFile block size of " + table + " in bytes.");
    }

    /**
     * The family settings configured for the table named by {@code table}.
     *
     * @param prefix what the keys of {@code config} carry in front of them in the file, for errors
     * @throws ConfigException naming both keys if the cell TTL outlives the family TTL or min
     *                         versions exceed max versions
     */
    static FamilySettings read(AbstractConfig config, String prefix, String table) {
        int ttlSeconds = config.getInt(table + TTL_SECONDS_SUFFIX);
        long cellTtl = config.getLong(table + CELL_TTL_MS_SUFFIX);
        if (ttlSeconds > 0 && cellTtl > ttlSeconds * 1000L) {
            throw new ConfigException(prefix + table + CELL_TTL_MS_SUFFIX, cellTtl, "longer than " + prefix + table
                    + TTL_SECONDS_SUFFIX + "=" + ttlSeconds + " s; HBase drops cells at the shorter of the two");
        }
        int maxVersions = config.getInt(table + MAX_VERSIONS_SUFFIX);
        int minVersions = config.getInt(table + MIN_VERSIONS_SUFFIX);
        if (minVersions > maxVersions) {
            throw new ConfigException(prefix + table + MIN_VERSIONS_SUFFIX, minVersions, "more than " + prefix + table
                    + MAX_VERSIONS_SUFFIX + "=" + maxVersions);
        }
        return new FamilySettings(ttlSeconds, cellTtl, maxVersions, minVersions,
                BloomType.valueOf(config.getString(table + BLOOM_SUFFIX)),
                Compression.Algorithm.valueOf(config.getString(table + COMPRESSION_SUFFIX)),
                config.getInt(table + BLOCK_SIZE_SUFFIX));
    }

    /**
     * Refuses, naming the key, a setting of the table named by {@code table} that {@code store}
     * cannot honour.
     */
    static void checkSupported(Store store, AbstractConfig config, String prefix, String table, String name) {
        try {
            TableAdmin.checkSupported(store, TableName.valueOf(name), read(config, prefix, table));
        } catch (UnsupportedSettingException e) {
            String key = table + SETTING_SUFFIXES.get(e.setting());
            throw new ConfigException(prefix + key, config.values().get(key), e.getMessage());
        }
    }
}
