package dev.rowflow.pipeline.cli;

import dev.rowflow.pipeline.RowflowBuild;
import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the version from the jar manifest ({@link RowflowBuild#version()}). */
public final class RowflowVersion implements IVersionProvider {
    public static String version() {
        return RowflowBuild.version();
    }

    @Override
    public String[] getVersion() {
        return new String[] {"rowflow " + version()};
    }
}
