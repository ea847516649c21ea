package org.elastras.master.cluster;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.elastras.otm.server.OtmMain;

/**
 * Test fault harness: an OTM of a cluster in its own JVM (the real {@link OtmMain}), so that a test
 * can kill it with SIGKILL or pause it with SIGSTOP. Its standard error goes to {@code <id>.log}.
 */
record OtmProcess(String otmId, Process process, int port) implements AutoCloseable {

    private static final Pattern READY = Pattern.compile("ELASTRAS-OTM READY id=(\\S+) port=(\\d+)");

    /** Starts the OTM and waits (up to 60 s) until it serves. */
    static OtmProcess start(String otmId, String zkConnect, Path dfs, Path logDirectory, String... extraArgs)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), OtmMain.class.getName(),
                "--id", otmId, "--zk", zkConnect, "--dfs", dfs.toUri().toString(), "--port", "0"));
        command.addAll(List.of(extraArgs));
        Path log = logDirectory.resolve(otmId + ".log");
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        CompletableFuture<Integer> ready = CompletableFuture.supplyAsync(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    Matcher m = READY.matcher(line);
                    if (m.find()) {
                        return Integer.parseInt(m.group(2));
                    }
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            throw new IllegalStateException("OTM process exited before it was ready; see " + log);
        });
        try {
            return new OtmProcess(otmId, process, ready.get(60, TimeUnit.SECONDS));
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IllegalStateException("OTM " + otmId + " did not start; see " + log, e);
        }
    }

    /** Sends {@code signal} (e.g. "STOP", "CONT") to the process. */
    void signal(String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /** Kills the process (SIGKILL) and waits for it to end. */
    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }
}
