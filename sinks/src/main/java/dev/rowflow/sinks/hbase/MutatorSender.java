package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.TableRole;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;

import java.io.IOException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A table's {@link RowSender} through the store client's own {@link BufferedMutator}, with a
 * {@link TableSender} thread that sends from half a buffer or every period. On HBase the mutator
 * groups each send by region server and keeps up to {@code hbase.client.max.perserver.tasks}
 * requests per server on their way; on Bigtable it is Google's bulk-mutation batcher, with flow
 * control over several requests in flight.
 */
final class MutatorSender implements RowSender {
    private final BufferedMutator mutator;
    private final TableSender sender;

    /**
     * @param failures where a send failure goes; the sink throws it at its next write or flush
     * @param failed   whether such a failure is waiting to be thrown
     */
    MutatorSender(Connection connection, TableRole role, TableDefinition table, SinkSettings settings,
                  SinkMetrics metrics, Consumer<RetriesExhaustedWithDetailsException> failures,
                  BooleanSupplier failed) throws IOException {
        BufferedMutatorParams params = new BufferedMutatorParams(table.name())
                .listener((e, mutator) -> {
                    metrics.mutationsFailed(role, e.getNumExceptions());
                    failures.accept(e);
                });
        if (settings.writeBufferBytes() > 0) {
            params.writeBufferSize(settings.writeBufferBytes());
        }
        // Off even if hbase-site.xml sets it: the client's timer flush would race the commit's
        // flush (see TableSender); the sender is the periodic flush.
        params.setWriteBufferPeriodicFlushTimeoutMs(0);
        // The sink checked every cell against hbase.client.keyvalue.maxsize before any row of its
        // event was written (HBaseRowSink.check: an event with a cell too large is set aside
        // whole); the mutator would walk every cell of every Put again to check the same.
        params.maxKeyValueSize(0);
        this.mutator = connection.getBufferedMutator(params);
        if (settings.periodicFlushMillis() > 0) {
            long wakeBytes = (settings.writeBufferBytes() > 0 ? settings.writeBufferBytes()
                    : mutator.getWriteBufferSize()) / 2;
            sender = new TableSender(role, mutator, wakeBytes, settings.periodicFlushMillis(), failed, metrics,
                    "rowflow-sink-sender-" + Thread.currentThread().getName() + "-" + table.name().getNameAsString());
            sender.start();
        } else {
            sender = null;
        }
    }

    @Override
    public void send(Put put, long bytes) throws IOException {
        mutator.mutate(put);
        if (sender != null) {
            sender.written(bytes);
        }
    }

    @Override
    public void flush() throws IOException {
        if (sender != null) {
            sender.flushAll();
        } else {
            mutator.flush();
        }
    }

    @Override
    public void stopSending() {
        if (sender != null) {
            sender.stopSending();
        }
    }

    @Override
    public void close() throws IOException {
        mutator.close();
    }
}
