package dev.rowflow.embedded;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that hands test classes one {@link EmbeddedStack} per test JVM: started by the
 * first class that asks for it, closed when the whole run ends. A stack takes about 11 s to start,
 * so integration tests share it and keep apart by their own topic, group and table names.
 *
 * <pre>
 * &#64;ExtendWith(EmbeddedStackExtension.class)
 * class SomethingIT {
 *     &#64;BeforeAll
 *     static void stack(EmbeddedStack stack) { ... }
 * }
 * </pre>
 * A test that stops or breaks parts of the stack must start its own instead.
 */
public final class EmbeddedStackExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(EmbeddedStackExtension.class);

    /**
     * Skips the calling test (or parameterized class invocation) with a message saying how to get
     * the store when it cannot run on this machine: the Bigtable emulator is an optional part.
     */
    public static void assumeStoreAvailable(String store) {
        if (store.equals("bigtable")) {
            Assumptions.assumeTrue(EmbeddedBigtable.findEmulator().isPresent(),
                    "skipped on store bigtable: " + EmbeddedBigtable.HOW_TO_GET_IT);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == EmbeddedStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        // The root context's store lives for the whole run and closes what it holds at its end.
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(Shared.class, key -> new Shared(EmbeddedStack.start()), Shared.class)
                .stack;
    }

    private record Shared(EmbeddedStack stack) implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        @Override
        public void close() {
            stack.close();
        }
    }
}
