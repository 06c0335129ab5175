/**
 * A running rowflow: {@link dev.rowflow.pipeline.runtime.RowflowPipeline} starts the plan's topology
 * in one Kafka Streams instance over one HBase connection ({@link
 * dev.rowflow.pipeline.runtime.HBaseConnections}), creates the tables and dead-letter topics, probes
 * HBase for readiness and commits before it leaves the group. {@link
 * dev.rowflow.pipeline.runtime.StreamsProperties} is the Streams configuration rowflow chooses,
 * which the user's {@code kafka.*} keys override.
 */
package dev.rowflow.pipeline.runtime;
