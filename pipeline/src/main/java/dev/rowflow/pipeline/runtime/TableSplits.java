package dev.rowflow.pipeline.runtime;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.DeclaredInput;
import dev.rowflow.pipeline.ingest.Ingest;
import dev.rowflow.pipeline.ingest.IngestTable;
import dev.rowflow.pipeline.ingest.MappingCheck;
import dev.rowflow.sinks.hbase.RowLimits;
import dev.rowflow.pipeline.runtime.TopicSample.From;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a table rowflow creates is pre-split, so that every table -- data, index and summary --
 * takes writes in several regions from its first row, not in one until it grows to the split
 * size.
 *
 * <ul>
 *   <li>A layout spread by design (a salt, a leading digest) splits at its own even points
 *       ({@link RowKeyLayout#defaultSplitPoints()}).</li>
 *   <li>Any other layout (a host-led index, a customer-led table) splits at the quantiles of the
 *       keys its input makes of a sample of the input topic's records: the last
 *       {@value RowflowConfig#TABLES_SPLIT_SAMPLE_RECORDS_CONFIG} records, spread over the
 *       partitions, read without a consumer group. Needs records in the topic: a table created
 *       before there are any stays one region (and is warned about).</li>
 *   <li>A layout led by the time (unsalted) is not split: every new row sorts after the last, so
 *       it writes into the last region whatever the split points; it is warned about.</li>
 * </ul>
 * Samples are read once per topic and the keys kept per table role; nothing is written.
 */
public final class TableSplits {
    /** Distinct sample keys wanted per region, so a region's share of the sample means something. */
    static final int KEYS_PER_REGION = 4;
    private static final Duration SAMPLE_TIMEOUT = Duration.ofSeconds(15);

    private final RowflowConfig config;
    private final int sampleRecords;
    private final int regions;
    /** A topic to sample instead of each input's own; empty for its own. */
    private final Optional<String> sampleTopic;
    /** Keys per ingest name and table role, from its sample. */
    private final Map<String, Map<TableRole, List<byte[]>>> sampled = new HashMap<>();

    /** How a table is to be split, or why it stays one region ({@code warning}). */
    public record Split(List<byte[]> points, String from, String warning) {
    }

    /**
     * @param sampleTopic a topic whose records stand for every input's (e.g. one with the same
     *                    records while the input topic is still empty); empty to sample each input's own
     */
    public TableSplits(RowflowConfig config, Optional<String> sampleTopic) {
        this.config = config;
        this.sampleRecords = config.getInt(RowflowConfig.TABLES_SPLIT_SAMPLE_RECORDS_CONFIG);
        this.regions = config.getInt(RowflowConfig.TABLES_SPLIT_REGIONS_CONFIG);
        this.sampleTopic = sampleTopic;
    }

    /** The split points of {@code table} of {@code ingest} if it were created now. */
    public Split of(Ingest ingest, IngestTable table) {
        RowKeyLayout layout = table.definition().layout();
        if (layout.spreadByDesign()) {
            return new Split(layout.defaultSplitPoints(), "its " + (layout.salt().width() > 0 ? "salt" : "leading digest"),
                    null);
        }
        String unspread = whyUnspread(ingest, table);
        if (!(ingest instanceof DeclaredInput input) || layout.parts().get(0).encoding().isTime()) {
            return new Split(List.of(), null, unspread);
        }
        String topic = sampleTopic.orElse(input.topic());
        List<byte[]> keys = sampledKeys(input, topic).getOrDefault(table.role(), List.of());
        List<byte[]> points = fromSample(regions, keys);
        if (points.isEmpty()) {
            return new Split(List.of(), null, "topic " + topic + " gave " + distinct(keys) + " distinct keys of it to "
                    + "split at (" + KEYS_PER_REGION + " per region needed); " + unspread);
        }
        return new Split(points, "the quantiles of " + distinct(keys) + " keys made of the last records of topic "
                + topic, null);
    }

    /**
     * Split points into at most {@code regions} regions at the quantiles of {@code sampleKeys},
     * fewer where the sample has fewer than {@value #KEYS_PER_REGION} distinct keys per region;
     * none (one region) below two such regions.
     */
    public static List<byte[]> fromSample(int regions, List<byte[]> sampleKeys) {
        int wanted = (int) Math.min(regions, distinct(sampleKeys) / KEYS_PER_REGION);
        return wanted < 2 ? List.of() : RowKeyLayout.splitPoints(wanted, sampleKeys);
    }

    private static long distinct(List<byte[]> keys) {
        return keys.stream().map(java.nio.ByteBuffer::wrap).distinct().count();
    }

    /**
     * Why a table of this layout would be one region unless split from sampled keys, and what to
     * do: for a layout led by the time nothing but a salt helps. Reads nothing.
     */
    public static String whyUnspread(Ingest ingest, IngestTable table) {
        RowKeyLayout layout = table.definition().layout();
        KeyPart lead = layout.parts().get(0);
        if (layout.spreadByDesign()) {
            return null;
        }
        if (lead.encoding().isTime()) {
            return "its keys lead with the time (" + lead.spec() + "), so every new row goes to the same region (the "
                    + "last, or for rts the first) whatever the split points; salt the layout (bucket(N) | ...) to "
                    + "spread writes";
        }
        String salt = "salt the layout (bucket(N,hash=" + lead.field() + ") | " + layout.spec() + ")";
        return ingest instanceof DeclaredInput
                ? "its keys (led by " + lead.spec() + ") are not spread by design; with records in topic "
                        + ((DeclaredInput) ingest).topic() + ", `rowflow tables create --sample-topic` creates it "
                        + "split at sampled keys (an existing table: split it in the HBase shell at the points of "
                        + "`rowflow keys splits --samples`), or " + salt
                : "its keys (led by " + lead.spec() + ") are not spread by design; split it in the HBase shell at the "
                        + "points of `rowflow keys splits --samples`, or " + salt;
    }

    private Map<TableRole, List<byte[]>> sampledKeys(DeclaredInput input, String topic) {
        return sampled.computeIfAbsent(input.name() + "\0" + topic, k -> {
            Map<TableRole, List<byte[]>> keys = new HashMap<>();
            if (sampleRecords == 0) {
                return keys;
            }
            MappingCheck check = new MappingCheck(topic, List.of(input),
                    RowLimits.of(HBaseConnections.configuration(config)))
                    .keysTo((role, key) -> keys.computeIfAbsent(role, r -> new ArrayList<>()).add(key));
            TopicSample.read(config, topic, sampleRecords, From.end, SAMPLE_TIMEOUT, record -> {
                try {
                    check.add(new MappingCheck.Sampled(record.partition(), record.offset(), record.timestamp(),
                            record.key(), record.value(), record.headers()));
                } catch (RuntimeException e) {
                    // A record the mapping cannot key here (e.g. a uid part's name not yet assigned): not a sample.
                }
            });
            return keys;
        });
    }
}
