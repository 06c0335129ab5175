/**
 * Sinks: writes the {@link dev.rowflow.keying.Row rows} keying produced to HBase-API tables.
 *
 * <p>A {@link dev.rowflow.sinks.RowSink} buffers rows and makes them durable only on
 * {@link dev.rowflow.sinks.RowSink#flush()}. The pipeline calls {@code flush()} before Kafka
 * commits the offsets of the records those rows came from, and a flush that fails throws, which
 * fails the commit: the records are processed again instead of being skipped. Because row keys
 * and cell timestamps are functions of the event, processing a record again rewrites the same
 * cells, so a replay neither loses nor doubles a row.
 */
package dev.rowflow.sinks;
