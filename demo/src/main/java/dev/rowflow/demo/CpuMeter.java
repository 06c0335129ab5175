package dev.rowflow.demo;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU spent during a phase of the bench: this JVM's (the stack and the client or pipeline in it)
 * and the whole machine's share of busy time, from /proc/stat. A phase whose machine is busy near
 * 100% is bound by CPU, and then its rows/s are the inverse of its CPU per row.
 */
final class CpuMeter {
    private final long processStart = processCpuNanos();
    private final long[] machineStart = machine();

    /** What a phase used. */
    record Usage(double processCpuSeconds, double machineBusy) {
        double microsPerRow(long rows) {
            return Math.round(processCpuSeconds * 1e6 / rows * 10) / 10.0;
        }
    }

    Usage stop() {
        long[] machineEnd = machine();
        double busy = 0;
        long total = machineEnd[1] - machineStart[1];
        if (total > 0) {
            busy = (double) (machineEnd[0] - machineStart[0]) / total;
        }
        return new Usage((processCpuNanos() - processStart) / 1e9, Math.round(busy * 100) / 100.0);
    }

    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }

    /** {busy, total} jiffies of all CPUs: user + nice + system + irq + softirq + steal, and those plus idle + iowait. */
    private static long[] machine() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long user = Long.parseLong(f[1]);
            long nice = Long.parseLong(f[2]);
            long system = Long.parseLong(f[3]);
            long idle = Long.parseLong(f[4]);
            long iowait = Long.parseLong(f[5]);
            long irq = Long.parseLong(f[6]);
            long softirq = Long.parseLong(f[7]);
            long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
            long busy = user + nice + system + irq + softirq + steal;
            return new long[]{busy, busy + idle + iowait};
        } catch (IOException | RuntimeException e) {
            return new long[]{0, 0};
        }
    }
}
