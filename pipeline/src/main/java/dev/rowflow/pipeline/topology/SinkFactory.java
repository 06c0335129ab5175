package dev.rowflow.pipeline.topology;

import dev.rowflow.sinks.RowSink;

import java.io.IOException;

/** Opens one {@link RowSink} per stream task. */
@FunctionalInterface
public interface SinkFactory {
    RowSink open() throws IOException;
}
