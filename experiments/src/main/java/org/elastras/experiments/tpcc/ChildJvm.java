package org.elastras.experiments.tpcc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM this benchmark starts for a part of the cluster (ZooKeeper, the master) so that it runs
 * and is measured apart from the terminals: {@code java -Xmx.. [flags] -cp <this JVM's class path>
 * ParentWatch <main class> [args]}, output to a log file. tm-master's {@code ParentWatch} ends the
 * child when its standard input closes, which happens when this JVM exits or dies, so a child
 * never outlives the benchmark. Started and closed by one thread.
 */
final class ChildJvm implements AutoCloseable {

    private static final String PARENT_WATCH = "org.elastras.master.local.ParentWatch";
    private static final long STOP_WAIT_SECONDS = 10;

    private final String name;
    private final Process process;
    private final Path log;

    private ChildJvm(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** Starts {@code mainClass}; returns at once (the caller checks readiness its own way). */
    static ChildJvm start(String name, String mainClass, List<String> args, int heapMb, List<String> jvmFlags, Path log)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + heapMb + "m");
        command.addAll(jvmFlags);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(PARENT_WATCH);
        command.add(mainClass);
        command.addAll(args);
        Files.createDirectories(log.getParent());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        return new ChildJvm(name, p, log);
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    Path log() {
        return log;
    }

    /** Closes its standard input (ParentWatch exits, running shutdown hooks), then kills it if it lingers. */
    @Override
    public void close() throws IOException, InterruptedException {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // Already gone.
        }
        if (!process.waitFor(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        }
    }
}
