/**
 * Kafka serdes: the Avro single-object encoding of rowflow's own events (log events, customers,
 * orders) and the serde that reads a declared input's records in its format. A value that cannot be
 * read throws, and the deserialization handler sets the record aside.
 */
package dev.rowflow.pipeline.serde;
