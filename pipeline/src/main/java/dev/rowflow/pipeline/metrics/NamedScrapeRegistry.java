package dev.rowflow.pipeline.metrics;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The Prometheus registry behind {@link MetricsServer}'s Micrometer registry, whose scrape of a few
 * names ({@code /metrics?name[]=...}) collects only the meters of those names.
 *
 * <p>Micrometer registers one collector per meter name without telling the registry that name, so
 * the registry's own filtered scrape collects every meter -- each of Kafka's client gauges read
 * under its lock, each series labelled and sorted -- and then drops what was not asked. A poller
 * reading three counters a few times a second paid for all of it, and the JIT compiled the whole
 * scrape path for it. This registry learns each collector's names the first time it collects it in
 * a filtered scrape (a collector's names do not change: one meter name, its series named from it)
 * and skips a collector none of whose names is asked. A scrape of everything is the registry's own.
 */
final class NamedScrapeRegistry extends PrometheusRegistry {
    /** The collectors registered, each with the names its snapshots had, empty until it had any. */
    private final Map<MultiCollector, List<String>> collectors = new ConcurrentHashMap<>();
    /** Collectors of one metric each (Micrometer registers none), which name themselves. */
    private final Set<Collector> singles = ConcurrentHashMap.newKeySet();

    @Override
    public void register(Collector collector) {
        super.register(collector);
        singles.add(collector);
    }

    @Override
    public void unregister(Collector collector) {
        super.unregister(collector);
        singles.remove(collector);
    }

    @Override
    public void register(MultiCollector collector) {
        super.register(collector);
        collectors.put(collector, List.of());
    }

    @Override
    public void unregister(MultiCollector collector) {
        super.unregister(collector);
        collectors.remove(collector);
    }

    @Override
    public MetricSnapshots scrape(Predicate<String> includedNames) {
        if (includedNames == null) {
            return scrape();
        }
        MetricSnapshots.Builder result = MetricSnapshots.builder();
        for (Collector single : singles) {
            String name = single.getPrometheusName();
            MetricSnapshot snapshot = name == null || includedNames.test(name) ? single.collect(includedNames) : null;
            if (snapshot != null) {
                result.metricSnapshot(snapshot);
            }
        }
        for (Map.Entry<MultiCollector, List<String>> entry : collectors.entrySet()) {
            List<String> known = entry.getValue();
            if (!known.isEmpty() && known.stream().noneMatch(includedNames)) {
                continue;
            }
            List<String> names = new ArrayList<>();
            for (MetricSnapshot snapshot : entry.getKey().collect()) {
                String name = snapshot.getMetadata().getPrometheusName();
                names.add(name);
                if (includedNames.test(name)) {
                    result.metricSnapshot(snapshot);
                }
            }
            if (known.isEmpty() && !names.isEmpty()) {
                collectors.replace(entry.getKey(), known, List.copyOf(names));
            }
        }
        return result.build();
    }
}
