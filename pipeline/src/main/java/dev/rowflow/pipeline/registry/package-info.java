/**
 * The Schema Registry: a client of the Confluent-compatible API (Confluent, Karapace, Redpanda,
 * Apicurio's ccompat) with failover, basic auth and TLS, that waits out an unavailable registry
 * rather than setting records aside, and the Avro format of the registry's wire format (magic byte
 * 0, 4-byte schema id).
 */
package dev.rowflow.pipeline.registry;
