package dev.rowflow.pipeline;

/** Facts about this build of rowflow. */
public final class RowflowBuild {
    private RowflowBuild() {
    }

    /** The version from the pipeline jar's manifest, or "development" when run from classes. */
    public static String version() {
        String version = RowflowBuild.class.getPackage().getImplementationVersion();
        return version == null ? "development" : version;
    }
}
