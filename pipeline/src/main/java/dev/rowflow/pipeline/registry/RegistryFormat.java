package dev.rowflow.pipeline.registry;

import dev.rowflow.keying.format.RecordFormat;

/** A format whose records carry a schema id of a Schema Registry: {@code avro-registry}, {@code protobuf-registry}, {@code json-schema-registry}. */
public interface RegistryFormat extends RecordFormat {

    /**
     * Registers the meters of input {@code input}'s registry client ({@code rowflow_registry_requests_total},
     * {@code rowflow_registry_waiting_threads}) and {@code rowflow_registry_cached_schemas{input}}.
     */
    void bindTo(io.micrometer.core.instrument.MeterRegistry meters, String input);
}
