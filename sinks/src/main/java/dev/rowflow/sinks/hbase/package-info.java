/**
 * The HBase implementation of {@link dev.rowflow.sinks.RowSink} and the tables it writes.
 *
 * <p>{@link dev.rowflow.sinks.hbase.HBaseRowSink} holds one {@code TableWriter} per table (its
 * {@code BufferedMutator}, cell TTL and pending counts) and one {@code TableSender} thread per table
 * that sends while the stream thread writes; the sender's javadoc states the invariants that keep
 * flush-before-commit true. {@link dev.rowflow.sinks.hbase.IdempotentCounters} applies summary
 * counters exactly once in effect; {@link dev.rowflow.sinks.hbase.DualWriteIndex} verifies and
 * backfills index rows; {@link dev.rowflow.sinks.hbase.TableAdmin} creates tables with their
 * families and pre-splits, or checks that existing ones match their declared layout.
 */
package dev.rowflow.sinks.hbase;
