package dev.rowflow.pipeline.ingest;

import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.HBaseConnections;
import dev.rowflow.pipeline.topology.Decision;
import dev.rowflow.sinks.hbase.RowLimits;
import org.apache.kafka.common.config.ConfigException;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What a suggested declaration makes of the records it was suggested from ({@code rowflow mapping
 * suggest}): the declaration compiled as {@code rowflow run} compiles it, and every sampled record
 * judged by {@link MappingCheck} -- the pipeline's own decision. The suggester never says itself
 * what a record becomes.
 */
public final class SuggestionCheck {
    private SuggestionCheck() {
    }

    /**
     * What the declaration makes of the sample.
     *
     * @param written      records with a value that would become rows or deletes
     * @param setAside     records with a value that would be set aside
     * @param tombstones   records without a value
     * @param tombstonesDo what they do: {@code ignored}, {@code set aside}, {@code deleting their row}
     */
    public record Verified(MappingCheck.Report report, long written, long setAside, long tombstones,
                           String tombstonesDo) {
    }

    /**
     * Compiles {@code declaration} (properties) over {@code config}'s settings, its declared inputs
     * replaced, and judges {@code sampled}, records of {@code topic}.
     *
     * @throws IllegalStateException if {@code rowflow run} would refuse the declaration: a bug of
     *                               the suggester, reported as such
     */
    public static Verified verify(Map<String, String> config, String declaration, String topic,
                                  List<MappingCheck.Sampled> sampled, UidResolver uids) {
        Properties suggested = new Properties();
        try {
            suggested.load(new StringReader(declaration));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> props = new HashMap<>(config);
        props.keySet().removeIf(key -> key.startsWith("input."));
        suggested.stringPropertyNames().forEach(key -> props.put(key, suggested.getProperty(key)));
        try {
            RowflowConfig run = new RowflowConfig(props);
            try (PipelinePlan plan = PipelinePlan.build(run, uids)) {
                MappingCheck check = new MappingCheck(topic, MappingCheck.inputsOf(plan, topic),
                        RowLimits.of(HBaseConnections.configuration(run)));
                long written = 0;
                long setAside = 0;
                long tombstones = 0;
                String tombstonesDo = "ignored";
                for (MappingCheck.Sampled record : sampled) {
                    for (MappingCheck.Verdict verdict : check.add(record)) {
                        if (record.value() == null) {
                            tombstones++;
                            tombstonesDo = verdict.deadLetter() != null ? "set aside" : verdict.judgement().decisions()
                                    .get(0) instanceof Decision.Delete ? "deleting their row" : "ignored";
                        } else if (verdict.deadLetter() != null) {
                            setAside++;
                        } else if (!verdict.judgement().unrouted()) {
                            written++;
                        }
                    }
                }
                return new Verified(check.report(), written, setAside, tombstones, tombstonesDo);
            }
        } catch (ConfigException e) {
            throw new IllegalStateException("the suggested declaration does not start: " + e.getMessage(), e);
        }
    }
}
