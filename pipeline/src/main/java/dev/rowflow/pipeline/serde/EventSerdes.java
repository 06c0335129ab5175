package dev.rowflow.pipeline.serde;

import dev.rowflow.events.LogEvent;

/** The serdes of rowflow's input topics. */
public final class EventSerdes {
    private EventSerdes() {
    }

    /** {@link LogEvent} values in single-object encoding, current schema version. */
    public static SingleObjectAvroSerde<LogEvent> logEvents() {
        return new SingleObjectAvroSerde<>(LogEvent.getEncoder(), LogEvent.getDecoder());
    }
}
