package dev.rowflow.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A JVM's CPU seconds so far, and of them those of its JIT compiler threads ({@code C1/C2
 * CompilerThread}), of its collector ({@code VM Thread}, where the serial collector runs, and
 * {@code GC Thread}s and G1's threads) and of the HBase client's own threads ({@code hbaseClient}:
 * its RPC event loop {@code RPCClient-NioEventLoopGroup-*}, which encodes every request and reads
 * every response, and its request threads {@code htable-pool-*}), from {@code /proc/PID/stat} and
 * {@code /proc/PID/task/TID/}. The rest is the writer's own work: reading, decoding, keying and
 * buffering rows, and handing them to the client -- whose region lookups and grouping into
 * requests run on the thread that sends a buffer, the writing thread or rowflow's sender -- and
 * whatever else the process runs (ended threads' CPU stays in the process's total). A short run pays the
 * compilation of its hot code out of its own CPU; a process that runs for days does not.
 */
record ThreadCpu(double total, double jit, double gc, double hbaseClient) {
    /** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
    private static final double TICKS = 100.0;

    /** The CPU of the process {@code pid} so far. */
    static ThreadCpu of(long pid) throws IOException {
        Path proc = Path.of("/proc", Long.toString(pid));
        double total = seconds(Files.readString(proc.resolve("stat")));
        double jit = 0;
        double gc = 0;
        double hbaseClient = 0;
        try (Stream<Path> tasks = Files.list(proc.resolve("task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String name;
                double seconds;
                try {
                    name = Files.readString(task.resolve("comm")).trim();
                    seconds = seconds(Files.readString(task.resolve("stat")));
                } catch (NoSuchFileException ended) {
                    continue; // ended between the listing and the read: its CPU is in the total
                }
                if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
                    jit += seconds;
                } else if (name.equals("VM Thread") || name.startsWith("GC Thread") || name.startsWith("G1 ")) {
                    gc += seconds;
                } else if (isHBaseClient(name)) {
                    hbaseClient += seconds;
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return new ThreadCpu(total, jit, gc, hbaseClient);
    }

    /** Whether a thread of this {@code comm} (the first 15 characters of its Java name) is the HBase client's own. */
    static boolean isHBaseClient(String comm) {
        return comm.startsWith("RPCClient-NioEv") || comm.startsWith("htable-pool");
    }

    /** This JVM's CPU when its workers' progress first reached half of what they do, and their rows by then. */
    record HalfWay(ThreadCpu cpu, long rows) {
    }

    /**
     * Waits for {@code workers} to end, reading this JVM's CPU the first time {@code progress}
     * reaches {@code half} (the second half of a run is its steady figure, past most of the JIT's
     * work); null if the workers ended before that was seen.
     */
    static HalfWay awaitHalfWay(List<Thread> workers, java.util.function.LongSupplier progress, long half,
                                java.util.function.LongSupplier rows) throws IOException, InterruptedException {
        HalfWay halfWay = null;
        for (Thread worker : workers) {
            while (worker.isAlive()) {
                if (halfWay == null && progress.getAsLong() >= half) {
                    halfWay = new HalfWay(self(), rows.getAsLong());
                }
                worker.join(2);
            }
        }
        return halfWay;
    }

    /** This JVM's CPU so far. */
    static ThreadCpu self() throws IOException {
        return of(ProcessHandle.current().pid());
    }

    /** The CPU spent from {@code before} to this. */
    ThreadCpu since(ThreadCpu before) {
        return new ThreadCpu(total - before.total, jit - before.jit, gc - before.gc, hbaseClient - before.hbaseClient);
    }

    /** The CPU neither compiling nor collecting. */
    double work() {
        return total - jit - gc;
    }

    /** utime + stime of a stat line, in seconds. */
    private static double seconds(String stat) {
        // Fields after the command name, which is in parentheses and may hold spaces.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS;
    }
}
