package dev.rowflow.pipeline.topology;

import dev.rowflow.sinks.RowSink;

import java.io.IOException;

/** Opens the {@link RowSink} of a stream thread (see {@link FlushBeforeCommit#open}). */
@FunctionalInterface
public interface SinkFactory {
    RowSink open() throws IOException;
}
