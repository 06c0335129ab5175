package dev.rowflow.demo;

import dev.rowflow.pipeline.cli.Rowflow;
import picocli.CommandLine;

/**
 * Entry point of the demo artifact: the production {@code rowflow} CLI plus {@code rowflow demo}.
 */
public final class RowflowDemo {
    private RowflowDemo() {
    }

    public static void main(String[] args) {
        // Before any logger exists: the demo's terminal is for progress, its logs go to a file.
        if (System.getProperty("log4j2.configurationFile") == null) {
            System.setProperty("log4j2.configurationFile", "rowflow-demo-log4j2.xml");
        }
        Rowflow.routeJavaUtilLogging();
        // HBase's shaded netty needs it on Java 17 (with the --add-opens of the jar manifest).
        System.setProperty("org.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible", "true");
        CommandLine cli = Rowflow.commandLine(new DemoCommand(), new BenchCommand());
        // Exit explicitly: Kafka's and HBase's non-daemon threads would keep the JVM alive.
        System.exit(cli.execute(args));
    }
}
