/**
 * Record formats: how an input's bytes become a {@link dev.rowflow.keying.format.ReadRecord} (JSON,
 * Avro single-object encoding; the Schema Registry's wire format lives in the pipeline, which owns
 * its HTTP client). A mapping never sees bytes, so a new format slots in here without touching a
 * mapping. Formats are thread-safe; {@link dev.rowflow.keying.format.RecordFormat#cannotYield} is
 * asked at start so a mapping over a field the format cannot have stops start-up.
 */
package dev.rowflow.keying.format;
