package dev.rowflow.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * One server of the embedded stack in a JVM of its own, for measurements that must not share a
 * process with it ({@code rowflow bench --external}):
 * <pre>
 * java -cp ... dev.rowflow.embedded.ServerProcess kafka|hbase DIR
 * </pre>
 * prints one line {@code READY key=value ...} with rowflow's client settings for it
 * ({@code kafka.bootstrap.servers}, or the {@code hbase.zookeeper.*} keys), then serves until its
 * standard input ends -- so it also ends when the process that started it dies. An HBase process
 * counts its WAL appends per table ({@link WalAppends}, over JMX).
 */
public final class ServerProcess {
    private ServerProcess() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2 || !(args[0].equals("kafka") || args[0].equals("hbase"))) {
            System.err.println("usage: ServerProcess kafka|hbase DIR");
            System.exit(2);
        }
        Path dir = Path.of(args[1]);
        Map<String, String> settings = new TreeMap<>();
        AutoCloseable server;
        if (args[0].equals("kafka")) {
            EmbeddedKafka kafka = EmbeddedKafka.start(dir);
            settings.put("kafka.bootstrap.servers", kafka.bootstrapServers());
            server = kafka;
        } else {
            // The WAL through FSHLog, not HBase's default async WAL: over a test cluster's local
            // filesystem the async WAL now and then leaves a sync waiting seconds with nothing being
            // written (jstacks of a stall: handlers in AbstractFSWAL.blockOnSync, its consumer and
            // flusher threads idle) until some other write comes -- a writer with its requests in
            // flight then stalls at random, and the bench measured the WAL, not the writers.
            EmbeddedHBase hbase = EmbeddedHBase.start(dir, Map.of("hbase.wal.provider", "filesystem"));
            // Its WAL appends per table over JMX, for the bench's rows per region batch.
            hbase.countWalAppends();
            settings.putAll(hbase.clientProperties());
            server = hbase;
        }
        StringBuilder ready = new StringBuilder("READY");
        settings.forEach((key, value) -> ready.append(' ').append(key).append('=').append(value));
        System.out.println(ready);
        System.out.flush();
        InputStream in = System.in;
        while (in.read() >= 0) {
            // serve until the parent closes our input (or dies)
        }
        try {
            server.close();
        } catch (Exception e) {
            // exiting anyway
        }
        System.exit(0);
    }
}
