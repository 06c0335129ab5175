package dev.rowflow.pipeline.topology;

import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.pipeline.ingest.Wiring;
import dev.rowflow.pipeline.runtime.StreamsProperties;
import dev.rowflow.sinks.RowSink;
import org.apache.kafka.streams.TopologyTestDriver;

import java.util.Map;

/**
 * The topology production runs for a configuration, with the production Streams properties, on
 * {@code TopologyTestDriver}: the plan built as {@code rowflow run} builds it, every ingest added by
 * {@link PipelinePlan#topology}, rows into {@code sink}.
 */
final class ProductionTopology {
    private ProductionTopology() {
    }

    /** @param partitions partitions by topic, as start-up looks them up (the customers topic's, for orders) */
    static TopologyTestDriver driver(RowflowConfig config, RowSink sink, Map<String, Integer> partitions) {
        PipelinePlan plan = PipelinePlan.build(config, null);
        return new TopologyTestDriver(plan.topology(new Wiring(() -> sink, new FlushBeforeCommit(), partitions)),
                StreamsProperties.of(plan));
    }
}
