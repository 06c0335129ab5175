/**
 * Keying: turns events into the rows rowflow writes, with deliberately designed row keys.
 *
 * <p>Everything here is pure: no Kafka, no hbase-client, no I/O. A {@link dev.rowflow.keying.Row}
 * is what one event contributes to one table (its key, its cells, its cell timestamp); the
 * sinks module turns rows into HBase mutations. Row keys are deterministic functions of the event,
 * never random and never round-robin, so replaying an event rewrites the same cells.
 *
 * <p>Each key codec's class javadoc is its format specification: byte layout, sort order and an
 * example. Those layouts reach disk; changing one makes existing tables unreadable.
 */
package dev.rowflow.keying;
