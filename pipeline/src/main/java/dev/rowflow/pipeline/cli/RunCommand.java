package dev.rowflow.pipeline.cli;

import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.metrics.MetricsServer;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** Runs the log pipeline against an external Kafka and HBase until SIGTERM or Ctrl-C. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run the pipeline against external Kafka and HBase until stopped (SIGTERM, Ctrl-C).",
                "Configuration: the properties file, overridden by ROWFLOW_CONFIG_* environment variables;"
                        + " `rowflow config` lists the keys."})
final class RunCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "Properties file with rowflow's keys (optional when every required key comes from the environment).")
    Path configFile;

    @Override
    public Integer call() throws Exception {
        RowflowConfig config = new RowflowConfig(ConfigSources.load(configFile, System.getenv()));
        try (MetricsServer metrics = MetricsServer.start(config.getInt(RowflowConfig.METRICS_PORT_CONFIG))) {
            RowflowPipeline pipeline = RowflowPipeline.start(config, metrics.registry());
            metrics.readiness(pipeline::ready);
            LOG.info("rowflow {} running; metrics on port {}", RowflowVersion.version(), metrics.port());

            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                LOG.info("stopping: committing and closing the streams");
                pipeline.close();
            }, "rowflow-shutdown"));
            pipeline.awaitTermination();
            return pipeline.state() == KafkaStreams.State.ERROR ? 1 : 0;
        }
    }
}
