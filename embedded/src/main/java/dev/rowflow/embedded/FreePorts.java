package dev.rowflow.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports for servers that cannot bind port 0 themselves (Kafka's KRaft listeners, whose
 * controller port the quorum configuration names before the server starts).
 *
 * <p>A port is free when asked, but only bound later by the server: a port the kernel handed out
 * for port 0 comes from the ephemeral range, where another JVM's server or any outgoing connection
 * may take it in between -- test JVMs forked side by side did (Kafka: "failed to bind ... Address
 * already in use", and Kafka exits the JVM). So ports come from below the ephemeral range (Linux
 * starts it at 32768), and each is handed out only to the JVM that holds the lock on its file in
 * {@code java.io.tmpdir}/rowflow-ports until it exits: no two JVMs of this machine get the same
 * port, and nothing takes it as an ephemeral port.
 */
final class FreePorts {
    private static final int LOW = 20_000;
    private static final int HIGH = 32_000;
    private static final Path LOCKS = Path.of(System.getProperty("java.io.tmpdir"), "rowflow-ports");
    /** Held until the JVM exits, so that no other JVM takes these ports. */
    private static final List<FileLock> HELD = new CopyOnWriteArrayList<>();

    private FreePorts() {
    }

    static synchronized int next() {
        try {
            Files.createDirectories(LOCKS);
            for (int attempt = 0; attempt < 1000; attempt++) {
                int port = ThreadLocalRandom.current().nextInt(LOW, HIGH);
                FileLock lock = tryLock(port);
                if (lock == null) {
                    continue;
                }
                if (bindable(port)) {
                    HELD.add(lock);
                    return port;
                }
                lock.release();
                lock.channel().close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
        throw new IllegalStateException("no free loopback port between " + LOW + " and " + HIGH + " after 1000 tries");
    }

    private static FileLock tryLock(int port) throws IOException {
        FileChannel channel = FileChannel.open(LOCKS.resolve(port + ".lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
            }
            return lock;
        } catch (OverlappingFileLockException heldHere) {
            channel.close();
            return null;
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
