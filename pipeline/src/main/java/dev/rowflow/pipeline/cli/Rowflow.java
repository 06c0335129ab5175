package dev.rowflow.pipeline.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code rowflow} command line. Subcommands: {@code run}, {@code config}, {@code keys}, {@code tables},
 * {@code index}, {@code query}, {@code mapping}; the demo artifact adds {@code demo} and {@code bench}.
 */
@Command(name = "rowflow",
        mixinStandardHelpOptions = true,
        versionProvider = RowflowVersion.class,
        description = "Kafka Streams ingestion of event streams into HBase tables with designed row keys.",
        subcommands = {RunCommand.class, ConfigCommand.class, KeysCommand.class, TablesCommand.class, IndexCommand.class,
                QueryCommand.class, MappingCommand.class, ReplayCommand.class, StatusCommand.class, CommandLine.HelpCommand.class})
public final class Rowflow {
    static final String VERBOSE = "--verbose";

    @Option(names = VERBOSE, scope = ScopeType.INHERIT,
            description = "On a failure, print the stack trace too (default: one line).")
    boolean verbose;

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

    /**
     * The command line with rowflow's exit-code and error-message conventions ({@link ErrorMessages}),
     * with {@code more} subcommands (the demo artifact's); every command answers {@code --version}.
     */
    public static CommandLine commandLine(Object... more) {
        CommandLine cli = new CommandLine(new Rowflow());
        for (Object subcommand : more) {
            cli.addSubcommand(subcommand);
        }
        ErrorMessages errors = new ErrorMessages();
        cli.setExecutionExceptionHandler(errors);
        cli.setParameterExceptionHandler(errors);
        cli.setExecutionStrategy(ErrorMessages::refuseUnmatchedThenRun);
        withVersion(cli, new RowflowVersion());
        return cli;
    }

    /** mixinStandardHelpOptions gives every subcommand -V, which prints nothing without a provider. */
    private static void withVersion(CommandLine cli, RowflowVersion version) {
        cli.getCommandSpec().versionProvider(version);
        cli.getSubcommands().values().forEach(sub -> withVersion(sub, version));
    }
}
