/**
 * The processors and topologies the ingests add themselves with ({@link
 * dev.rowflow.pipeline.topology.InputTopology}, {@link dev.rowflow.pipeline.topology.JoinTopology}),
 * the error handlers that send bad records to their dead-letter topics, and the tie between the
 * sinks and Kafka Streams' commit.
 *
 * <h2>Flush before commit</h2>
 * Kafka Streams commits a task's input offsets only after it has flushed the task's producer
 * ({@code StreamTask#prepareCommit} flushes the record collector, then the offsets are
 * committed): that is how it keeps at-least-once for its own output records. rowflow joins that
 * step instead of inventing one: {@link dev.rowflow.pipeline.topology.FlushBeforeCommit} supplies
 * the stream thread's producer, and that producer's {@code flush()} first flushes every HBase sink
 * of the thread. A sink flush that fails throws out of the commit; the thread is replaced and
 * re-reads from the last committed offsets, so every row is written at least once, and because
 * keys and cell timestamps are functions of the event, exactly once in effect. Under
 * {@code exactly_once_v2} -- which pipelines with a join run, see {@link
 * dev.rowflow.pipeline.topology.JoinTopology} -- the same flush comes before the transaction's
 * commit, and a crash restores the state stores to that commit too.
 *
 * <p>(A custom state store's {@code flush()}/{@code commit()} hook is not enough here: in Kafka
 * Streams 4.x stores without a changelog are committed only at checkpoint time, after the
 * offsets.)
 *
 * <h2>Bad records</h2>
 * A record that cannot be read, mapped or keyed is the record's fault: it goes to its input's
 * dead-letter topic unchanged, with headers saying why ({@link
 * dev.rowflow.pipeline.topology.RecordErrorHandler}). A failing HBase is the system's fault: the
 * task fails and the records are read again, never set aside.
 */
package dev.rowflow.pipeline.topology;
