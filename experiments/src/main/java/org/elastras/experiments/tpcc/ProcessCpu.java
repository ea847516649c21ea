package org.elastras.experiments.tpcc;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time used by processes, from Linux's {@code /proc/<pid>/stat} (user + system, in clock
 * ticks of 1/100 s, the value of {@code getconf CLK_TCK} on Linux), for the CPU split of a run.
 * Elsewhere, or for a process that ended, the answer is NaN. Static functions; any thread.
 */
final class ProcessCpu {

    private static final double TICKS_PER_SECOND = 100.0;

    private ProcessCpu() {
    }

    /** CPU seconds this JVM has used. */
    static double thisJvmSeconds() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime() / 1e9;
        }
        return Double.NaN;
    }

    /** CPU seconds process {@code pid} has used (its own threads). */
    static double seconds(long pid) {
        long[] t = ticks(pid);
        return t == null ? Double.NaN : (t[0] + t[1]) / TICKS_PER_SECOND;
    }

    /**
     * CPU seconds of process {@code pid} and of all its children, live and ended: its own time,
     * the time of the children it has waited for (cutime, cstime), and the time of its live
     * children. PostgreSQL's postmaster forks a backend per connection and reaps it, so this is the
     * whole server's CPU.
     */
    static double secondsWithChildren(long pid) {
        long[] own = ticks(pid);
        if (own == null) {
            return Double.NaN;
        }
        long total = own[0] + own[1] + own[2] + own[3];
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path p : processes) {
                long[] child = ticks(Long.parseLong(p.getFileName().toString()));
                if (child != null && child[4] == pid) {
                    total += child[0] + child[1];
                }
            }
        } catch (IOException e) {
            return Double.NaN;
        }
        return total / TICKS_PER_SECOND;
    }

    /**
     * CPU seconds the JIT compiler threads of JVM {@code pid} have used (HotSpot names them
     * "C1 CompilerThread<n>" and "C2 CompilerThread<n>"; Linux keeps the first 15 characters). A
     * JVM whose compilers are still busy is not at steady state: the figure says how much of a
     * measured period went to compiling rather than to the workload. NaN if it cannot be read.
     */
    static double jitSeconds(long pid) {
        long ticks = 0;
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path thread : threads) {
                String name;
                try {
                    name = Files.readString(thread.resolve("comm"), StandardCharsets.US_ASCII).trim();
                } catch (IOException e) {
                    continue; // the thread ended while listed
                }
                if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                    long[] t = ticks(thread.resolve("stat"));
                    if (t != null) {
                        ticks += t[0] + t[1];
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
        return ticks / TICKS_PER_SECOND;
    }

    /** {@link #jitSeconds(long)} of this JVM. */
    static double thisJvmJitSeconds() {
        return jitSeconds(ProcessHandle.current().pid());
    }

    /** utime, stime, cutime, cstime, ppid of a process; null if it cannot be read. */
    private static long[] ticks(long pid) {
        return ticks(Path.of("/proc", Long.toString(pid), "stat"));
    }

    /** utime, stime, cutime, cstime, ppid from a {@code stat} file of a process or thread; null if unreadable. */
    private static long[] ticks(Path statFile) {
        String stat;
        try {
            stat = Files.readString(statFile, StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // After the name: state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17); f[0] is field 3.
        if (f.length < 15) {
            return null;
        }
        return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]), Long.parseLong(f[14]),
                Long.parseLong(f[1])};
    }
}
