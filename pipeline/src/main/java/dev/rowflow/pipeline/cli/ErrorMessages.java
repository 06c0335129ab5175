package dev.rowflow.pipeline.cli;

import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

import java.nio.file.NoSuchFileException;

/**
 * Turns a failed command into one line on stderr and an exit code: 2 for a configuration the
 * user can fix (the message names the key and the reason), 1 for everything else.
 */
final class ErrorMessages implements IExecutionExceptionHandler {
    static final int CONFIG_ERROR = 2;

    @Override
    public int handleExecutionException(Exception e, CommandLine cli, ParseResult parseResult) {
        if (e instanceof ConfigException || e instanceof NoSuchFileException) {
            cli.getErr().println("rowflow: configuration error: " + e.getMessage());
            return CONFIG_ERROR;
        }
        cli.getErr().println("rowflow: " + cli.getCommandName() + " failed: " + e);
        e.printStackTrace(cli.getErr());
        return 1;
    }
}
