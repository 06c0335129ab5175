package dev.rowflow.pipeline.registry;

/**
 * The Schema Registry did not answer, so a record could not be read -- not the record's fault:
 * it is never set aside for this. Thrown only where waiting ended (the pipeline is closing, or a
 * start-up question went unanswered).
 */
public final class RegistryUnavailableException extends RuntimeException {
    public RegistryUnavailableException(String message) {
        super(message);
    }
}
