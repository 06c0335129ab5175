/**
 * The pipeline: Kafka Streams topologies that read events from Kafka and write their rows through
 * a {@link dev.rowflow.sinks.RowSink}, plus configuration, runtime and the {@code rowflow} CLI.
 *
 * <ul>
 *   <li>{@code config}: the keys, validated; no I/O.</li>
 *   <li>{@code ingest}: the ways in, built once per start into a {@code PipelinePlan} and its topology.</li>
 *   <li>{@code topology}: processors, error handlers, flush before commit (its package javadoc).</li>
 *   <li>{@code runtime}: a running rowflow, its connections and Streams properties.</li>
 *   <li>{@code registry}, {@code serde}, {@code metrics}, {@code cli}.</li>
 * </ul>
 */
package dev.rowflow.pipeline;
