package org.elastras.experiments.tpcc;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.elastras.experiments.ResultFiles;

/**
 * A private PostgreSQL server for the TPC-C baseline: a fresh cluster in its own temporary
 * directory, listening on a free loopback port, started and stopped by {@code postgres-server.sh}
 * (a resource of this package, copied next to the data; it runs {@code initdb} and {@code pg_ctl}
 * from Debian's package, as user {@code postgres} when this JVM runs as root). Close stops it and
 * deletes its files; a shutdown hook stops it if the JVM exits first (not if the JVM is killed:
 * then {@code postgres-server.sh stop DIR} does). Started and closed by one thread.
 */
public final class PostgresServer implements AutoCloseable {

    /** Exit status of the script when PostgreSQL is not installed. */
    static final int NOT_INSTALLED = 3;
    private static final long SCRIPT_TIMEOUT_SECONDS = 120;
    private static final String SCRIPT = "postgres-server.sh";

    private final Path directory;
    private final Path script;
    private final Path data;
    private final int port;
    private final Thread stopAtExit;
    private boolean closed;

    private PostgresServer(Path directory, Path script, Path data, int port) {
        this.directory = directory;
        this.script = script;
        this.data = data;
        this.port = port;
        this.stopAtExit = new Thread(this::stopQuietly, "postgres-stop-at-exit");
    }

    /** Whether the script finds PostgreSQL's binaries on this machine. */
    public static boolean installed() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("elastras-postgres-probe");
        try {
            Path script = copyScript(dir);
            return run(List.of("bash", script.toString(), "bindir")) == 0;
        } finally {
            ResultFiles.deleteTree(dir);
        }
    }

    /**
     * Creates a new cluster and starts it.
     *
     * @param settings server settings ({@code -c name=value}), e.g. {@code synchronous_commit=on}
     * @throws IllegalStateException if PostgreSQL is not installed or did not start (with its log)
     */
    public static PostgresServer start(Map<String, String> settings) throws IOException, InterruptedException {
        // World-readable so that user postgres can reach the data directory inside it.
        Path dir = Files.createTempDirectory("elastras-postgres", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        try {
            Path script = copyScript(dir);
            Path data = dir.resolve("data");
            int port = freePort();
            List<String> command = new ArrayList<>(List.of("bash", script.toString(), "start", data.toString(), Integer.toString(port)));
            settings.forEach((name, value) -> {
                if (!name.matches("[a-z_.]+") || !value.matches("[A-Za-z0-9_.:/-]+")) {
                    throw new IllegalArgumentException("a server setting must be name=value without spaces or quotes, got "
                            + name + "=" + value);
                }
                command.add(name + "=" + value);
            });
            Path log = dir.resolve("start.log");
            int status = run(command, log);
            if (status == NOT_INSTALLED) {
                throw new IllegalStateException("PostgreSQL is not installed on this machine: apt-get install postgresql");
            }
            if (status != 0) {
                throw new IllegalStateException("PostgreSQL did not start (" + SCRIPT + " exit " + status + "):\n"
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
            PostgresServer server = new PostgresServer(dir, script, data, port);
            Runtime.getRuntime().addShutdownHook(server.stopAtExit);
            return server;
        } catch (IOException | InterruptedException | RuntimeException e) {
            ResultFiles.deleteTree(dir);
            throw e;
        }
    }

    /** The JDBC URL of database {@code database} as user tpcc. */
    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=tpcc";
    }

    public int port() {
        return port;
    }

    /** The postmaster's process id (the first line of postmaster.pid). */
    public long pid() throws IOException {
        return Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid"), StandardCharsets.US_ASCII).get(0).trim());
    }

    /** The server's log file. */
    public Path log() {
        return data.resolve("server.log");
    }

    private static Path copyScript(Path dir) throws IOException {
        Path script = dir.resolve(SCRIPT);
        try (InputStream in = PostgresServer.class.getResourceAsStream("/tpcc/" + SCRIPT)) {
            if (in == null) {
                throw new IllegalStateException("resource /tpcc/" + SCRIPT + " is missing from the class path");
            }
            Files.copy(in, script);
        }
        return script;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static int run(List<String> command) throws IOException, InterruptedException {
        return run(command, null);
    }

    /** Runs the script, output to {@code log} (or discarded); its exit status. */
    private static int run(List<String> command, Path log) throws IOException, InterruptedException {
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
        b.redirectOutput(log == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.to(log.toFile()));
        Process p = b.start();
        if (!p.waitFor(SCRIPT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish in " + SCRIPT_TIMEOUT_SECONDS + " s");
        }
        return p.exitValue();
    }

    private synchronized void stopQuietly() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            int status = run(List.of("bash", script.toString(), "stop", data.toString()));
            if (status != 0) {
                System.err.println("PostgreSQL in " + data + " did not stop cleanly (exit " + status + "); its log: " + log());
            }
        } catch (IOException | InterruptedException e) {
            System.err.println("PostgreSQL in " + data + " did not stop: " + e);
        }
    }

    /** Stops the server (fast shutdown) and deletes its files. */
    @Override
    public void close() throws IOException {
        stopQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(stopAtExit);
        } catch (IllegalStateException e) {
            // The JVM is exiting; the hook ran or runs, and stopQuietly is idempotent.
        }
        ResultFiles.deleteTree(directory);
    }
}
