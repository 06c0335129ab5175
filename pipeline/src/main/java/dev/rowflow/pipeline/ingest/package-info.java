/**
 * The ways in: what reads topics and makes rows, one {@link dev.rowflow.pipeline.ingest.Ingest}
 * each, and the {@link dev.rowflow.pipeline.ingest.PipelinePlan} that builds them once from the
 * configuration.
 *
 * <ul>
 *   <li>{@link dev.rowflow.pipeline.ingest.DeclaredInput}: a topic, a format and a mapping,
 *       possibly joining another input's rows. Every {@code input.<name>.*} declaration is one,
 *       and so are the pipelines: the log pipeline (the {@code LogMapping} preset over
 *       {@code LogEvent}, {@link dev.rowflow.pipeline.ingest.LogIngest}) and the orders pipeline
 *       (the {@code OrderMapping} presets over {@code Customer} and {@code Order}, orders joining
 *       customers: the order designs of seed 002, 1.11.3, {@link
 *       dev.rowflow.pipeline.ingest.OrderIngest}).</li>
 * </ul>
 *
 * <p>Contracts: an ingest knows its source topics and their dead-letter topics, its tables (with
 * the configuration key behind each table and each layout, so a refusal names the key), and adds
 * itself to a topology without I/O. Runtime, {@code StreamsProperties}, {@code tables},
 * {@code index}, {@code query} and {@code keys} iterate the plan's ingests; nothing outside this
 * package branches on a kind of ingest. A new way in is a new {@code Ingest} here and a line in
 * {@link dev.rowflow.pipeline.ingest.PipelinePlan#build}.
 */
package dev.rowflow.pipeline.ingest;
