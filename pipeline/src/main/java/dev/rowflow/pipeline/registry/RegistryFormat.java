package dev.rowflow.pipeline.registry;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.keying.mapping.FieldPath;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A format of records in the Schema Registry wire format -- {@code avro-registry},
 * {@code protobuf-registry}, {@code json-schema-registry} -- whose every serializer writes the
 * same header before the body:
 * <pre>
 * byte 0      magic byte, 0
 * bytes 1-4   schema id, big-endian, as the registry assigned it
 * </pre>
 * What a format builds of a schema id (a reader, descriptors, a validator: {@link #build}) is
 * kept so that each id is fetched and built once: at most {@code cacheCapacity} ids, past that the
 * one fetched first is dropped (and fetched again when met). Two threads meeting a new id at once
 * may both build it; one of the two is kept.
 *
 * @param <T> what the format builds of a schema
 */
public abstract class RegistryFormat<T> implements RecordFormat {
    /** The length of the header. */
    protected static final int HEADER = 5;
    private static final byte MAGIC = 0;

    protected final SchemaRegistryClient registry;
    private final String name;
    private final int cacheCapacity;
    private final ConcurrentHashMap<Integer, T> built = new ConcurrentHashMap<>();
    private final ArrayDeque<Integer> fetchOrder = new ArrayDeque<>();

    protected RegistryFormat(String name, SchemaRegistryClient registry, int cacheCapacity) {
        if (cacheCapacity < 1) {
            throw new IllegalArgumentException("cache capacity " + cacheCapacity + ": at least 1 schema id");
        }
        this.name = name;
        this.registry = registry;
        this.cacheCapacity = cacheCapacity;
    }

    @Override
    public final String name() {
        return name;
    }

    /**
     * The schema id of a record, after checking its header.
     *
     * @throws InvalidEventException naming the first bytes in hex if the record is too short or
     *                               does not start with the magic byte
     */
    protected static int schemaId(byte[] bytes) {
        if (bytes.length < HEADER || bytes[0] != MAGIC) {
            throw new InvalidEventException(Refusal.UNREADABLE,
                    "value", hex(bytes), "is not in the Schema Registry wire format: it "
                    + (bytes.length < HEADER ? "has " + bytes.length + " bytes, fewer than the 5 of its header"
                    : "starts with 0x" + String.format("%02X", bytes[0] & 0xFF) + " where the magic byte 0 is expected"));
        }
        return ((bytes[1] & 0xFF) << 24) | ((bytes[2] & 0xFF) << 16) | ((bytes[3] & 0xFF) << 8) | (bytes[4] & 0xFF);
    }

    /** What {@link #build} made of schema {@code id}, built at its first record. */
    protected final T schema(int id) {
        T kept = built.get(id);
        if (kept != null) {
            return kept;
        }
        T made = build(id);
        synchronized (fetchOrder) {
            kept = built.putIfAbsent(id, made);
            if (kept != null) {
                return kept;
            }
            fetchOrder.addLast(id);
            while (fetchOrder.size() > cacheCapacity) {
                built.remove(fetchOrder.removeFirst());
            }
            return made;
        }
    }

    /**
     * Fetches schema {@code id} (waiting while the registry is unavailable) and builds what the
     * format reads its records with.
     *
     * @throws InvalidEventException if the id is unknown or its schema is not one the format reads
     */
    protected abstract T build(int id);

    /**
     * Schema {@code id} of type {@code type} ({@code PROTOBUF}, {@code JSON}; {@code kind} says it
     * in a reason) with the schemas it refers to ({@link SchemaRegistryClient#referencesOf}).
     *
     * @throws InvalidEventException if the registry does not know the id or a reference, or the
     *                               schema is of another type
     */
    protected final Fetched fetch(int id, String type, String kind) {
        SchemaRegistryClient.RegisteredSchema schema = registry.registeredById(id).orElseThrow(() ->
                new InvalidEventException(Refusal.UNREADABLE,
                        "value", "schema id " + id, "names a schema the registry does not know (404)"));
        if (!schema.type().equals(type)) {
            throw new InvalidEventException(Refusal.UNREADABLE,
                    "value", "schema id " + id, "is a " + schema.type() + " schema, format "
                    + name + " reads " + kind);
        }
        try {
            return new Fetched(schema, registry.referencesOf(schema));
        } catch (IllegalArgumentException e) {
            throw new InvalidEventException(Refusal.UNREADABLE, "value", "schema id " + id, e.getMessage());
        }
    }

    /** A schema and those it refers to, by the names it refers to them by. */
    protected record Fetched(SchemaRegistryClient.RegisteredSchema schema,
                             Map<String, SchemaRegistryClient.RegisteredSchema> references) {
    }

    /** No path is checked at start: each record is read with its own schema. */
    @Override
    public Optional<String> cannotYield(FieldPath path) {
        return Optional.empty();
    }

    /** Ends any wait for the registry. */
    @Override
    public void close() {
        registry.close();
    }

    /**
     * Registers the meters of input {@code input}'s registry client ({@code rowflow_registry_requests_total},
     * {@code rowflow_registry_waiting_threads}) and {@code rowflow_registry_cached_schemas{input}},
     * the schema ids held now.
     */
    public final void bindTo(io.micrometer.core.instrument.MeterRegistry meters, String input) {
        registry.bindTo(meters, input);
        io.micrometer.core.instrument.Gauge.builder("rowflow.registry.cached.schemas", built, Map::size)
                .tag("input", input).description("Writer schemas held, by id (at most registry.cache.ids)")
                .register(meters);
    }

    private static String hex(byte[] bytes) {
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < Math.min(bytes.length, 16); i++) {
            hex.append(String.format("%02X", bytes[i] & 0xFF));
        }
        return hex + (bytes.length > 16 ? "... (" + bytes.length + " bytes)" : "");
    }
}
