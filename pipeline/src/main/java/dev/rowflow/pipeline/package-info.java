/**
 * The pipeline: Kafka Streams topologies that read events from Kafka and write their rows through
 * a {@link dev.rowflow.sinks.RowSink}, plus configuration, runtime and the {@code rowflow} CLI.
 *
 * <h2>Flush before commit</h2>
 * Kafka Streams commits a task's input offsets only after it has flushed the task's producer
 * ({@code StreamTask#prepareCommit} flushes the record collector, then the offsets are
 * committed): that is how it keeps at-least-once for its own output records. rowflow joins that
 * step instead of inventing one: {@link dev.rowflow.pipeline.topology.FlushBeforeCommit} supplies
 * the stream thread's producer, and that producer's {@code flush()} first flushes every HBase sink
 * of the thread. A sink flush that fails throws out of the commit; the thread is replaced and
 * re-reads from the last committed offsets, so every row is written at least once, and because
 * keys and cell timestamps are functions of the event, exactly once in effect.
 *
 * <p>(A custom state store's {@code flush()}/{@code commit()} hook is not enough here: in Kafka
 * Streams 4.x stores without a changelog are committed only at checkpoint time, after the
 * offsets.)
 */
package dev.rowflow.pipeline;
