package dev.rowflow.pipeline.cli;

import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;

/**
 * rowflow's exit codes and error messages, which scripts may rely on:
 * <ul>
 *   <li>0: done, and the answer is yes (a key decoded, an index clean);</li>
 *   <li>1: ran, and the answer is no (a key another layout wrote, index problems, a name with no
 *       UID), or failed on the way (a store not reachable);</li>
 *   <li>2: refused before doing anything: a usage error (an unknown option, a bad value) or a
 *       configuration error (the message names the key and the reason).</li>
 * </ul>
 * A refusal or failure is one line on stderr starting {@code rowflow: }; a usage error adds a
 * line pointing at the command's {@code --help} instead of printing the whole usage. A stack trace
 * only with {@code --verbose}.
 */
final class ErrorMessages implements IExecutionExceptionHandler, IParameterExceptionHandler {
    static final int NO = 1;
    static final int USAGE = 2;

    /**
     * Runs the command the line names -- unless a word of it names nothing. picocli lets
     * {@code --help} win over a word it could not match, so {@code rowflow tables nosuch --help}
     * would print the parent's help and exit 0; a misspelt command is refused instead (exit 2).
     */
    static int refuseUnmatchedThenRun(ParseResult parseResult) {
        for (ParseResult r = parseResult; r != null; r = r.subcommand()) {
            if (!r.unmatched().isEmpty()) {
                CommandLine cli = r.commandSpec().commandLine();
                String word = r.unmatched().get(0);
                if (!cli.getSubcommands().isEmpty() && !word.startsWith("-")) {
                    throw new ParameterException(cli, "unknown command '" + word + "' of "
                            + r.commandSpec().qualifiedName() + " (its commands: "
                            + String.join(", ", cli.getSubcommands().keySet()) + ")");
                }
                throw new UnmatchedArgumentException(cli, r.unmatched());
            }
        }
        return new CommandLine.RunLast().execute(parseResult);
    }

    @Override
    public int handleParseException(ParameterException e, String[] args) {
        CommandLine cli = e.getCommandLine();
        PrintWriter err = cli.getErr();
        err.println("rowflow: " + e.getMessage());
        UnmatchedArgumentException.printSuggestions(e, err);
        err.println("Try '" + cli.getCommandSpec().qualifiedName() + " --help' for more information.");
        if (verbose(cli.getParseResult()) && e.getCause() != null) {
            e.getCause().printStackTrace(err);
        }
        return USAGE;
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine cli, ParseResult parseResult) {
        PrintWriter err = cli.getErr();
        boolean verbose = verbose(parseResult);
        if (e instanceof ConfigException || e instanceof NoSuchFileException) {
            err.println("rowflow: configuration error: " + e.getMessage());
        } else {
            err.println("rowflow: " + cli.getCommandSpec().qualifiedName(" ").replaceFirst("^rowflow ", "")
                    + " failed: " + oneLine(e) + (verbose ? "" : " (--verbose prints the stack trace)"));
        }
        if (verbose) {
            e.printStackTrace(err);
        }
        return e instanceof ConfigException || e instanceof NoSuchFileException ? USAGE : NO;
    }

    /**
     * The messages of the exception and its causes on one line, each once (wrappers often repeat
     * their cause's); the class name only where no message says anything, which is a bug to report.
     */
    static String oneLine(Throwable e) {
        java.util.List<String> messages = new java.util.ArrayList<>();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage() == null ? null : t.getMessage().replaceAll("\\s*\\R\\s*", " ");
            if (message != null && messages.stream().noneMatch(m -> m.contains(message))) {
                messages.add(message);
            }
        }
        return messages.isEmpty() ? e.getClass().getName() : String.join(": ", messages);
    }

    /** Whether {@code --verbose} was given to any command on the line. */
    static boolean verbose(ParseResult parseResult) {
        for (ParseResult r = parseResult; r != null; r = r.subcommand()) {
            if (r.hasMatchedOption(Rowflow.VERBOSE)) {
                return true;
            }
        }
        return false;
    }
}
