/**
 * The HBase implementation of {@link dev.rowflow.sinks.RowSink}: one {@code BufferedMutator} per
 * table, and the creation of the tables with their families and pre-splits.
 */
package dev.rowflow.sinks.hbase;
