package org.elastras.experiments.torture;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.elastras.master.local.ParentWatch;

/**
 * One ElasTraS process (an OTM or a master) of a torture cluster, in its own JVM on this JVM's
 * class path, so that it can be killed with SIGKILL and paused with SIGSTOP. It runs under
 * {@link ParentWatch}, so it exits when this JVM ends, even by SIGKILL. Its standard error goes to
 * {@code <name>.log} and every line of its standard output to {@code <name>.out} and to a listener
 * (called on the reader thread). Thread-safe.
 */
final class ChildJvm {

    /** Heap of one child: the cluster's data is small, and five JVMs share the machine. */
    private static final String HEAP = "-Xmx256m";
    private static final long SIGNAL_TIMEOUT_MS = 10_000;
    private static final long EXIT_TIMEOUT_MS = 30_000;

    private final String name;
    private final Process process;
    private final Path log;

    private ChildJvm(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code mainClass} with {@code args}; {@code onLine} sees every line the child prints
     * on standard output (from a reader thread of its own).
     */
    static ChildJvm start(String name, String mainClass, List<String> args, Path logDirectory, Consumer<String> onLine)
            throws IOException {
        Objects.requireNonNull(onLine, "onLine");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP,
                // One core's worth of GC and JIT threads: the whole cluster shares a small machine.
                "-XX:+UseSerialGC", "-XX:CICompilerCount=2", "-cp", System.getProperty("java.class.path"),
                ParentWatch.class.getName(), mainClass));
        command.addAll(args);
        Files.createDirectories(logDirectory);
        Path log = logDirectory.resolve(name + ".log");
        Path out = logDirectory.resolve(name + ".out");
        // The standard input stays an open pipe for as long as this JVM lives: ParentWatch's signal.
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        Thread reader = new Thread(() -> copyLines(process, out, onLine), "child-out-" + name);
        reader.setDaemon(true);
        reader.start();
        return new ChildJvm(name, process, log);
    }

    private static void copyLines(Process process, Path out, Consumer<String> onLine) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                BufferedWriter file = Files.newBufferedWriter(out, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                file.write(line);
                file.newLine();
                file.flush();
                onLine.accept(line);
            }
        } catch (IOException e) {
            // The child is gone (killed): its output ends here.
        }
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    boolean alive() {
        return process.isAlive();
    }

    /**
     * Sends {@code signal} ("STOP", "CONT", "KILL", "TERM") with kill(1); false if the process had
     * already ended (an OTM exits on its own once it can serve nothing more).
     *
     * @throws IOException if kill(1) failed on a live process
     */
    boolean signal(String signal) throws IOException, InterruptedException {
        if (!process.isAlive()) {
            return false;
        }
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).redirectErrorStream(true).start();
        if (!kill.waitFor(SIGNAL_TIMEOUT_MS, TimeUnit.MILLISECONDS) || kill.exitValue() != 0) {
            kill.destroyForcibly();
            if (!process.isAlive()) {
                return false; // It ended meanwhile.
            }
            throw new IOException("kill -" + signal + " " + process.pid() + " (" + name + ") failed");
        }
        return true;
    }

    /** The exit status, or null while the process runs. */
    Integer exitStatus() {
        return process.isAlive() ? null : process.exitValue();
    }

    /** SIGKILL, then waits for the process to end. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(EXIT_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(name + " (pid " + process.pid() + ") survived SIGKILL for " + EXIT_TIMEOUT_MS + " ms");
        }
    }

    /** SIGTERM (a clean stop), then SIGKILL if it has not ended within {@code graceMs}. */
    void stop(long graceMs) throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(graceMs, TimeUnit.MILLISECONDS)) {
            kill();
        }
    }
}
