package dev.rowflow.pipeline.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar manifest, or "development" when run from classes. */
public final class RowflowVersion implements IVersionProvider {
    public static String version() {
        String version = Rowflow.class.getPackage().getImplementationVersion();
        return version == null ? "development" : version;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"rowflow " + version()};
    }
}
