package dev.rowflow.keying.layout;

import java.util.Optional;

/**
 * Numeric substitution of names (seed 002, 1.11.1.4; OpenTSDB's {@code UniqueId}): each distinct
 * name of a kind (a hostname, an event type) gets a fixed 8-byte id, assigned once and never
 * reused, so keys stay short and fixed-width. Implementations must be safe for concurrent use and
 * return the same id for a name forever, across processes.
 */
public interface UidResolver {

    /** The id of {@code name}, assigning the next free one the first time a name is seen. */
    long idOf(String kind, String name);

    /** The name that {@code id} was assigned to, if any. */
    Optional<String> nameOf(String kind, long id);
}
