package org.elastras.master.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One process of a local cluster (an OTM or a master) as a child JVM (its main class by name, under
 * {@link ParentWatch}, so it exits if the launcher dies), ready once it printed its READY line with
 * its port. Its standard error and output go to a log file. Start and stop from one thread;
 * {@link #alive()} from any.
 */
final class ChildProcess implements AutoCloseable {

    static final String OTM_MAIN = "org.elastras.otm.server.OtmMain";
    static final String MASTER_MAIN = "org.elastras.master.MasterMain";
    private static final Pattern OTM_READY = Pattern.compile("ELASTRAS-OTM READY id=(\\S+) port=(\\d+)");
    private static final Pattern MASTER_READY = Pattern.compile("ELASTRAS-MASTER READY id=(\\S+) port=(\\d+)(?: dashboard=(\\S+))?");
    /** Generous: a JVM starting on a busy 2-core machine can take tens of seconds. */
    private static final long READY_TIMEOUT_MS = 120_000;
    private static final long STOP_TIMEOUT_MS = 15_000;

    private final String id;
    private final Process process;
    private final int port;
    /** The dashboard's URL of a master started with one, else null. */
    private final String dashboardUrl;
    /** Held open for the child's whole life: closing it (or this JVM dying) stops the child. */
    private final OutputStream lifeline;

    /** What the READY line said. */
    private record Ready(int port, String dashboardUrl) {
    }

    private ChildProcess(String id, Process process, Ready ready) {
        this.id = id;
        this.process = process;
        this.port = ready.port();
        this.dashboardUrl = ready.dashboardUrl();
        this.lifeline = process.getOutputStream();
    }

    /**
     * Starts an OTM of the cluster and waits for its READY line.
     *
     * @param classPath a class path holding the otm module and this module's classes
     */
    static ChildProcess otm(String otmId, String classPath, String zkConnect, URI dfs, int heapMb, Path log)
            throws Exception {
        return start(otmId, classPath, heapMb, log, OTM_READY, OTM_MAIN,
                List.of("--id", otmId, "--zk", zkConnect, "--dfs", dfs.toString(), "--port", "0"));
    }

    /**
     * Starts a master and waits for its READY line (it is then a standby or the active master).
     *
     * @param classPath a class path holding this module with its dependencies
     */
    static ChildProcess master(String masterId, String classPath, String zkConnect, URI dfs, int heapMb, Path log,
            String adminToken) throws Exception {
        return start(masterId, classPath, heapMb, log, MASTER_READY, MASTER_MAIN,
                List.of("--id", masterId, "--zk", zkConnect, "--dfs", dfs.toString(), "--port", "0",
                        "--dashboard-port", "0", "--admin-token", adminToken, "--open-reads"));
    }

    private static ChildProcess start(String id, String classPath, int heapMb, Path log, Pattern readyLine,
            String mainClass, List<String> args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + heapMb + "m");
        command.add("-cp");
        command.add(classPath);
        command.add(ParentWatch.class.getName());
        command.add(mainClass);
        command.addAll(args);
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        CompletableFuture<Ready> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> pumpOutput(process, log, readyLine, ready), "output-" + id);
        reader.setDaemon(true);
        reader.start();
        try {
            return new ChildProcess(id, process, ready.get(READY_TIMEOUT_MS, TimeUnit.MILLISECONDS));
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IOException(id + " did not start within " + READY_TIMEOUT_MS + " ms; see " + log, e);
        }
    }

    /** Completes {@code ready} with the port of the READY line, then copies the rest of stdout to the log. */
    private static void pumpOutput(Process process, Path log, Pattern readyLine, CompletableFuture<Ready> ready) {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                PrintStream copy = new PrintStream(Files.newOutputStream(log, StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND), true, StandardCharsets.UTF_8)) {
            String line;
            while ((line = out.readLine()) != null) {
                copy.println(line);
                Matcher m = readyLine.matcher(line);
                if (m.find()) {
                    ready.complete(new Ready(Integer.parseInt(m.group(2)), m.groupCount() >= 3 ? m.group(3) : null));
                }
            }
        } catch (IOException | RuntimeException e) {
            ready.completeExceptionally(e);
        }
        ready.completeExceptionally(new IOException("the process exited before it was ready"));
    }

    String id() {
        return id;
    }

    int port() {
        return port;
    }

    /** The dashboard's URL of a master, null for an OTM. */
    String dashboardUrl() {
        return dashboardUrl;
    }

    boolean alive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    /** Kills the process at once (SIGKILL), as a crash would; for fault injection. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }

    /** SIGTERM (the process closes cleanly), then SIGKILL if it has not exited in time. Idempotent. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
        }
        try {
            lifeline.close();
        } catch (IOException e) {
            // The child is gone; nothing to tell it.
        }
    }
}
