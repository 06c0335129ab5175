package dev.rowflow.pipeline.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code rowflow} command line. Subcommands: {@code run}, {@code config}, {@code keys}, {@code tables}, {@code index}; the demo artifact
 * adds {@code demo}.
 */
@Command(name = "rowflow",
        mixinStandardHelpOptions = true,
        versionProvider = RowflowVersion.class,
        description = "Kafka Streams ingestion of event streams into HBase tables with designed row keys.",
        subcommands = {RunCommand.class, ConfigCommand.class, KeysCommand.class, TablesCommand.class, IndexCommand.class,
                QueryCommand.class, CommandLine.HelpCommand.class})
public final class Rowflow {

    public static void main(String[] args) {
        routeJavaUtilLogging();
        // Exit explicitly: Kafka's and HBase's non-daemon threads would keep a failed JVM alive.
        System.exit(commandLine().execute(args));
    }

    /**
     * Sends java.util.logging (Google's Bigtable client uses it) into log4j, so it lands where
     * rowflow's own logs do instead of on stderr. Call first thing in main: the JDK reads the
     * property once, when logging first starts.
     */
    public static void routeJavaUtilLogging() {
        if (System.getProperty("java.util.logging.manager") == null) {
            System.setProperty("java.util.logging.manager", "org.apache.logging.log4j.jul.LogManager");
        }
    }

    /** The command line with rowflow's exit-code and error-message conventions. */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Rowflow());
        cli.setExecutionExceptionHandler(new ErrorMessages());
        return cli;
    }
}
