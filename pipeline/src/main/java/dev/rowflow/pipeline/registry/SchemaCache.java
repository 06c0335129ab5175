package dev.rowflow.pipeline.registry;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a registry format built of each schema id it met (a reader, a descriptor, a validator),
 * kept so that each id is fetched and built once: at most {@code capacity} ids, past that the
 * one fetched first is dropped (and fetched again when met). Thread-safe; two threads meeting a
 * new id at once may both build it, and one of the two is kept.
 */
final class SchemaCache<T> {
    private final int capacity;
    private final ConcurrentHashMap<Integer, T> byId = new ConcurrentHashMap<>();
    private final ArrayDeque<Integer> fetchOrder = new ArrayDeque<>();

    SchemaCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("cache capacity " + capacity + ": at least 1 schema id");
        }
        this.capacity = capacity;
    }

    /** What was built of {@code id}, or null. */
    T get(int id) {
        return byId.get(id);
    }

    /** Keeps {@code built} for {@code id} unless another thread kept one first; returns the one kept. */
    T keep(int id, T built) {
        synchronized (fetchOrder) {
            T kept = byId.putIfAbsent(id, built);
            if (kept != null) {
                return kept;
            }
            fetchOrder.addLast(id);
            while (fetchOrder.size() > capacity) {
                byId.remove(fetchOrder.removeFirst());
            }
            return built;
        }
    }

    /**
     * Registers the meters of input {@code input}'s registry client and
     * {@code rowflow_registry_cached_schemas{input}}, the schema ids held now.
     */
    void bindTo(io.micrometer.core.instrument.MeterRegistry meters, SchemaRegistryClient registry, String input) {
        registry.bindTo(meters, input);
        io.micrometer.core.instrument.Gauge.builder("rowflow.registry.cached.schemas", byId, Map::size)
                .tag("input", input).description("Writer schemas held, by id (at most registry.cache.ids)")
                .register(meters);
    }
}
