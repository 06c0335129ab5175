package dev.rowflow.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;

/**
 * A main class of this classpath in a JVM of its own -- a server of the stack, a writer under
 * measurement -- and what /proc says of it: CPU time and peak resident set size.
 */
final class ChildJvm implements AutoCloseable {
    /** Lines of a child's output that carry a message to its parent (the rest is only logged). */
    private static final List<String> MESSAGES = List.of("READY", "STARTED", "CONSUMING", "RESULT");

    private final Process process;
    private final String name;
    private final java.util.concurrent.BlockingQueue<String> messages = new java.util.concurrent.LinkedBlockingQueue<>();
    private javax.management.remote.JMXConnector jmx;
    private com.sun.management.ThreadMXBean threads;

    private ChildJvm(Process process, String name, Path log) {
        this.process = process;
        this.name = name;
        // Its output is read to the end, always: a child whose pipe fills up stops.
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8));
                 java.io.Writer file = log == null ? java.io.Writer.nullWriter()
                         : Files.newBufferedWriter(log, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                         java.nio.file.StandardOpenOption.APPEND)) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    file.write(line);
                    file.write('\n');
                    for (String message : MESSAGES) {
                        if (line.startsWith(message)) {
                            messages.add(line);
                        }
                    }
                }
            } catch (IOException e) {
                // the child is gone
            } finally {
                messages.add("");
            }
        }, name + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code mainClass} with {@code args}; its output (both streams) goes to {@code log}, if given. */
    static ChildJvm start(String name, List<String> jvmOptions, String mainClass, List<String> args, Path log)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(moduleFlags());
        command.addAll(dev.rowflow.embedded.CrashReports.sameAsThisJvm());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        return new ChildJvm(new ProcessBuilder(command).redirectErrorStream(true).start(), name, log);
    }

    Process process() {
        return process;
    }

    long pid() {
        return process.pid();
    }

    /** The next message line of its output starting with {@code prefix} (READY, RESULT), without the prefix. */
    String awaitLine(String prefix) throws IOException, InterruptedException {
        while (true) {
            String line = messages.poll(10, java.util.concurrent.TimeUnit.MINUTES);
            if (line == null || line.isEmpty()) {
                messages.add("");
                throw new IOException(name + " ended (or said nothing for 10 minutes) without a line starting with "
                        + prefix);
            }
            if (line.startsWith(prefix)) {
                return line.substring(prefix.length()).trim();
            }
        }
    }

    /** User plus system CPU seconds it has used so far. */
    double cpuSeconds() throws IOException {
        return ThreadCpu.of(pid()).total();
    }

    /**
     * Bytes every thread of it has allocated so far, ended ones included (its ThreadMXBean, over
     * JMX through the attach API; the connection is opened at the first call): exact at any moment,
     * where a count kept by the garbage collector moves only at a collection.
     */
    long allocatedBytes() throws IOException {
        if (threads == null) {
            threads = java.lang.management.ManagementFactory.newPlatformMXBeanProxy(mbeans(),
                    java.lang.management.ManagementFactory.THREAD_MXBEAN_NAME, com.sun.management.ThreadMXBean.class);
        }
        return threads.getTotalThreadAllocatedBytes();
    }

    /** Has it collect its garbage now, a full collection ({@code System.gc()} in it), and waits for it. */
    void collectGarbage() throws IOException {
        java.lang.management.ManagementFactory.newPlatformMXBeanProxy(mbeans(),
                java.lang.management.ManagementFactory.MEMORY_MXBEAN_NAME, java.lang.management.MemoryMXBean.class).gc();
    }

    /** The long that operation {@code operation(String)} of MBean {@code objectName} returns for {@code argument}, over JMX. */
    long invoke(String objectName, String operation, String argument) throws IOException {
        try {
            return (Long) mbeans().invoke(new javax.management.ObjectName(objectName), operation,
                    new Object[] {argument}, new String[] {String.class.getName()});
        } catch (javax.management.JMException e) {
            throw new IOException("cannot call " + operation + " of " + objectName + " in " + name + " (pid " + pid()
                    + ")", e);
        }
    }

    /** Its platform MBeans, over JMX through the attach API; the connection is opened at the first call. */
    private javax.management.MBeanServerConnection mbeans() throws IOException {
        if (jmx == null) {
            String address;
            try {
                com.sun.tools.attach.VirtualMachine vm = com.sun.tools.attach.VirtualMachine.attach(Long.toString(pid()));
                try {
                    address = vm.startLocalManagementAgent();
                } finally {
                    vm.detach();
                }
            } catch (com.sun.tools.attach.AttachNotSupportedException e) {
                throw new IOException("cannot attach to " + name + " (pid " + pid() + ")", e);
            }
            jmx = javax.management.remote.JMXConnectorFactory.connect(new javax.management.remote.JMXServiceURL(address));
        }
        return jmx.getMBeanServerConnection();
    }

    /** Its peak resident set size so far, in MB (VmHWM). */
    long peakRssMb() throws IOException {
        return statusKb("VmHWM:") >> 10;
    }

    private long statusKb(String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.replaceAll("\\D", ""));
            }
        }
        throw new IOException("no " + field + " in /proc/" + pid() + "/status");
    }

    @Override
    public void close() throws InterruptedException {
        if (jmx != null) {
            try {
                jmx.close();
            } catch (IOException e) {
                // the JVM is going anyway
            }
        }
        try {
            process.getOutputStream().close(); // a ServerProcess ends when its input does
        } catch (IOException e) {
            // it is going anyway
        }
        process.destroy();
        if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    /**
     * The module flags this JVM runs with, for the child: the jar manifest's {@code Add-Opens} and
     * {@code Add-Exports} (they only apply to {@code java -jar}, and the child is started with
     * {@code -cp}) and any {@code --add-opens}/{@code --add-exports} given on this JVM's command line
     * (a test's argLine).
     */
    static List<String> moduleFlags() throws IOException {
        java.util.Set<String> flags = new java.util.LinkedHashSet<>();
        Path jar;
        try {
            jar = Path.of(ChildJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        if (Files.isRegularFile(jar)) {
            try (JarFile file = new JarFile(jar.toFile())) {
                var attributes = file.getManifest().getMainAttributes();
                for (String kind : List.of("Add-Opens", "Add-Exports")) {
                    String modules = attributes.getValue(kind);
                    if (modules != null) {
                        for (String module : modules.trim().split("\\s+")) {
                            flags.add("--" + kind.toLowerCase() + "=" + module + "=ALL-UNNAMED");
                        }
                    }
                }
            }
        }
        for (String argument : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-opens") || argument.startsWith("--add-exports")) {
                flags.add(argument);
            }
        }
        flags.add("-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true");
        return new ArrayList<>(flags);
    }
}
