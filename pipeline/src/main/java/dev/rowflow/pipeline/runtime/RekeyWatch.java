package dev.rowflow.pipeline.runtime;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.KeyTranslation;
import dev.rowflow.keying.mapping.StoredColumns;
import dev.rowflow.pipeline.ingest.DeclaredInput;
import dev.rowflow.pipeline.ingest.Ingest;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.pipeline.topology.StatusEvents;
import dev.rowflow.sinks.hbase.TableDefinition;
import dev.rowflow.sinks.rekey.LiveRekeys;
import dev.rowflow.sinks.rekey.RekeyCheckpoints;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps a running pipeline's {@link LiveRekeys} in step with the re-keys recorded in
 * {@value RekeyCheckpoints#TABLE} ({@code rowflow tables rekey}), and confirms for each that this
 * instance writes both tables: its stream threads' consumers are acknowledged once every row they
 * wrote before the re-key was seen is flushed -- each thread committed since, or had nothing
 * unflushed at two checks in a row (an idle thread commits nothing). Until every member of the
 * group confirmed, the copy does not begin: a row written to the old table only is in the old
 * table when the copy reads it.
 */
final class RekeyWatch {
    /** A data table of a declared input, which a re-key may name. */
    private record Source(TableRole role, TableDefinition table, EventMapping mapping) {
    }

    private final Connection hbase;
    private final Map<TableName, Source> sources;
    private final LiveRekeys rekeys;
    private final UidResolver uids;
    /** When this instance first saw each re-key (by target), and the re-keys it confirmed. */
    private final Map<TableName, Long> seenAt = new ConcurrentHashMap<>();
    private final Set<TableName> confirmed = ConcurrentHashMap.newKeySet();
    /** Threads whose sink had nothing unflushed at the last check, by re-key target. */
    private final Map<TableName, Set<String>> idleBefore = new ConcurrentHashMap<>();

    private RekeyWatch(Connection hbase, Map<TableName, Source> sources, LiveRekeys rekeys, UidResolver uids) {
        this.hbase = hbase;
        this.sources = sources;
        this.rekeys = rekeys;
        this.uids = uids;
    }

    static RekeyWatch of(PipelinePlan plan, Connection hbase, LiveRekeys rekeys, UidResolver uids) {
        Map<TableName, Source> sources = new HashMap<>();
        for (Ingest ingest : plan.ingests()) {
            if (ingest instanceof DeclaredInput input) {
                TableRole role = input.mapping().spec().dataTable();
                TableDefinition table = plan.table(role).definition();
                sources.put(table.name(), new Source(role, table, input.mapping()));
            }
        }
        return new RekeyWatch(hbase, sources, rekeys, uids);
    }

    /** Reads the recorded re-keys of this pipeline's tables into the sinks' {@link LiveRekeys}. */
    void refresh() throws IOException {
        Map<TableRole, LiveRekeys.Target> targets = new HashMap<>();
        for (RekeyCheckpoints.Live live : RekeyCheckpoints.live(hbase)) {
            Source source = sources.get(live.source());
            if (source == null) {
                continue;
            }
            RowKeyLayout layout = RowKeyLayout.parse(live.layout(), uids);
            KeyTranslation translation = KeyTranslation.of(source.table().layout(), layout,
                    StoredColumns.fieldCells(source.mapping()), source.mapping().spec().timePath());
            TableRole role = TableRole.of(source.role().name() + "->" + live.target().getNameAsString());
            targets.put(source.role(), new LiveRekeys.Target(role, new TableDefinition(live.target(),
                    source.table().family(), source.table().settings(), layout), translation,
                    live.state() == RekeyCheckpoints.State.SWITCHED));
            seenAt.putIfAbsent(live.target(), System.currentTimeMillis());
        }
        rekeys.set(targets);
    }

    /** Confirms the re-keys every local stream thread has flushed for since it saw them (see the class). */
    void confirm(KafkaStreams streams, StatusEvents events, MeterRegistry registry) throws IOException {
        for (LiveRekeys.Target target : rekeys.targets().values()) {
            TableName name = target.table().name();
            if (confirmed.contains(name)) {
                continue;
            }
            long seen = seenAt.get(name);
            List<String> clients = new ArrayList<>();
            Set<String> idleNow = new HashSet<>();
            boolean all = true;
            for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
                clients.add(thread.consumerClientId());
                Gauge unflushed = registry.find("rowflow.sink.unflushed.bytes").tag("thread", thread.threadName()).gauge();
                if (unflushed == null || unflushed.value() == 0) {
                    idleNow.add(thread.threadName());
                }
                Optional<java.time.Instant> committed = events.lastCommit(thread.threadName());
                boolean flushedSince = committed.isPresent() && committed.get().toEpochMilli() > seen;
                boolean idle = idleNow.contains(thread.threadName())
                        && idleBefore.getOrDefault(name, Set.of()).contains(thread.threadName());
                all &= flushedSince || idle;
            }
            idleBefore.put(name, idleNow);
            if (all && !clients.isEmpty()) {
                RekeyCheckpoints.ack(hbase, sourceOf(target), name, clients);
                confirmed.add(name);
            }
        }
    }

    private TableName sourceOf(LiveRekeys.Target target) {
        return rekeys.targets().entrySet().stream().filter(e -> e.getValue() == target)
                .map(e -> sources.values().stream().filter(s -> s.role() == e.getKey()).findFirst().orElseThrow().table().name())
                .findFirst().orElseThrow();
    }
}
