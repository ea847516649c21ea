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
 * One OTM of a local cluster as a child JVM ({@code OtmMain} by class name, under
 * {@link ParentWatch}, so it exits if the launcher dies). Its standard error and output go to a
 * log file. Start and stop from one thread; {@link #alive()} from any.
 */
final class OtmChildProcess implements AutoCloseable {

    static final String OTM_MAIN = "org.elastras.otm.server.OtmMain";
    private static final Pattern READY = Pattern.compile("ELASTRAS-OTM READY id=(\\S+) port=(\\d+)");
    private static final long READY_TIMEOUT_MS = 60_000;
    private static final long STOP_TIMEOUT_MS = 15_000;

    private final String otmId;
    private final Process process;
    private final int port;
    /** Held open for the child's whole life: closing it (or this JVM dying) stops the child. */
    private final OutputStream lifeline;

    private OtmChildProcess(String otmId, Process process, int port) {
        this.otmId = otmId;
        this.process = process;
        this.port = port;
        this.lifeline = process.getOutputStream();
    }

    /**
     * Starts the OTM and waits for its READY line.
     *
     * @param classPath a class path holding the otm module and this module's classes
     */
    static OtmChildProcess start(String otmId, String classPath, String zkConnect, URI dfs, int heapMb, Path log)
            throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + heapMb + "m");
        command.add("-cp");
        command.add(classPath);
        command.add(ParentWatch.class.getName());
        command.add(OTM_MAIN);
        command.addAll(List.of("--id", otmId, "--zk", zkConnect, "--dfs", dfs.toString(), "--port", "0"));
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        CompletableFuture<Integer> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> pumpOutput(process, log, ready), "otm-output-" + otmId);
        reader.setDaemon(true);
        reader.start();
        try {
            return new OtmChildProcess(otmId, process, ready.get(READY_TIMEOUT_MS, TimeUnit.MILLISECONDS));
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IOException("OTM " + otmId + " did not start within " + READY_TIMEOUT_MS + " ms; see " + log, e);
        }
    }

    /** Completes {@code ready} with the port of the READY line, then copies the rest of stdout to the log. */
    private static void pumpOutput(Process process, Path log, CompletableFuture<Integer> ready) {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                PrintStream copy = new PrintStream(Files.newOutputStream(log, StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND), true, StandardCharsets.UTF_8)) {
            String line;
            while ((line = out.readLine()) != null) {
                copy.println(line);
                Matcher m = READY.matcher(line);
                if (m.find()) {
                    ready.complete(Integer.parseInt(m.group(2)));
                }
            }
        } catch (IOException | RuntimeException e) {
            ready.completeExceptionally(e);
        }
        ready.completeExceptionally(new IOException("the OTM process exited before it was ready"));
    }

    String otmId() {
        return otmId;
    }

    int port() {
        return port;
    }

    boolean alive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    /** SIGTERM (the OTM closes cleanly), then SIGKILL if it has not exited in time. Idempotent. */
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
