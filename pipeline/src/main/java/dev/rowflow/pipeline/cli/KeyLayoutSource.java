package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.DeclaredInput;
import dev.rowflow.pipeline.ingest.Ingest;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.pipeline.runtime.HBaseConnections;
import dev.rowflow.sinks.hbase.HBaseUidStore;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which layout a {@code rowflow keys} command works with: given with {@code --layout} (any layout:
 * its parts name the fields; with {@code --config} one an ingest of it could write), or a
 * declared input's key ({@code --input}, the log pipeline's is {@code logs}; with {@code --index}
 * an index's), or by default the data key of the first input the configuration declares (without
 * {@code --config}, the defaults': the log pipeline's). With {@code --config}, uid parts look
 * names up in the UID table (read, never written).
 */
final class KeyLayoutSource {
    /**
     * Without {@code --config}: the defaults, read only for their layouts. {@code keys} never
     * reaches Kafka; the bootstrap server is there because the configuration is incomplete without one.
     */
    private static final Map<String, String> DEFAULTS = Map.of(RowflowConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = {"-l", "--layout"}, paramLabel = "SPEC",
            description = "Key layout, any: its parts name the fields (with --config, one an input of the "
                    + "configuration could write). Default: the data key of the first input the configuration "
                    + "declares; without --config the log pipeline's default data key.")
    String layout;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "Properties file, as for `rowflow run` (ROWFLOW_CONFIG_* variables override it): the "
                    + "configured layouts, and the UID table for uid parts (read, never written).")
    Path configFile;

    @Option(names = "--input", paramLabel = "NAME",
            description = "A declared input (needs --config; the log pipeline's is logs): its data key, or with --index "
                    + "an index's key.")
    String input;

    @Option(names = "--index", paramLabel = "NAME", description = "Of --input's indexes, this one's key.")
    String index;

    private LazyUids uids;

    /**
     * The layout; {@code checkFields}: refuse a {@code --layout} no ingest of the configuration
     * given with {@code --config} could write, as {@code run} refuses it.
     */
    RowKeyLayout resolve(boolean checkFields) throws IOException {
        if (index != null && input == null) {
            throw usage("--index names an index of a declared input: give --input NAME too");
        }
        if (input != null && configFile == null) {
            throw usage("--input " + input + " needs the configuration that declares it: give --config FILE");
        }
        if (input != null && layout != null) {
            throw usage("--layout and --input both name a layout: give one");
        }
        RowflowConfig config = configFile != null ? new RowflowConfig(ConfigSources.load(configFile, System.getenv()))
                : new RowflowConfig(DEFAULTS);
        uids = new LazyUids(spec, configFile != null ? config : null);
        RowKeyLayout parsed = null;
        if (layout != null) {
            try {
                parsed = RowKeyLayout.parse(layout, uids);
            } catch (IllegalArgumentException e) {
                throw usage("--layout: " + e.getMessage());
            }
            // Without a configuration the layout is the whole truth: its parts name the fields.
            if (!checkFields || configFile == null) {
                return parsed;
            }
        }
        // The plan is closed at once: a layout needs neither the format nor a registry once compiled.
        try (PipelinePlan plan = PipelinePlan.build(config, uids)) {
            if (parsed != null) {
                return checkFields(plan, parsed);
            }
            String name = input != null ? input : plan.declaredInputNames().stream().findFirst().orElseThrow(() ->
                    usage("the configuration declares no input whose key to take: give --layout SPEC"));
            return declared(plan, name);
        }
    }

    /** The layout if some ingest of the plan could write it; else the first ingest's reason. */
    private RowKeyLayout checkFields(PipelinePlan plan, RowKeyLayout parsed) {
        IllegalArgumentException first = null;
        for (Ingest ingest : plan.ingests()) {
            try {
                ingest.checkKeyLayout(parsed);
                return parsed;
            } catch (IllegalArgumentException refused) {
                first = first == null ? refused : first;
            }
        }
        throw usage((first == null ? "the configuration runs no ingest" : first.getMessage())
                + "; a declared input's key: --config FILE --input NAME");
    }

    private RowKeyLayout declared(PipelinePlan plan, String name) {
        DeclaredInput declared = plan.declaredInput(name).orElseThrow(() -> usage("--input " + name
                + ": no such input in the configuration (inputs: " + plan.declaredInputNames() + ")"));
        if (index == null) {
            return declared.mapping().dataLayout();
        }
        TableRole role = declared.indexes().get(index);
        if (role == null) {
            throw usage("--index " + index + ": input " + name + " has the indexes "
                    + List.copyOf(declared.indexes().keySet()));
        }
        return declared.indexMapping().tableLayouts().get(role);
    }

    /** The name of an id in the UID table, if --config reaches one. */
    Optional<String> nameOf(String kind, long id) {
        return configFile != null ? uids.nameOf(kind, id) : Optional.empty();
    }

    void close() throws IOException {
        if (uids != null) {
            uids.close();
        }
    }

    ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /**
     * The UID table, connected on first use (a layout without uid parts never needs HBase) and
     * only read: `keys` never assigns an id.
     */
    private static final class LazyUids implements UidResolver {
        private final CommandSpec spec;
        private final RowflowConfig config;
        private Connection connection;
        private UidResolver store;

        LazyUids(CommandSpec spec, RowflowConfig config) {
            this.spec = spec;
            this.config = config;
        }

        @Override
        public long idOf(String kind, String name) {
            return store(kind, name).idOf(kind, name);
        }

        @Override
        public Optional<String> nameOf(String kind, long id) {
            return store(kind, String.valueOf(id)).nameOf(kind, id);
        }

        private UidResolver store(String kind, String name) {
            if (store == null) {
                if (config == null) {
                    throw new ParameterException(spec.commandLine(), "a uid part needs the UID table to turn " + kind
                            + " '" + name + "' into its id: give --config FILE (the table is read, never written)");
                }
                try {
                    connection = HBaseConnections.connect(config);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                store = new HBaseUidStore(connection, TableName.valueOf(config.getString(RowflowConfig.UID_TABLE_CONFIG)))
                        .lookupOnly();
            }
            return store;
        }

        void close() throws IOException {
            if (connection != null) {
                connection.close();
            }
        }
    }
}
