package dev.rowflow.pipeline.cli;

import dev.rowflow.pipeline.config.ConfigSources;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.pipeline.ingest.UidBinding;
import dev.rowflow.pipeline.metrics.MetricsServer;
import dev.rowflow.pipeline.runtime.RowflowPipeline;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import sun.misc.Signal;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the log pipeline against an external Kafka and HBase until SIGTERM or Ctrl-C (SIGINT).
 *
 * <p>Exit status: 0 when stopped by a signal after committing (what Kubernetes expects of a pod it
 * stops), 1 when the streams failed on their own, 2 for a configuration it refuses.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run the pipeline against external Kafka and HBase until stopped (SIGTERM, Ctrl-C);"
                + " a stop commits what was written and exits 0.",
                "Configuration: the properties file, overridden by ROWFLOW_CONFIG_* environment variables;"
                        + " `rowflow config` lists the keys."})
final class RunCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "Properties file with rowflow's keys (optional when every required key comes from the environment).")
    Path configFile;

    @Override
    public Integer call() throws Exception {
        long called = System.currentTimeMillis();
        RowflowConfig config = new RowflowConfig(ConfigSources.load(configFile, System.getenv()));
        // A configuration refused as a whole is refused before a port is taken or anything connected.
        UidBinding uids = new UidBinding();
        PipelinePlan plan = PipelinePlan.build(config, uids);
        long planned = System.currentTimeMillis();
        try (MetricsServer metrics = MetricsServer.start(config.getInt(RowflowConfig.METRICS_PORT_CONFIG))) {
            RowflowPipeline pipeline = RowflowPipeline.start(plan, uids, metrics.registry());
            pipeline.serveOn(metrics);
            long started = System.currentTimeMillis();
            // Where a start's time went, for a pod that is slow to read (docs/performance.md, start-up); the
            // group's join and the first fetch come after this.
            // The JVM's own start, to the millisecond (the process's start time in /proc is read against a boot
            // time given in whole seconds).
            long launched = java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
            LOG.info("rowflow {} running; metrics on port {}; started in {} s: the JVM and the command line {} s, "
                            + "the configuration and plan {} s, connections, tables and topics {} s",
                    RowflowVersion.version(), metrics.port(), seconds(started - launched), seconds(called - launched),
                    seconds(planned - called), seconds(started - planned));

            // SIGTERM and SIGINT are handled here rather than by the JVM's shutdown: a JVM that
            // shuts down on a signal exits 143 (130) whatever its hooks do, and Kubernetes, systemd
            // and scripts read that as a failure. The handlers only wake this thread, which commits,
            // closes and returns 0.
            CountDownLatch stop = new CountDownLatch(1);
            Signal.handle(new Signal("TERM"), signal -> stop.countDown());
            Signal.handle(new Signal("INT"), signal -> stop.countDown());
            Thread watch = new Thread(() -> {
                try {
                    pipeline.awaitTermination();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                stop.countDown();
            }, "rowflow-streams-watch");
            watch.setDaemon(true);
            watch.start();
            // Any other way the JVM ends (SIGHUP, System.exit elsewhere) still commits.
            AtomicBoolean closed = new AtomicBoolean();
            Runnable close = () -> {
                if (closed.compareAndSet(false, true)) {
                    LOG.info("stopping: committing and closing the streams");
                    pipeline.close();
                }
            };
            Runtime.getRuntime().addShutdownHook(new Thread(close, "rowflow-shutdown"));

            stop.await();
            boolean failed = pipeline.state() == KafkaStreams.State.ERROR;
            close.run();
            return failed ? 1 : 0;
        }
    }

    private static String seconds(long millis) {
        return String.format(java.util.Locale.ROOT, "%.2f", millis / 1000.0);
    }
}
