package dev.rowflow.pipeline.ingest;

import dev.rowflow.keying.layout.UidResolver;

import java.util.Optional;

/**
 * A {@link UidResolver} bound after the plan is built: the plan is compiled (and a bad
 * configuration refused) before any connection is opened, and the UID store it needs, if any
 * layout has a uid part, is connected afterwards. Until {@link #bind} it refuses to resolve.
 */
public final class UidBinding implements UidResolver {
    private volatile UidResolver store;

    /** Resolves through {@code store} from now on. */
    public void bind(UidResolver store) {
        this.store = store;
    }

    @Override
    public long idOf(String kind, String name) {
        return bound().idOf(kind, name);
    }

    @Override
    public Optional<String> nameOf(String kind, long id) {
        return bound().nameOf(kind, id);
    }

    private UidResolver bound() {
        UidResolver bound = store;
        if (bound == null) {
            throw new IllegalStateException("no UID store is connected yet");
        }
        return bound;
    }
}
