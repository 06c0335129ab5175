package dev.rowflow.deploy;

/** The header of the plain Kubernetes manifests generated from the chart. */
final class PlainManifests {
    static final String HEADER = """
            # GENERATED from helm/rowflow with its default values -- do not edit.
            # For users without Helm: kubectl create namespace ingest && kubectl apply -n ingest -f deploy/kubernetes/rowflow.yaml
            # (then edit the ConfigMap's kafka.bootstrap.servers and hbase.zookeeper.quorum).
            # Regenerate: mvn -pl deploy test -Dtest=ChartTest -Drowflow.regenerate=true
            """;

    private PlainManifests() {
    }
}
