package dev.rowflow.keying.layout;

import java.util.NoSuchElementException;

/**
 * A read asked for a name that has no UID: no row can hold it. Thrown by look-up-only resolvers,
 * so a query for an unknown host finds nothing instead of assigning the host an id.
 */
public final class UnknownNameException extends NoSuchElementException {
    public UnknownNameException(String kind, String name) {
        super("no " + kind + " named '" + name + "' has ever been written (no UID for it)");
    }
}
