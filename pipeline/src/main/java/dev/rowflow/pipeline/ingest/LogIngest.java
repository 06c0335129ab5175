package dev.rowflow.pipeline.ingest;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.keying.log.LogColumns;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.keying.log.LogMapping;
import dev.rowflow.keying.log.LogSummary;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.MappingException;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.topology.Deletes;
import dev.rowflow.sinks.hbase.TableDefinition;
import org.apache.hadoop.hbase.TableName;
import org.apache.kafka.common.config.ConfigException;

import java.util.ArrayList;
import java.util.List;

/**
 * The log pipeline ({@code pipelines=logs}) as the declared input it is: the {@link LogMapping}
 * preset over {@code LogEvent}, with the layouts, index, rows-as-columns bucket and summary of the
 * {@code keying.layout.log.*}, {@code index.log.*}, {@code summary.log.*} and {@code table.log.*} keys.
 */
public final class LogIngest {
    private LogIngest() {
    }

    /**
     * The logs input as configured, whether or not {@code pipelines} runs it (the log queries read
     * its tables either way).
     *
     * @throws ConfigException naming the key of the piece at fault
     */
    public static DeclaredInput of(RowflowConfig config, UidResolver uids) {
        boolean writeIndex = config.getBoolean(RowflowConfig.LOG_INDEX_ENABLED_CONFIG);
        boolean summary = config.getBoolean(RowflowConfig.LOG_SUMMARY_ENABLED_CONFIG);
        long bucket = config.getInt(RowflowConfig.LOG_TIME_BUCKET_SECONDS_CONFIG) * 1000L;
        String data = config.getString(RowflowConfig.LOG_DATA_LAYOUT_CONFIG);
        String index = config.getString(RowflowConfig.LOG_INDEX_LAYOUT_CONFIG);
        EventMapping mapping = compile(config, uids, writeIndex, bucket, summary);
        // Verify and backfill rebuild index rows also where the pipeline writes none (seed 002, 1.9.2).
        EventMapping indexMapping = writeIndex || bucket > 0 ? mapping : compile(config, uids, true, 0, summary);

        List<IngestTable> tables = new ArrayList<>();
        if (summary) {
            tables.add(table(config, TableRole.LOG_SUMMARY, RowflowConfig.LOG_SUMMARY_TABLE_CONFIG, LogSummary.FAMILY,
                    new LogSummary().layout(), RowflowConfig.LOG_SUMMARY_TABLE_CONFIG));
        }
        tables.add(table(config, TableRole.LOG_DATA, RowflowConfig.LOG_DATA_TABLE_CONFIG, LogColumns.DATA_FAMILY,
                mapping.dataLayout(), RowflowConfig.LOG_DATA_LAYOUT_CONFIG));
        // The index table exists also while its rows are not dual-written: backfill writes them later.
        tables.add(table(config, TableRole.LOG_INDEX, RowflowConfig.LOG_INDEX_TABLE_CONFIG, LogColumns.INDEX_FAMILY,
                bucket > 0 ? RowKeyLayout.parse(index, uids) : indexMapping.tableLayouts().get(TableRole.LOG_INDEX),
                RowflowConfig.LOG_INDEX_LAYOUT_CONFIG));
        String topic = config.getString(RowflowConfig.LOGS_TOPIC_CONFIG);
        return new DeclaredInput(RowflowConfig.LOGS_PIPELINE, new Source(topic, RowflowConfig.LOGS_TOPIC_CONFIG,
                config.getString(RowflowConfig.LOGS_DEAD_LETTER_TOPIC_CONFIG), null), LogMapping.format(), mapping,
                indexMapping, tables, LogEventRows::checkFields, null, false, Deletes.none());
    }

    private static EventMapping compile(RowflowConfig config, UidResolver uids, boolean writeIndex, long bucket,
                                        boolean summary) {
        try {
            return EventMapping.compile(LogMapping.spec(config.getString(RowflowConfig.LOG_DATA_LAYOUT_CONFIG),
                    config.getString(RowflowConfig.LOG_INDEX_LAYOUT_CONFIG), writeIndex, bucket, summary)
                            .withTimestamps(config.timestampPolicy()), uids,
                    LogMapping.format()::cannotYield);
        } catch (MappingException e) {
            String key = switch (e.piece()) {
                case DATA_KEY -> RowflowConfig.LOG_DATA_LAYOUT_CONFIG;
                case INDEX_KEY -> RowflowConfig.LOG_INDEX_LAYOUT_CONFIG;
                // The preset's own time path, columns and summary are fixed: only the bucket can be at fault.
                default -> RowflowConfig.LOG_TIME_BUCKET_SECONDS_CONFIG;
            };
            throw new ConfigException(key, config.values().get(key), e.getMessage());
        }
    }

    private static IngestTable table(RowflowConfig config, TableRole role, String tableKey, byte[] family,
                                     RowKeyLayout layout, String layoutKey) {
        return new IngestTable(role, new TableDefinition(TableName.valueOf(config.getString(tableKey)), family,
                config.familySettings(tableKey), layout), tableKey, layoutKey);
    }

    /**
     * The log tables' layouts as {@link LogEventRows}, what the tools that
     * make log events by hand (demo, bench) key with.
     *
     * @param uids the UID store for uid parts, or null where none is connected
     */
    public static LogEventRows rows(RowflowConfig config, UidResolver uids) {
        return new LogEventRows(RowKeyLayout.parse(config.getString(RowflowConfig.LOG_DATA_LAYOUT_CONFIG), uids),
                RowKeyLayout.parse(config.getString(RowflowConfig.LOG_INDEX_LAYOUT_CONFIG), uids),
                config.getBoolean(RowflowConfig.LOG_INDEX_ENABLED_CONFIG),
                config.getInt(RowflowConfig.LOG_TIME_BUCKET_SECONDS_CONFIG) * 1000L);
    }
}
