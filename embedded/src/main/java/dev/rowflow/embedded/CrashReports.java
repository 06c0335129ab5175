package dev.rowflow.embedded;

import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * Where the JVMs that tests and the demo start write a crash report (hs_err): where this JVM writes
 * its own. The build gives every test JVM {@code -XX:ErrorFile=<module>/target/jvm-crashes/...}, and
 * {@code .ci/run} prints every report found there, so a crash in a child is seen as one.
 */
public final class CrashReports {
    private static final String ERROR_FILE = "-XX:ErrorFile=";

    private CrashReports() {
    }

    /** This JVM's {@code -XX:ErrorFile} option, for a child's command line; none if it was not given one. */
    public static List<String> sameAsThisJvm() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(argument -> argument.startsWith(ERROR_FILE)).reduce((first, last) -> last)
                .map(List::of).orElse(List.of());
    }
}
