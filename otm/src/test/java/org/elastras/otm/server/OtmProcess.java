package org.elastras.otm.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test fault harness: an OTM as a separate JVM process (the real {@link OtmMain}), so that a test
 * can kill it with SIGKILL. Its output goes to a log file next to the test's data.
 */
final class OtmProcess implements AutoCloseable {

    private static final Pattern READY = Pattern.compile("ELASTRAS-OTM READY id=(\\S+) port=(\\d+)");

    private final Process process;
    private final int port;

    private OtmProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static OtmProcess start(String otmId, String zkConnect, Path dfsDirectory, Path log) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(OtmMain.class.getName());
        command.addAll(List.of("--id", otmId, "--zk", zkConnect, "--dfs", dfsDirectory.toUri().toString(), "--port", "0",
                "--standalone"));
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
                throw new IllegalStateException("OTM process exited before it was ready; see " + log);
            } catch (IOException e) {
                throw new IllegalStateException("cannot read the OTM process's output", e);
            }
        });
        try {
            return new OtmProcess(process, ready.get(60, TimeUnit.SECONDS));
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IllegalStateException("OTM " + otmId + " did not start; see " + log, e);
        }
    }

    int port() {
        return port;
    }

    /** SIGKILL: no shutdown hook, no flush, no close. */
    void kill9() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("OTM process did not die");
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill9();
        }
    }
}
