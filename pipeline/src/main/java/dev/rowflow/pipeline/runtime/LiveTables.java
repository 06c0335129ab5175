package dev.rowflow.pipeline.runtime;

import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.Ingest;
import dev.rowflow.pipeline.ingest.IngestTable;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.sinks.rekey.RekeyCheckpoints;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The tables a reader reads once a re-key switched ({@code rowflow tables rekey}): where the
 * record in {@value RekeyCheckpoints#TABLE} says a configured table's rows now live in another
 * table of another layout, the configuration as if it named that table and layout -- so queries,
 * SQL views and index checks read the live table with the layout it records, before the
 * configuration itself is pointed at it.
 */
public final class LiveTables {
    private LiveTables() {
    }

    /**
     * {@code config} with the table and layout keys of each switched table of {@code plan} set to
     * the live table and its layout, each change told to {@code told} as
     * {@code logs_data -> logs_data_v2 (layout)}; {@code config} itself when nothing switched.
     */
    public static RowflowConfig following(RowflowConfig config, PipelinePlan plan, Connection connection,
                                          java.util.function.Consumer<String> told) throws IOException {
        Map<String, String> overrides = new LinkedHashMap<>();
        for (RekeyCheckpoints.Live live : RekeyCheckpoints.live(connection)) {
            if (live.state() != RekeyCheckpoints.State.SWITCHED) {
                continue;
            }
            for (Ingest ingest : plan.ingests()) {
                for (IngestTable table : ingest.tables()) {
                    if (table.definition().name().equals(live.source()) && table.tableKey() != null
                            && table.layoutKey() != null) {
                        overrides.put(table.tableKey(), live.target().getNameAsString());
                        overrides.put(table.layoutKey(), live.layout());
                        told.accept(live.source() + " -> " + live.target() + " (" + live.layout() + ")");
                    }
                }
            }
        }
        if (overrides.isEmpty()) {
            return config;
        }
        Map<String, Object> keys = new HashMap<>(config.originals());
        keys.putAll(overrides);
        return new RowflowConfig(keys);
    }
}
